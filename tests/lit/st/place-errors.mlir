// When nothing fits, st-place says which block, how much memory it needs and what was
// full; bad options and annotations are errors too.

// RUN: stc-opt %s --split-input-file -p 'st-apply,st-place{target="tianjicx"}' --verify-diagnostics | filecheck %s
// RUN: not stc-opt %s -p "st-place{iterations=-5}" 2>&1 | filecheck %s --check-prefix=ITERATIONS
// RUN: not stc-opt %s -p "st-place{strategy=\"best\"}" 2>&1 | filecheck %s --check-prefix=STRATEGY

// ITERATIONS: st-place: iterations=-5; the annealing takes 0 or more moves
// STRATEGY: st-place: unknown strategy 'best'; expected one of greedy, row-major

// A 128x128x32 input (524288 B) is more than a tianjicx core holds: split it.
task.graph @big {
  %x = task.input 0 "x" : tensor<1x128x128x32xi8>
  %in = task.buffer 1 si %x : tensor<1x128x128x32xi8>
  %r = task.relu 2 %in : tensor<1x128x128x32xi8>
  %out = task.buffer 3 so %r : tensor<1x128x128x32xi8>
  task.output 4 "y" %out
}
st.mapping @big target "tianjicx" {
}
// CHECK: st-place: block 2 (task.relu) with its input storage 1 needs 1048576 B of local memory, more than the 143360 B a core holds; split it further

// -----

// The relu's input buffer is pinned to core (0, 0) in phase 0, whose soma stages the
// other two relus hold.
task.graph @full {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %a_in = task.buffer 1 si %x : tensor<1x4x4x32xi8>
  %a = task.relu 2 %a_in : tensor<1x4x4x32xi8>
  %b_in = task.buffer 3 si %x : tensor<1x4x4x32xi8>
  %b = task.relu 4 %b_in : tensor<1x4x4x32xi8>
  %c_in = task.buffer 5 si %x : tensor<1x4x4x32xi8>
  %c = task.relu 6 %c_in : tensor<1x4x4x32xi8>
  %out = task.buffer 7 so %a, %b[0:1, 0:4, 0:4, 0:16] at [0, 0, 0, 32], %c[0:1, 0:4, 0:4, 16:32] at [0, 0, 0, 48] : tensor<1x4x4x64xi8>
  task.output 8 "y" %out
}
st.mapping @full target "tianjicx" {
  st.put_in 2 at (0, 0, 0, 0), (0, 0, soma1)
  st.put_in 4 at (0, 0, 0, 0), (0, 0, soma2)
  st.put_in 5 at (0, 0, 0, 0), (0, 0, memory)
}
// CHECK: st-place: block 6 (task.relu) needs 512 B of local memory but no allowed core has room in phase 0: soma1 and soma2 stage taken on 1 core-phases, too little free memory on 0

// -----

// Buffer 1 is a node of the exclusive_placement group "g" but the relu reading it is
// not: they must share a core, which would be both inside and outside "g".
task.graph @mixed {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %in = task.buffer 1 si %x : tensor<1x4x4x32xi8>
  %r = task.relu 2 %in : tensor<1x4x4x32xi8>
  %out = task.buffer 3 so %r : tensor<1x4x4x32xi8>
  task.output 4 "y" %out
}
st.mapping @mixed target "tianjicx" {
  st.area_group "g" [1] {core columns 0 to 3 rows 0 to 3} exclusive_placement
}
// CHECK: st-place: no core suits block 2 (task.relu) with its input storage 1: it needs a computing tile and a core inside area group 'g' and a core outside exclusive_placement area group 'g'

// -----

// An st.coord that is not a coordinate, on a graph st-place maps from scratch.
task.graph @bad {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %in = task.buffer 1 si %x : tensor<1x4x4x32xi8>
  %r = task.relu 2 %in : tensor<1x4x4x32xi8> {st.coord = 5 : i64}
  %out = task.buffer 3 so %r : tensor<1x4x4x32xi8>
  task.output 4 "y" %out
}
// CHECK: the graph's st.coord annotations: block 2 (task.relu): st.coord must be a #st.coord, got 5 : i64
