// A halo exchange between two cores in one phase: a conv split in two row bands on
// cores (0, 0) and (0, 1) feeds a 3x3 maxpool split the same way on the same cores. Each
// conv writes its band in place into its own maxpool's input buffer and sends the
// boundary row the other maxpool needs as a strided box; the second maxpool's band goes
// to the output buffer on core (0, 0) over the NoC.
// RUN: stc-opt %s -p 'st-apply,st-route,st-lmem-alloc,isa-lower' | filecheck %s
// RUN: stc-opt %s -p 'st-apply,st-route,st-lmem-alloc,isa-lower' -o %t && stc-run %s --compare %t

task.graph @halo {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<1> : tensor<16x3x3x16xi8>
  %b = task.bias 3 #task.random<2> : tensor<16xi32>
  %c = task.conv 4 %in, %w bias %b pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x16xi8>
  %p_in = task.buffer 5 si %c : tensor<1x8x8x16xi8>
  %p = task.maxpool 6 %p_in window [3, 3] pad [1, 1, 1, 1] : tensor<1x8x8x16xi8>
  %out = task.buffer 7 so %p : tensor<1x8x8x16xi8>
  task.output 8 "y" %out
}
st.mapping @halo target "tianjicx" {
  st.split_task 4 by [2, 1, 1, 1]
  st.split_task 6 by [2, 1, 1, 1]
  st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
  st.put_group_in 12 at (0, 0, 0, 0), (0, 0, axon)
  st.put_group_in 16 at (0, 0, 0, 1), (0, 0, axon)
  st.put_group_in 18 at (0, 0, 0, 0), (0, 0, soma1)
  st.put_group_in 20 at (0, 0, 0, 1), (0, 0, soma1)
  st.put_in 7 at (0, 0, 0, 0), (0, 0, memory)
  st.put_in 8 at (0, 0, 0, 0), (0, 0, router_send)
}

// CHECK:      isa.program @halo target "tianjicx" {
// CHECK-NEXT:   isa.input "x" : tensor<1x16x8x8xi8> at 0 as nchw
// CHECK-NEXT:   isa.output "y" : tensor<1x16x8x8xi8> at 1024 as nchw
// CHECK-NEXT:   isa.data #task.random<1> : tensor<16x3x3x16xi8> at 2048
// CHECK-NEXT:   isa.data #task.random<2> : tensor<16xi32> at 4352
// CHECK-NEXT:   isa.core (0, 0) {
// CHECK-NEXT:     isa.dma_load sizes [1, 5, 8, 16] from global 0 strides [1024, 8, 1, 64] to local 134400
// CHECK-NEXT:     isa.dma_load sizes [2304] from global 2048 to local 131072
// CHECK-NEXT:     isa.dma_load sizes [64] from global 4352 to local 135040
// CHECK-NEXT:     isa.conv 134400 : tensor<1x5x8x16xi8>, 131072 : tensor<16x3x3x16xi8> bias 135040 : tensor<16xi32> -> 0 : tensor<1x4x8x16xi8> pad [1, 0, 1, 1] shift 9
// CHECK-NEXT:     isa.send sizes [1, 1, 8, 16] from 384 strides [512, 128, 16, 1] to (0, 1) tag 0
// CHECK-NEXT:     isa.recv sizes [1, 1, 8, 16] to 512 strides [640, 128, 16, 1] from (0, 1) tag 1
// CHECK-NEXT:     isa.maxpool 0 : tensor<1x5x8x16xi8> -> 133376 : tensor<1x4x8x16xi8> window [3, 3] pad [1, 0, 1, 1]
// CHECK-NEXT:     isa.recv sizes [1, 4, 8, 16] to 133888 strides [1024, 128, 16, 1] from (0, 1) tag 2
// CHECK-NEXT:     isa.dma_store sizes [1, 8, 8, 16] from local 133376 to global 1024 strides [1024, 8, 1, 64]
// CHECK-NEXT:     isa.sync 0
// CHECK-NEXT:   }
// CHECK-NEXT:   isa.core (0, 1) {
// CHECK-NEXT:     isa.recv sizes [1, 1, 8, 16] to 0 strides [640, 128, 16, 1] from (0, 0) tag 0
// CHECK:          isa.conv 133376 : tensor<1x5x8x16xi8>, 131072 : tensor<16x3x3x16xi8> bias 134528 : tensor<16xi32> -> 128 : tensor<1x4x8x16xi8> pad [0, 1, 1, 1] shift 9
// CHECK-NEXT:     isa.send sizes [1, 1, 8, 16] from 128 strides [512, 128, 16, 1] to (0, 0) tag 1
// CHECK-NEXT:     isa.maxpool 0 : tensor<1x5x8x16xi8> -> 134016 : tensor<1x4x8x16xi8> window [3, 3] pad [0, 1, 1, 1]
// CHECK-NEXT:     isa.send sizes [1, 4, 8, 16] from 134016 to (0, 0) tag 2
// CHECK-NEXT:     isa.sync 0
