// Seed split_task example 1: conv 8x8x32 -> 32, 3x3, pad 1, stride 1, split y in 2
// (the seed's six-count form). Each piece reads a 5-row input block (rows 0:5 and 3:8,
// two halo rows shared), keeps only its outer pad, and gets its own replica of the
// whole weight and bias. The output buffer is not split: each piece writes its half.

// RUN: stc-opt %s -p 'task-split{task=3 vector=2,1,1,1,1,1}' | filecheck %s
// RUN: stc-opt %s -p 'task-split{task=3 vector=2,1,1,1,1,1}' -o %t && stc-run %s --compare %t

task.graph @conv {
  %x = task.input 5 "x" : tensor<1x8x8x32xi8>
  %in = task.buffer 0 sic %x : tensor<1x8x8x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x3x3x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %c = task.conv 3 %in, %w bias %b pad [1, 1, 1, 1] shift 12 : tensor<1x8x8x32xi8>
  %out = task.buffer 4 so %c : tensor<1x8x8x32xi8>
  task.output 6 "y" %out
}

// CHECK:      task.graph @conv attributes {split_created = array<i64: 7, 8, 9, 10, 11, 12, 13, 14>} {
// CHECK-NEXT: %x = task.input 5 "x" : tensor<1x8x8x32xi8>
// CHECK-NEXT: %in = task.buffer 7 sic %x[0:1, 0:5, 0:8, 0:32] : tensor<1x5x8x32xi8>
// CHECK-NEXT: %w = task.weight 8 #task.random<1> : tensor<32x3x3x32xi8>
// CHECK-NEXT: %b = task.bias 9 #task.random<2> : tensor<32xi32>
// CHECK-NEXT: %c = task.conv 10 %in, %w bias %b pad [1, 0, 1, 1] shift 12 : tensor<1x4x8x32xi8>
// CHECK-NEXT: %in_1 = task.buffer 11 sic %x[0:1, 3:8, 0:8, 0:32] : tensor<1x5x8x32xi8>
// CHECK-NEXT: %w_1 = task.weight 12 #task.random<1> : tensor<32x3x3x32xi8>
// CHECK-NEXT: %b_1 = task.bias 13 #task.random<2> : tensor<32xi32>
// CHECK-NEXT: %c_1 = task.conv 14 %in_1, %w_1 bias %b_1 pad [0, 1, 1, 1] shift 12 : tensor<1x4x8x32xi8>
// CHECK-NEXT: %out = task.buffer 4 so %c, %c_1[0:1, 0:4, 0:8, 0:32] at [0, 4, 0, 0] : tensor<1x8x8x32xi8>
// CHECK-NEXT: task.output 6 "y" %out
