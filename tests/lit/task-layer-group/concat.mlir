// A concatenation inside a group: conv 4 (step 0) and relu 10 (step 2) write the two
// channel halves of buffer 11, which maxpool 12 reads in step 3. The buffer is held from
// its first writer's step to its reader's, and each writer copies its half into it in its
// own step: nothing but the input, the weights, the biases and the output crosses global
// memory (no dma_store before the last step).

// RUN: stc-opt %s -p 'task-layer-group{target=tpu-like}' | filecheck %s
// RUN: stc-opt %s -p 'task-layer-group{target=tpu-like},st-place,st-route,st-lmem-alloc,isa-lower' | filecheck %s --check-prefix=ISA
// RUN: stc-opt %s -p 'task-layer-group{target=tpu-like},st-place,st-route,st-lmem-alloc,isa-lower' -o %t.isa.mlir
// RUN: stc-run %s --compare %t.isa.mlir

// CHECK:      st.put_in 9 at (0, 0, 0, 0), (0, 1, memory) to (0, 0, 0, 0), (0, 2, memory)
// CHECK-NEXT: st.put_in 10 at (0, 0, 0, 0), (0, 2, soma1)
// CHECK-NEXT: st.put_in 11 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 3, memory)
// CHECK-NEXT: st.put_in 12 at (0, 0, 0, 0), (0, 3, soma1)

// ISA:      isa.conv {{.*}} -> [[A:[0-9]+]] : tensor<1x4x4x16xi8> shift 10
// ISA-NEXT: isa.copy sizes [1, 4, 4, 16] from [[A]] to [[CAT:[0-9]+]] strides [512, 128, 32, 1]
// ISA-NEXT: isa.sync 0
// ISA-NOT:  isa.dma_store
// ISA:      isa.sync 1
// ISA-NEXT: isa.relu {{.*}} -> [[B:[0-9]+]] : tensor<1x4x4x16xi8>
// ISA-NEXT: isa.copy sizes [1, 4, 4, 16] from [[B]] to {{[0-9]+}} strides [512, 128, 32, 1]
// ISA-NEXT: isa.sync 2
// ISA-NEXT: isa.maxpool [[CAT]] : tensor<1x4x4x32xi8>
// ISA-NOT:  isa.dma_load
// ISA:      isa.dma_store sizes [1, 2, 2, 32]
// ISA-NEXT: isa.sync 3
task.graph @concat {
  %0 = task.input 0 "x" : tensor<1x4x4x16xi8>
  %1 = task.buffer 1 sic %0 : tensor<1x4x4x16xi8>
  %2 = task.weight 2 #task.random<1> : tensor<16x1x1x16xi8>
  %3 = task.bias 3 #task.random<2> : tensor<16xi32>
  %4 = task.conv 4 %1, %2 bias %3 shift 10 : tensor<1x4x4x16xi8>
  %5 = task.buffer 5 sic %0 : tensor<1x4x4x16xi8>
  %6 = task.weight 6 #task.random<3> : tensor<16x3x3x16xi8>
  %7 = task.bias 7 #task.random<4> : tensor<16xi32>
  %8 = task.conv 8 %5, %6 bias %7 pad [1, 1, 1, 1] shift 11 : tensor<1x4x4x16xi8>
  %9 = task.buffer 9 si %8 : tensor<1x4x4x16xi8>
  %10 = task.relu 10 %9 : tensor<1x4x4x16xi8>
  %11 = task.buffer 11 si %4, %10[0:1, 0:4, 0:4, 0:16] at [0, 0, 0, 16] : tensor<1x4x4x32xi8>
  %12 = task.maxpool 12 %11 window [2, 2] stride [2, 2] : tensor<1x2x2x32xi8>
  %13 = task.buffer 13 so %12 : tensor<1x2x2x32xi8>
  task.output 14 "y" %13
}
