// Far and long phase ranges through the whole pipeline on a target without a phase limit:
// a buffer over phases 0 to 2^40, weights over 5 to 10^8, a maxpool at phase 2^40 + 1, the
// output buffer from phase 2^40 + 2 up to 2^41 (it holds nothing: the maxpool stores its
// result straight into the output). Programs number only the phases where something happens.
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
st.mapping @halo target "set-8x8" {
  st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
  st.put_in 1 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1099511627776, memory)
  st.put_in 2 at (0, 0, 0, 0), (0, 5, memory) to (0, 0, 0, 0), (0, 100000000, memory)
  st.put_in 3 at (0, 0, 0, 0), (0, 5, memory) to (0, 0, 0, 0), (0, 100000000, memory)
  st.put_in 4 at (0, 0, 0, 0), (0, 100000000, axon)
  st.put_group_in 6 at (0, 0, 0, 1), (0, 1099511627777, soma1)
  st.put_in 7 at (0, 0, 0, 0), (0, 1099511627778, memory) to (0, 0, 0, 0), (0, 2199023255552, memory)
  st.put_in 8 at (0, 0, 0, 0), (0, 2199023255552, router_send)
}

// CHECK:        isa.program @halo target "set-8x8" {
// CHECK-NEXT:     isa.input "x" : tensor<1x16x8x8xi8> at 0 as nchw
// CHECK-NEXT:     isa.output "y" : tensor<1x16x8x8xi8> at 1024 as nchw
// CHECK-NEXT:     isa.data #task.random<1> : tensor<16x3x3x16xi8> at 2048
// CHECK-NEXT:     isa.data #task.random<2> : tensor<16xi32> at 4352
// CHECK-NEXT:     isa.core (0, 0) {
// CHECK-NEXT:       isa.dma_load sizes [1, 8, 8, 16] from global 0 strides [1024, 8, 1, 64] to local 0
// CHECK-NEXT:       isa.sync 0
// CHECK-NEXT:       isa.dma_load sizes [2304] from global 2048 to local 1024
// CHECK-NEXT:       isa.dma_load sizes [64] from global 4352 to local 3328
// CHECK-NEXT:       isa.sync 1
// CHECK-NEXT:       isa.conv 0 : tensor<1x8x8x16xi8>, 1024 : tensor<16x3x3x16xi8> bias 3328 : tensor<16xi32> -> 65536 : tensor<1x8x8x16xi8> pad [1, 1, 1, 1] shift 9
// CHECK-NEXT:       isa.dma_store sizes [1024] from local 65536 to global 4416
// CHECK-NEXT:       isa.sync 2
// CHECK-NEXT:     }
// CHECK-NEXT:     isa.core (0, 1) {
// CHECK-NEXT:       isa.sync 0
// CHECK-NEXT:       isa.sync 1
// CHECK-NEXT:       isa.sync 2
// CHECK-NEXT:       isa.dma_load sizes [1, 8, 8, 16] from global 4416 to local 0
// CHECK-NEXT:       isa.maxpool 0 : tensor<1x8x8x16xi8> -> 65536 : tensor<1x8x8x16xi8> window [3, 3] pad [1, 1, 1, 1]
// CHECK-NEXT:       isa.dma_store sizes [1, 8, 8, 16] from local 65536 to global 1024 strides [1024, 8, 1, 64]
// CHECK-NEXT:       isa.sync 3
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

