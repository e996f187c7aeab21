// Multicast loads of input boxes (set-8x8's global_memory.multicast_loads): two convs, each
// split by output channels over two cores, so both pieces of a conv read the same input.
// conv 4's pieces on (0, 0) and (1, 2) take the network input's box in phase 0; conv 8's on
// (0, 1) and (1, 1) take in phase 1 the two boxes of conv 4's result, which reach them
// through global memory (stored in phase 0, "spilled"), each to its channels of one region
// laid out as the whole result (`spill_frames`), so that each buffer's two boxes are one
// box of it. Each box is read once: the first buffer in graph order loads it with
// isa.dma_multicast, the other receives it into its own, and the program computes what the
// graph does.
// RUN: stc-opt %s -p 'st-apply,st-route,st-lmem-alloc,isa-lower' | filecheck %s
// RUN: stc-opt %s -p 'st-apply,st-route,st-lmem-alloc,isa-lower' -o %t && stc-run %s --compare %t
// RUN: stc-run %t --stats | filecheck %s --check-prefix=STATS

task.graph @loads {
  %x = task.input 0 "x" : tensor<1x6x4x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x6x4x16xi8>
  %w = task.weight 2 #task.random<1> : tensor<32x1x1x16xi8>
  %b = task.bias 3 #task.random<2> : tensor<32xi32>
  %c = task.conv 4 %in, %w bias %b shift 7 : tensor<1x6x4x32xi8>
  %mid = task.buffer 5 sic %c : tensor<1x6x4x32xi8>
  %w2 = task.weight 6 #task.random<3> : tensor<8x1x1x32xi8>
  %b2 = task.bias 7 #task.random<4> : tensor<8xi32>
  %d = task.conv 8 %mid, %w2 bias %b2 shift 7 : tensor<1x6x4x8xi8>
  %out = task.buffer 9 so %d : tensor<1x6x4x8xi8>
  task.output 10 "y" %out
}
st.mapping @loads target "set-8x8" {
  st.split_task 4 by [1, 1, 2, 1]
  st.split_task 8 by [1, 1, 2, 1]
  st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
  st.put_group_in 14 at (0, 0, 0, 0), (0, 0, axon)
  st.put_group_in 18 at (0, 0, 1, 2), (0, 0, axon)
  st.put_group_in 22 at (0, 0, 0, 1), (0, 1, axon)
  st.put_group_in 26 at (0, 0, 1, 1), (0, 1, axon)
  st.put_in 9 at (0, 0, 0, 1), (0, 2, memory)
  st.put_in 10 at (0, 0, 0, 1), (0, 2, router_send)
}

// CHECK:      isa.core (0, 0) {
// CHECK-NEXT:   isa.dma_multicast sizes [1, 6, 4, 16] from global 0 strides [384, 4, 1, 24] to local 0 and (1, 2) tag 0
// CHECK:      isa.core (0, 1) {
// CHECK-NEXT:   isa.sync 0
// CHECK-NEXT:   isa.dma_multicast sizes [1, 6, 4, 32] from global 896 to local 0 and (1, 1) tag 1
// CHECK-NEXT:   isa.dma_load sizes [128]
// CHECK:      isa.core (1, 1) {
// CHECK-NEXT:   isa.sync 0
// CHECK-NEXT:   isa.recv sizes [1, 6, 4, 32] to 0 from (0, 1) tag 1
// CHECK-NEXT:   isa.dma_load sizes [128]
// CHECK:      isa.core (1, 2) {
// CHECK-NEXT:   isa.recv sizes [1, 6, 4, 16] to 0 from (0, 0) tag 0
// CHECK-NOT:  isa.dma_load sizes [1, 6, 4, 16] from global 0

// DRAM reads: the input once (384 B, not 768), the four weight and bias slices (928 B),
// and conv 4's two result boxes once (768 B, not 1536); conv 8's two are stored straight into
// the output, whose buffer is held after them (192 B more reloaded before).
// STATS: "dram_read_bytes": 2080,
