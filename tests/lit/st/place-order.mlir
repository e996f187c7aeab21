// st-place puts a block in a later phase than the compute blocks it reads from, pinned
// ones included (one phase per depth while the graph has fewer depths than the target
// has phases), and says so when a pin leaves no phase for a block.

// RUN: stc-opt %s --split-input-file -p st-apply,st-place --verify-diagnostics | filecheck %s

// relu 2 is pinned to phase 20, so relu 4 and relu 6 follow in phases 21 and 22.
task.graph @chain {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %a_in = task.buffer 1 si %x : tensor<1x4x4x32xi8>
  %a = task.relu 2 %a_in : tensor<1x4x4x32xi8>
  %b_in = task.buffer 3 si %a : tensor<1x4x4x32xi8>
  %b = task.relu 4 %b_in : tensor<1x4x4x32xi8>
  %c_in = task.buffer 5 si %b : tensor<1x4x4x32xi8>
  %c = task.relu 6 %c_in : tensor<1x4x4x32xi8>
  %out = task.buffer 7 so %c : tensor<1x4x4x32xi8>
  task.output 8 "y" %out
}
st.mapping @chain target "tianjicx" {
  st.put_in 2 at (0, 0, 0, 0), (0, 20, soma1)
}
// CHECK:      task.relu 2 {{.*}} (0, 20, soma1)>}
// CHECK:      task.relu 4 {{.*}} (0, 21, soma1)>}
// CHECK:      task.relu 6 {{.*}} (0, 22, soma1)>}

// -----

// relu 6 would need phase 32; tianjicx has 32 phases.
task.graph @chain {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %a_in = task.buffer 1 si %x : tensor<1x4x4x32xi8>
  %a = task.relu 2 %a_in : tensor<1x4x4x32xi8>
  %b_in = task.buffer 3 si %a : tensor<1x4x4x32xi8>
  %b = task.relu 4 %b_in : tensor<1x4x4x32xi8>
  %c_in = task.buffer 5 si %b : tensor<1x4x4x32xi8>
  %c = task.relu 6 %c_in : tensor<1x4x4x32xi8>
  %out = task.buffer 7 so %c : tensor<1x4x4x32xi8>
  task.output 8 "y" %out
}
st.mapping @chain target "tianjicx" {
  st.put_in 2 at (0, 0, 0, 0), (0, 30, soma1)
}
// CHECK: st-place: no phase suits block 6 (task.relu): it must run after block 4 (task.relu, planned for phase 31) and within tianjicx's 32 phases; a block runs in a later phase than the blocks it reads from

// -----

// relu 4 reads from relu 2 and relu 6 from relu 4, but both are pinned to phase 20.
task.graph @chain {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %a_in = task.buffer 1 si %x : tensor<1x4x4x32xi8>
  %a = task.relu 2 %a_in : tensor<1x4x4x32xi8>
  %b_in = task.buffer 3 si %a : tensor<1x4x4x32xi8>
  %b = task.relu 4 %b_in : tensor<1x4x4x32xi8>
  %c_in = task.buffer 5 si %b : tensor<1x4x4x32xi8>
  %c = task.relu 6 %c_in : tensor<1x4x4x32xi8>
  %out = task.buffer 7 so %c : tensor<1x4x4x32xi8>
  task.output 8 "y" %out
}
st.mapping @chain target "tianjicx" {
  st.put_in 2 at (0, 0, 0, 0), (0, 20, soma1)
  st.put_in 6 at (0, 0, 0, 1), (0, 20, soma1)
}
// CHECK: st-place: no phase suits block 4 (task.relu): it must run after block 2 (task.relu, pinned to phase 20) and before block 6 (task.relu, pinned to phase 20); a block runs in a later phase than the blocks it reads from

// -----

// The fc's weight is pinned to phases 0 to 1, before the relu it reads from.
task.graph @late {
  %x = task.input 0 "x" : tensor<1x1x1x32xi8>
  %a_in = task.buffer 1 si %x : tensor<1x1x1x32xi8>
  %a = task.relu 2 %a_in : tensor<1x1x1x32xi8>
  %f_in = task.buffer 3 sifc %a : tensor<1x1x1x32xi8>
  %w = task.weight 4 #task.random<1> : tensor<32x1x1x32xi8>
  %f = task.fc 5 %f_in, %w shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 6 so %f : tensor<1x1x1x32xi8>
  task.output 7 "y" %out
}
st.mapping @late target "tianjicx" {
  st.put_in 2 at (0, 0, 0, 0), (0, 3, soma1)
  st.put_in 4 at (0, 0, 0, 1), (0, 0, memory) to (0, 0, 0, 1), (0, 1, memory)
}
// CHECK: st-place: no phase suits block 5 (task.fc): it must run after block 2 (task.relu, pinned to phase 3) and in a phase of its pinned input storage (0 to 1); a block runs in a later phase than the blocks it reads from

// -----

// relu 4 is pinned to phase 0, so relu 2, which it reads from, has no phase before it.
task.graph @chain {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %a_in = task.buffer 1 si %x : tensor<1x4x4x32xi8>
  %a = task.relu 2 %a_in : tensor<1x4x4x32xi8>
  %b_in = task.buffer 3 si %a : tensor<1x4x4x32xi8>
  %b = task.relu 4 %b_in : tensor<1x4x4x32xi8>
  %out = task.buffer 5 so %b : tensor<1x4x4x32xi8>
  task.output 6 "y" %out
}
st.mapping @chain target "tianjicx" {
  st.put_in 4 at (0, 0, 0, 0), (0, 0, soma1)
}
// CHECK: st-place: no phase suits block 2 (task.relu): it must run before block 4 (task.relu, pinned to phase 0); a block runs in a later phase than the blocks it reads from
