// A conv split along r over two set-8x8 cores: each piece writes raw int32 partial sums
// (phase 0), which wait in global memory until the inserted task.add reads them (phase 1),
// adds the bias once and shifts. st-lmem-alloc gives every block an address.
// RUN: stc-opt %s -p 'task-split{task=4 vector=1,1,1,2},st-place{target=set-8x8 iterations=0},st-route,st-lmem-alloc' | filecheck %s --check-prefix=ALLOC
// RUN: stc-opt %s -p 'task-split{task=4 vector=1,1,1,2},st-place{target=set-8x8 iterations=0},st-route,st-lmem-alloc,isa-lower' | filecheck %s
// RUN: stc-opt %s -p 'task-split{task=4 vector=1,1,1,2},st-place{target=set-8x8 iterations=0},st-route,st-lmem-alloc,isa-lower' -o %t && stc-run %s --compare %t

task.graph @rsplit {
  %x = task.input 0 "x" : tensor<1x4x4x64xi8>
  %in = task.buffer 1 sic %x : tensor<1x4x4x64xi8>
  %w = task.weight 2 #task.random<1> : tensor<32x3x3x64xi8>
  %b = task.bias 3 #task.random<2> : tensor<32xi32>
  %c = task.conv 4 %in, %w bias %b pad [1, 1, 1, 1] shift 10 : tensor<1x4x4x32xi8>
  %out = task.buffer 5 so %c : tensor<1x4x4x32xi8>
  task.output 6 "y" %out
}

// ALLOC: task.bias 3 {{.*}} st.addr = 4096
// ALLOC: task.buffer 7 {{.*}} st.addr = 9216
// ALLOC: task.weight 8 {{.*}} st.addr = 0
// ALLOC: task.conv 9 {{.*}} : tensor<1x4x4x32xi32> {{.*}} st.addr = 65536
// ALLOC: task.buffer 13 {{.*}} st.addr = 0
// ALLOC: task.buffer 14 {{.*}} st.addr = 2048
// ALLOC: task.add 15 {{.*}} st.addr = 65536
// ALLOC: task.buffer 5 so {{.*}} st.addr = 65536

// CHECK:      isa.core (0, 0) {
// CHECK-NEXT:   isa.dma_load sizes [1, 4, 4, 32] from global 0 strides [1024, 4, 1, 16] to local 9216
// CHECK-NEXT:   isa.dma_load sizes [9216] from global 1664 to local 0
// CHECK-NEXT:   isa.conv 9216 : tensor<1x4x4x32xi8>, 0 : tensor<32x3x3x32xi8> -> 65536 : tensor<1x4x4x32xi32> pad [1, 1, 1, 1]
// CHECK-NEXT:   isa.dma_store sizes [2048] from local 65536 to global 10880
// CHECK-NEXT:   isa.sync 0
// CHECK-NEXT:   isa.dma_load sizes [128] from global 1536 to local 4096
// CHECK-NEXT:   isa.dma_load sizes [1, 4, 4, 128] from global 10880 to local 0
// CHECK-NEXT:   isa.dma_load sizes [1, 4, 4, 128] from global 22144 to local 2048
// CHECK-NEXT:   isa.add 0 : tensor<1x4x4x32xi32>, 2048 : tensor<1x4x4x32xi32> bias 4096 : tensor<32xi32> -> 65536 : tensor<1x4x4x32xi8> shift 10
// CHECK-NEXT:   isa.dma_store sizes [1, 4, 4, 32] from local 65536 to global 1024 strides [512, 4, 1, 16]
// CHECK-NEXT:   isa.sync 1
// CHECK-NEXT: }
// CHECK-NEXT: isa.core (0, 1) {
// CHECK-NEXT:   isa.dma_load sizes [1, 4, 4, 32] from global 512 strides [1024, 4, 1, 16] to local 9216
// CHECK-NEXT:   isa.dma_load sizes [9216] from global 12928 to local 0
// CHECK-NEXT:   isa.conv 9216 : tensor<1x4x4x32xi8>, 0 : tensor<32x3x3x32xi8> -> 65536 : tensor<1x4x4x32xi32> pad [1, 1, 1, 1]
// CHECK-NEXT:   isa.dma_store sizes [2048] from local 65536 to global 22144
// CHECK-NEXT:   isa.sync 0
// CHECK-NEXT: }
