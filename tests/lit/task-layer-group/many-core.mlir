// On a many-core target the layers form one group (lg.group = 0) and st-place holds each
// buffer between two members on its reader's core from its producers' phase: buffer 5,
// which the two row halves of conv 4 (cores (0, 0) and (0, 1), phase 0) fill for relu 6
// (phase 1), lives in phases 0 to 1, and the half made on core (0, 1) arrives over the
// NoC in phase 0 instead of through global memory. Only the input, the weights, the bias
// and the output cross global memory.

// RUN: stc-opt %s -p 'task-split{task=4 vector=2,1,1,1},task-layer-group{target=tianjicx},st-place{target=tianjicx},st-route' | filecheck %s
// RUN: stc-opt %s -p 'task-split{task=4 vector=2,1,1,1},task-layer-group{target=tianjicx},st-place{target=tianjicx},st-route,st-lmem-alloc,isa-lower' | filecheck %s --check-prefix=ISA
// RUN: stc-opt %s -p 'task-split{task=4 vector=2,1,1,1},task-layer-group{target=tianjicx},st-place{target=tianjicx},st-route,st-lmem-alloc,isa-lower' -o %t.isa.mlir
// RUN: stc-run %s --compare %t.isa.mlir

// CHECK:      task.conv 14 {{.*}} {lg.group = 0 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, axon)>}
// CHECK:      task.conv 18 {{.*}} {lg.group = 0 : i64, st.coord = #st.coord<(0, 0, 0, 1), (0, 0, axon)>}
// CHECK-NEXT: task.buffer 5 {{.*}} {st.coord = #st.coord<(0, 0, 0, 0), (0, 0 to 1, memory)>
// CHECK-NEXT: task.relu 6 {{.*}} {lg.group = 0 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 1, soma1)>}
// CHECK-NEXT: task.buffer 7 {{.*}} {st.coord = #st.coord<(0, 0, 0, 0), (0, 1 to 2, memory)>
// CHECK-NEXT: task.maxpool 8 {{.*}} {lg.group = 0 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 2, soma1)>}

// ISA:      isa.core (0, 0) {
// ISA:        isa.conv
// ISA-NEXT:   isa.recv sizes [1, 4, 8, 16] to {{[0-9]+}} strides [1024, 128, 16, 1] from (0, 1) tag 0
// ISA-NEXT:   isa.sync 0
// ISA-NEXT:   isa.relu
// ISA-NEXT:   isa.sync 1
// ISA-NEXT:   isa.maxpool
// ISA-NEXT:   isa.dma_store sizes [1, 4, 4, 16]
// ISA-NEXT:   isa.sync 2
// ISA:      isa.core (0, 1) {
// ISA:        isa.conv
// ISA-NEXT:   isa.send sizes [1, 4, 8, 16] from {{[0-9]+}} to (0, 0) tag 0
// ISA-NEXT:   isa.sync 0

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
