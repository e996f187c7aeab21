// A multicast send: conv 3 on core (0, 0) feeds a 1x1 conv split by output channels over
// cores (0, 1), (1, 1) and (1, 2); each piece reads the whole input, so isa-lower sends
// the result once to all three (one isa.send along the XY multicast tree, a receive on
// each) instead of three unicasts of the same box.
// RUN: stc-opt %s -p 'st-apply,st-route,st-lmem-alloc,isa-lower' | filecheck %s
// RUN: stc-opt %s -p 'st-apply,st-route,st-lmem-alloc,isa-lower' -o %t && stc-run %s --compare %t

task.graph @multicast {
  %x = task.input 0 "x" : tensor<1x4x4x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x4x4x16xi8>
  %w = task.weight 2 #task.random<1> : tensor<16x1x1x16xi8>
  %c = task.conv 3 %in, %w shift 7 : tensor<1x4x4x16xi8>
  %f_in = task.buffer 4 sic %c : tensor<1x4x4x16xi8>
  %v = task.weight 5 #task.random<2> : tensor<48x1x1x16xi8>
  %f = task.conv 6 %f_in, %v shift 7 : tensor<1x4x4x48xi8>
  %out = task.buffer 7 so %f : tensor<1x4x4x48xi8>
  task.output 8 "y" %out
}
st.mapping @multicast target "tianjicx" {
  st.split_task 6 by [1, 1, 3, 1]
  st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
  st.put_group_in 3 at (0, 0, 0, 0), (0, 0, axon)
  st.put_group_in 11 at (0, 0, 0, 1), (0, 1, axon)
  st.take_out 9 at (0, 0, 0, 1), (0, 1, memory)
  st.put_in 9 at (0, 0, 0, 1), (0, 0, memory) to (0, 0, 0, 1), (0, 1, memory)
  st.put_group_in 14 at (0, 0, 1, 1), (0, 1, axon)
  st.take_out 12 at (0, 0, 1, 1), (0, 1, memory)
  st.put_in 12 at (0, 0, 1, 1), (0, 0, memory) to (0, 0, 1, 1), (0, 1, memory)
  st.put_group_in 17 at (0, 0, 1, 2), (0, 1, axon)
  st.take_out 15 at (0, 0, 1, 2), (0, 1, memory)
  st.put_in 15 at (0, 0, 1, 2), (0, 0, memory) to (0, 0, 1, 2), (0, 1, memory)
  st.put_in 7 at (0, 0, 0, 0), (0, 1, memory)
  st.put_in 8 at (0, 0, 0, 0), (0, 1, router_send)
}

// CHECK:      isa.program @multicast target "tianjicx" {
// CHECK-NEXT:   isa.input "x" : tensor<1x16x4x4xi8> at 0 as nchw
// CHECK-NEXT:   isa.output "y" : tensor<1x48x4x4xi8> at 256 as nchw
// CHECK-NEXT:   isa.data #task.random<1> : tensor<16x1x1x16xi8> at 1024
// CHECK-NEXT:   isa.data #task.random<2> : tensor<48x1x1x16xi8>[0:16, 0:1, 0:1, 0:16] at 1280
// CHECK-NEXT:   isa.data #task.random<2> : tensor<48x1x1x16xi8>[16:32, 0:1, 0:1, 0:16] at 1536
// CHECK-NEXT:   isa.data #task.random<2> : tensor<48x1x1x16xi8>[32:48, 0:1, 0:1, 0:16] at 1792
// CHECK-NEXT:   isa.core (0, 0) {
// CHECK-NEXT:     isa.dma_load sizes [1, 4, 4, 16] from global 0 strides [256, 4, 1, 16] to local 131072
// CHECK-NEXT:     isa.dma_load sizes [256] from global 1024 to local 131328
// CHECK-NEXT:     isa.conv 131072 : tensor<1x4x4x16xi8>, 131328 : tensor<16x1x1x16xi8> -> 0 : tensor<1x4x4x16xi8> shift 7
// CHECK-NEXT:     isa.send sizes [1, 4, 4, 16] from 0 to (0, 1), (1, 1), (1, 2) tag 0
// CHECK-NEXT:     isa.sync 0
// CHECK-NEXT:     isa.recv sizes [1, 4, 4, 16] to 131072 strides [768, 192, 48, 1] from (0, 1) tag 1
// CHECK-NEXT:     isa.recv sizes [1, 4, 4, 16] to 131088 strides [768, 192, 48, 1] from (1, 1) tag 2
// CHECK-NEXT:     isa.recv sizes [1, 4, 4, 16] to 131104 strides [768, 192, 48, 1] from (1, 2) tag 3
// CHECK-NEXT:     isa.dma_store sizes [1, 4, 4, 48] from local 131072 to global 256 strides [768, 4, 1, 16]
// CHECK-NEXT:     isa.sync 1
// CHECK-NEXT:   }
// CHECK-NEXT:   isa.core (0, 1) {
// CHECK-NEXT:     isa.recv sizes [1, 4, 4, 16] to 131072 from (0, 0) tag 0
// CHECK-NEXT:     isa.sync 0
// CHECK-NEXT:     isa.dma_load sizes [256] from global 1280 to local 131328
// CHECK-NEXT:     isa.conv 131072 : tensor<1x4x4x16xi8>, 131328 : tensor<16x1x1x16xi8> -> 0 : tensor<1x4x4x16xi8> shift 7
// CHECK-NEXT:     isa.send sizes [1, 4, 4, 16] from 0 to (0, 0) tag 1
// CHECK-NEXT:     isa.sync 1
// CHECK-NEXT:   }
// CHECK-NEXT:   isa.core (1, 1) {
// CHECK-NEXT:     isa.recv sizes [1, 4, 4, 16] to 131072 from (0, 0) tag 0
// CHECK-NEXT:     isa.sync 0
// CHECK-NEXT:     isa.dma_load sizes [256] from global 1536 to local 131328
// CHECK-NEXT:     isa.conv 131072 : tensor<1x4x4x16xi8>, 131328 : tensor<16x1x1x16xi8> -> 0 : tensor<1x4x4x16xi8> shift 7
// CHECK-NEXT:     isa.send sizes [1, 4, 4, 16] from 0 to (0, 0) tag 2
// CHECK-NEXT:     isa.sync 1
// CHECK-NEXT:   }
// CHECK-NEXT:   isa.core (1, 2) {
// CHECK-NEXT:     isa.recv sizes [1, 4, 4, 16] to 131072 from (0, 0) tag 0
// CHECK-NEXT:     isa.sync 0
// CHECK-NEXT:     isa.dma_load sizes [256] from global 1792 to local 131328
// CHECK-NEXT:     isa.conv 131072 : tensor<1x4x4x16xi8>, 131328 : tensor<16x1x1x16xi8> -> 0 : tensor<1x4x4x16xi8> shift 7
// CHECK-NEXT:     isa.send sizes [1, 4, 4, 16] from 0 to (0, 0) tag 3
// CHECK-NEXT:     isa.sync 1
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: }
