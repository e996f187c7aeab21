// Multicast loads (set-8x8's global_memory.multicast_loads): a conv split by rows over
// cores (0, 0), (0, 2) and (1, 1) holds the same weight and bias boxes on each; the first
// piece in graph order loads each box once with isa.dma_multicast to the other two, which
// receive it where they would have loaded it. One DRAM read of the 640 weight and bias
// bytes, not three; the machine carries it once over each link of the XY tree from (0, 0)'s
// port, and the program computes what the graph does.
// RUN: stc-opt %s -p 'st-apply,st-route,st-lmem-alloc,isa-lower' | filecheck %s
// RUN: stc-opt %s -p 'st-apply,st-route,st-lmem-alloc,isa-lower' -o %t && stc-run %s --compare %t
// RUN: stc-run %t --stats | filecheck %s --check-prefix=STATS

task.graph @loads {
  %x = task.input 0 "x" : tensor<1x6x4x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x6x4x16xi8>
  %w = task.weight 2 #task.random<1> : tensor<32x1x1x16xi8>
  %b = task.bias 3 #task.random<2> : tensor<32xi32>
  %c = task.conv 4 %in, %w bias %b shift 7 : tensor<1x6x4x32xi8>
  %out = task.buffer 5 so %c : tensor<1x6x4x32xi8>
  task.output 6 "y" %out
}
st.mapping @loads target "set-8x8" {
  st.split_task 4 by [3, 1, 1, 1]
  st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
  st.put_group_in 10 at (0, 0, 0, 0), (0, 0, axon)
  st.put_group_in 14 at (0, 0, 0, 2), (0, 0, axon)
  st.put_group_in 18 at (0, 0, 1, 1), (0, 0, axon)
  st.put_in 5 at (0, 0, 0, 0), (0, 1, memory)
  st.put_in 6 at (0, 0, 0, 0), (0, 1, router_send)
}

// CHECK:      isa.data #task.random<1> : tensor<32x1x1x16xi8> at 1152
// CHECK-NEXT: isa.data #task.random<2> : tensor<32xi32> at 1664
// CHECK-NEXT: isa.core (0, 0) {
// CHECK-NEXT:   isa.dma_load sizes [1, 2, 4, 16] from global 0 strides [384, 4, 1, 24] to local 512
// CHECK-NEXT:   isa.dma_multicast sizes [512] from global 1152 to local 0 and (0, 2), (1, 1) tag 0
// CHECK-NEXT:   isa.dma_multicast sizes [128] from global 1664 to local 640 and (0, 2), (1, 1) tag 1
// CHECK-NEXT:   isa.conv 512
// CHECK:      isa.core (0, 2) {
// CHECK-NEXT:   isa.dma_load sizes [1, 2, 4, 16] from global 8 strides [384, 4, 1, 24] to local 512
// CHECK-NEXT:   isa.recv 512 bytes to 0 from (0, 0) tag 0
// CHECK-NEXT:   isa.recv 128 bytes to 640 from (0, 0) tag 1
// CHECK-NEXT:   isa.conv 512
// CHECK:      isa.core (1, 1) {
// CHECK-NEXT:   isa.dma_load sizes [1, 2, 4, 16] from global 16 strides [384, 4, 1, 24] to local 512
// CHECK-NEXT:   isa.recv 512 bytes to 0 from (0, 0) tag 0
// CHECK-NEXT:   isa.recv 128 bytes to 640 from (0, 0) tag 1
// CHECK-NOT:  isa.dma_load sizes [512]

// The input (384 B) and the weights and bias once (640 B): the three results are stored
// straight into the output, whose buffer is held after them (`MemoryPlan.direct_outputs`;
// 768 B more were reloaded before); hop-bytes: 640 B over the tree's 3 links, the input rows of (0, 2) and (1, 1)
// over 2 and 1 hops (256 + 128), their results stored over the same (512 + 256).
// STATS: "dram_read_bytes": 1024,
// STATS-SAME: "noc_hop_bytes": 3072,
