// A split vector of five counts nn,ny,nx,nf,nr splits the batch too (seed 004 slices N
// first): here a conv over a batch of 3 into 2 sub-batches (2 and 1 samples, the larger
// first) and 2 r pieces. Every piece reads its samples of the input and writes its
// samples of the partial sums; weights are replicated across sub-batches.

// RUN: stc-opt %s -p 'task-split{task=3 vector=2,1,1,1,2}' | filecheck %s
// RUN: stc-opt %s -p 'task-split{task=3 vector=2,1,1,1,2}' -o %t && stc-run %s --compare %t
// RUN: stc-opt %s -p 'task-split{task=3 vector=3,2,1,2,1}' -o %t.2 && stc-run %s --compare %t.2
// RUN: not stc-opt %s -p 'task-split{task=3 vector=4,1,1,1,1}' 2>&1 | filecheck %s --check-prefix=TOO-MANY

task.graph @conv {
  %x = task.input 0 "x" : tensor<3x8x8x16xi8>
  %b = task.bias 1 #task.random<2> : tensor<8xi32>
  %in = task.buffer 2 sic %x : tensor<3x8x8x16xi8>
  %w = task.weight 4 #task.random<1> : tensor<8x3x3x16xi8>
  %c = task.conv 3 %in, %w bias %b pad [1, 1, 1, 1] shift 10 : tensor<3x8x8x8xi8>
  %out = task.buffer 5 so %c : tensor<3x8x8x8xi8>
  task.output 6 "y" %out
}
// CHECK:        task.graph @conv attributes {split_created = array<i64: 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21>} {
// CHECK-NEXT:     %x = task.input 0 "x" : tensor<3x8x8x16xi8>
// CHECK-NEXT:     %b = task.bias 1 #task.random<2> : tensor<8xi32>
// CHECK-NEXT:     %in = task.buffer 7 sic %x[0:2, 0:8, 0:8, 0:8] : tensor<2x8x8x8xi8>
// CHECK-NEXT:     %w = task.weight 8 #task.random<1> : tensor<8x3x3x16xi8>[0:8, 0:3, 0:3, 0:8]
// CHECK-NEXT:     %c = task.conv 9 %in, %w pad [1, 1, 1, 1] : tensor<2x8x8x8xi32>
// CHECK-NEXT:     %in_1 = task.buffer 10 sic %x[0:2, 0:8, 0:8, 8:16] : tensor<2x8x8x8xi8>
// CHECK-NEXT:     %w_1 = task.weight 11 #task.random<1> : tensor<8x3x3x16xi8>[0:8, 0:3, 0:3, 8:16]
// CHECK-NEXT:     %c_1 = task.conv 12 %in_1, %w_1 pad [1, 1, 1, 1] : tensor<2x8x8x8xi32>
// CHECK-NEXT:     %in_2 = task.buffer 13 sic %x[2:3, 0:8, 0:8, 0:8] : tensor<1x8x8x8xi8>
// CHECK-NEXT:     %w_2 = task.weight 14 #task.random<1> : tensor<8x3x3x16xi8>[0:8, 0:3, 0:3, 0:8]
// CHECK-NEXT:     %c_2 = task.conv 15 %in_2, %w_2 pad [1, 1, 1, 1] : tensor<1x8x8x8xi32>
// CHECK-NEXT:     %in_3 = task.buffer 16 sic %x[2:3, 0:8, 0:8, 8:16] : tensor<1x8x8x8xi8>
// CHECK-NEXT:     %w_3 = task.weight 17 #task.random<1> : tensor<8x3x3x16xi8>[0:8, 0:3, 0:3, 8:16]
// CHECK-NEXT:     %c_3 = task.conv 18 %in_3, %w_3 pad [1, 1, 1, 1] : tensor<1x8x8x8xi32>
// CHECK-NEXT:     %c_partial = task.buffer 19 si %c, %c_2[0:1, 0:8, 0:8, 0:8] at [2, 0, 0, 0] : tensor<3x8x8x8xi32>
// CHECK-NEXT:     %c_partial_1 = task.buffer 20 si %c_1, %c_3[0:1, 0:8, 0:8, 0:8] at [2, 0, 0, 0] : tensor<3x8x8x8xi32>
// CHECK-NEXT:     %c_4 = task.add 21 %c_partial, %c_partial_1 bias %b shift 10 : tensor<3x8x8x8xi8>
// CHECK-NEXT:     %out = task.buffer 5 so %c_4 : tensor<3x8x8x8xi8>

// TOO-MANY: stc-opt: error: task.conv 3: cannot split n (3 samples) into 4 pieces
