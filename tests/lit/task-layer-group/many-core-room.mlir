// st-place keeps room for a group's held buffers. On a row of three cores with 6 KB
// usable each (Inputs/tianjicx-1x3.toml), each half of conv 4 fills its core in phase 0
// (5824 B: its rows of the input, the weights, the bias and its result), so buffer 5,
// which both halves fill for relu 6, cannot be held on either of their cores in phase 0.
// The placer puts relu 6 on the third core, which has room for buffer 5 in phase 0: both
// halves send their rows there over the NoC as they make them, and the only bytes
// stored to global memory are the output's 256. Layer by layer
// (no task-layer-group), relu 6 sits beside the first half and buffer 5 lives in phase 1
// only, so both halves go through global memory.

// RUN: stc-opt %s -p 'task-split{task=4 vector=2,1,1,1},task-layer-group{target="%S/Inputs/tianjicx-1x3.toml"},st-place{target="%S/Inputs/tianjicx-1x3.toml"},st-route' | filecheck %s
// RUN: stc-opt %s -p 'task-split{task=4 vector=2,1,1,1},st-place{target="%S/Inputs/tianjicx-1x3.toml"},st-route' | filecheck %s --check-prefix=ALONE
// RUN: stc-opt %s -p 'task-split{task=4 vector=2,1,1,1},task-layer-group{target="%S/Inputs/tianjicx-1x3.toml"},st-place{target="%S/Inputs/tianjicx-1x3.toml"},st-route,st-lmem-alloc,isa-lower' | filecheck %s --check-prefix=ISA
// RUN: stc-opt %s -p 'task-split{task=4 vector=2,1,1,1},task-layer-group{target="%S/Inputs/tianjicx-1x3.toml"},st-place{target="%S/Inputs/tianjicx-1x3.toml"},st-route,st-lmem-alloc,isa-lower' -o %t.isa.mlir
// RUN: stc-run %s --compare %t.isa.mlir --data-dir %S/Inputs
// RUN: stc-run %t.isa.mlir --stats --data-dir %S/Inputs | filecheck %s --check-prefix=STATS

// CHECK:      task.conv 14 {{.*}} {lg.group = 0 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, axon)>}
// CHECK:      task.conv 18 {{.*}} {lg.group = 0 : i64, st.coord = #st.coord<(0, 0, 0, 1), (0, 0, axon)>}
// CHECK-NEXT: task.buffer 5 {{.*}} {st.coord = #st.coord<(0, 0, 0, 2), (0, 0 to 1, memory)>
// CHECK-NEXT: task.relu 6 {{.*}} {lg.group = 0 : i64, st.coord = #st.coord<(0, 0, 0, 2), (0, 1, soma1)>}

// ALONE:      task.buffer 5 {{.*}} {st.coord = #st.coord<(0, 0, 0, 0), (0, 1, memory)>
// ALONE-NEXT: task.relu 6 {{.*}} {st.coord = #st.coord<(0, 0, 0, 0), (0, 1, soma1)>}

// ISA:      isa.core (0, 0) {
// ISA:        isa.conv
// ISA-NEXT:   isa.send sizes [1, 4, 8, 16] from {{[0-9]+}} to (0, 2) tag 0
// ISA:      isa.core (0, 1) {
// ISA:        isa.conv
// ISA-NEXT:   isa.send sizes [1, 4, 8, 16] from {{[0-9]+}} to (0, 2) tag 1
// ISA:      isa.core (0, 2) {
// ISA:        isa.recv sizes [1, 4, 8, 16] to {{[0-9]+}} strides [1024, 128, 16, 1] from (0, 0) tag 0
// ISA-NEXT:   isa.recv sizes [1, 4, 8, 16] to {{[0-9]+}} strides [1024, 128, 16, 1] from (0, 1) tag 1

// STATS: "dram_write_bytes": 256, "noc_bytes": 1024,

task.graph @chain {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<1> : tensor<16x3x3x16xi8>
  %b = task.bias 3 #task.random<2> : tensor<16xi32>
  %c = task.conv 4 %in, %w bias %b pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x16xi8>
  %r_in = task.buffer 5 si %c : tensor<1x8x8x16xi8>
  %r = task.relu 6 %r_in : tensor<1x8x8x16xi8>
  %p_in = task.buffer 7 si %r : tensor<1x8x8x16xi8>
  %p = task.maxpool 8 %p_in window [2, 2] stride [2, 2] : tensor<1x4x4x16xi8>
  %out = task.buffer 9 so %p : tensor<1x4x4x16xi8>
  task.output 10 "y" %out
}
