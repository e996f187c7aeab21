// Relayed loads (a mapping's st.relay_loads on a target without multicast loads, as
// st-search{relay=true} writes it): the conv of multicast-loads.mlir on tianjicx, split by
// rows over cores (0, 0), (0, 2) and (1, 1). The first piece in graph order loads the
// weight and bias boxes once with isa.dma_load and sends each to the other two, which
// receive it where they would have loaded it. The loader relays first, at the start of its
// phase, before its own input box, so that the others wait for none of its other work.
// One DRAM read of the 640 weight and bias bytes, not three, and the program computes what
// the graph does.
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
st.mapping @loads target "tianjicx" attributes {st.relay_loads} {
  st.split_task 4 by [3, 1, 1, 1]
  st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
  st.put_group_in 10 at (0, 0, 0, 0), (0, 0, axon)
  st.put_group_in 14 at (0, 0, 0, 2), (0, 0, axon)
  st.put_group_in 18 at (0, 0, 1, 1), (0, 0, axon)
  st.put_in 5 at (0, 0, 0, 0), (0, 1, memory)
  st.put_in 6 at (0, 0, 0, 0), (0, 1, router_send)
}


// CHECK:      isa.core (0, 0) {
// CHECK-NEXT:   isa.dma_load sizes [512] from global 1152 to local 131072
// CHECK-NEXT:   isa.send 512 bytes from 131072 to (0, 2), (1, 1) tag 0
// CHECK-NEXT:   isa.dma_load sizes [128] from global 1664 to local 131712
// CHECK-NEXT:   isa.send 128 bytes from 131712 to (0, 2), (1, 1) tag 1
// CHECK-NEXT:   isa.dma_load sizes [1, 2, 4, 16] from global 0 strides [384, 4, 1, 24] to local 131584
// CHECK-NEXT:   isa.conv 131584
// CHECK:      isa.core (0, 2) {
// CHECK-NEXT:   isa.dma_load sizes [1, 2, 4, 16] from global 8 strides [384, 4, 1, 24] to local 131584
// CHECK-NEXT:   isa.recv 512 bytes to 131072 from (0, 0) tag 0
// CHECK-NEXT:   isa.recv 128 bytes to 131712 from (0, 0) tag 1
// CHECK-NEXT:   isa.conv 131584
// CHECK:      isa.core (1, 1) {
// CHECK-NEXT:   isa.dma_load sizes [1, 2, 4, 16] from global 16 strides [384, 4, 1, 24] to local 131584
// CHECK-NEXT:   isa.recv 512 bytes to 131072 from (0, 0) tag 0
// CHECK-NEXT:   isa.recv 128 bytes to 131712 from (0, 0) tag 1
// CHECK-NOT:  isa.dma_multicast

// DRAM reads: the input (384 B), the weights and bias once (640 B, where each core loading
// its own would read 1,920); the three results are stored straight into the output (its
// buffer is held after them: 768 B more reloaded before). The NoC carries the 640 relayed
// bytes.
// STATS: "dram_read_bytes": 1024,
// STATS-SAME: "noc_bytes": 640,
