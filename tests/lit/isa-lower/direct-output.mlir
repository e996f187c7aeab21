// A network output larger than a core (1,114,112 B against set-8x8's 1,048,576): a 1x1 conv
// split by output channels over cores (0, 0) and (0, 1), its output buffer held in the
// phase after them. The buffer takes every box from global memory, so it holds nothing
// (`MemoryPlan.direct_outputs`; st-apply counts it 0 B): each piece stores its 136
// channels straight to their place in the NCHW output, nothing is loaded back, and the
// program computes what the graph does. Held in the pieces' own phase, the buffer would
// take its 1,114,112 B on one core: st-apply refuses it (errors.mlir, @wide).
// RUN: stc-opt %s -p 'st-apply,st-route,st-lmem-alloc,isa-lower' | filecheck %s
// RUN: stc-opt %s -p 'st-apply,st-route,st-lmem-alloc,isa-lower' -o %t && stc-run %s --compare %t | filecheck %s --check-prefix=SAME

task.graph @wide {
  %x = task.input 0 "x" : tensor<1x64x64x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x64x64x16xi8>
  %w = task.weight 2 #task.random<1> : tensor<272x1x1x16xi8>
  %b = task.bias 3 #task.random<2> : tensor<272xi32>
  %c = task.conv 4 %in, %w bias %b shift 7 : tensor<1x64x64x272xi8>
  %out = task.buffer 5 so %c : tensor<1x64x64x272xi8>
  task.output 6 "y" %out
}
st.mapping @wide target "set-8x8" {
  st.split_task 4 by [1, 1, 2, 1]
  st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
  st.put_group_in 10 at (0, 0, 0, 0), (0, 0, axon)
  st.put_group_in 14 at (0, 0, 0, 1), (0, 0, axon)
  st.put_in 5 at (0, 0, 0, 0), (0, 1, memory)
  st.put_in 6 at (0, 0, 0, 0), (0, 1, router_send)
}

// CHECK:      builtin.module {
// CHECK-NEXT:   isa.program @wide target "set-8x8" {
// CHECK-NEXT:     isa.input "x" : tensor<1x16x64x64xi8> at 0 as nchw
// CHECK-NEXT:     isa.output "y" : tensor<1x272x64x64xi8> at 65536 as nchw
// CHECK-NEXT:     isa.data #task.random<1> : tensor<272x1x1x16xi8>[0:136, 0:1, 0:1, 0:16] at 1179648
// CHECK-NEXT:     isa.data #task.random<2> : tensor<272xi32>[0:136] at 1181824
// CHECK-NEXT:     isa.data #task.random<1> : tensor<272x1x1x16xi8>[136:272, 0:1, 0:1, 0:16] at 1182400
// CHECK-NEXT:     isa.data #task.random<2> : tensor<272xi32>[136:272] at 1184576
// CHECK-NEXT:     isa.core (0, 0) {
// CHECK-NEXT:       isa.dma_multicast sizes [1, 64, 64, 16] from global 0 strides [65536, 64, 1, 4096] to local 589824 and (0, 1) tag 0
// CHECK-NEXT:       isa.dma_load sizes [2176] from global 1179648 to local 655360
// CHECK-NEXT:       isa.dma_load sizes [544] from global 1181824 to local 657536
// CHECK-NEXT:       isa.conv 589824 : tensor<1x64x64x16xi8>, 655360 : tensor<136x1x1x16xi8> bias 657536 : tensor<136xi32> -> 0 : tensor<1x64x64x136xi8> shift 7
// CHECK-NEXT:       isa.dma_store sizes [1, 64, 64, 136] from local 0 to global 65536 strides [1114112, 64, 1, 4096]
// CHECK-NEXT:       isa.sync 0
// CHECK-NEXT:     }
// CHECK-NEXT:     isa.core (0, 1) {
// CHECK-NEXT:       isa.recv sizes [1, 64, 64, 16] to 589824 from (0, 0) tag 0
// CHECK-NEXT:       isa.dma_load sizes [2176] from global 1182400 to local 655360
// CHECK-NEXT:       isa.dma_load sizes [544] from global 1184576 to local 657536
// CHECK-NEXT:       isa.conv 589824 : tensor<1x64x64x16xi8>, 655360 : tensor<136x1x1x16xi8> bias 657536 : tensor<136xi32> -> 0 : tensor<1x64x64x136xi8> shift 7
// CHECK-NEXT:       isa.dma_store sizes [1, 64, 64, 136] from local 0 to global 622592 strides [1114112, 64, 1, 4096]
// CHECK-NEXT:       isa.sync 0
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// SAME: 1 outputs bit-identical
