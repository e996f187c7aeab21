// Seed split_task example 5: the conv of example 1 split y, f and r in 2: eight convs.
// Each r-slice's partial-sum buffer gathers the four y/f pieces of that slice; one
// task.add joins the two slices, with the bias and the shift.

// RUN: stc-opt %s -p 'task-split{task=3 vector=2,1,2,2,1,1}' | filecheck %s
// RUN: stc-opt %s -p 'task-split{task=3 vector=2,1,2,2,1,1}' -o %t && stc-run %s --compare %t

task.graph @conv {
  %x = task.input 5 "x" : tensor<1x8x8x32xi8>
  %in = task.buffer 0 sic %x : tensor<1x8x8x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x3x3x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %c = task.conv 3 %in, %w bias %b pad [1, 1, 1, 1] shift 12 : tensor<1x8x8x32xi8>
  %out = task.buffer 4 so %c : tensor<1x8x8x32xi8>
  task.output 6 "y" %out
}

// CHECK:      task.graph @conv attributes {split_created = array<i64: 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33>} {
// CHECK-NEXT: %x = task.input 5 "x" : tensor<1x8x8x32xi8>
// CHECK-NEXT: %b = task.bias 2 #task.random<2> : tensor<32xi32>
// CHECK-NEXT: %in = task.buffer 7 sic %x[0:1, 0:5, 0:8, 0:16] : tensor<1x5x8x16xi8>
// CHECK-NEXT: %w = task.weight 8 #task.random<1> : tensor<32x3x3x32xi8>[0:16, 0:3, 0:3, 0:16]
// CHECK-NEXT: %c = task.conv 9 %in, %w pad [1, 0, 1, 1] : tensor<1x4x8x16xi32>
// CHECK-NEXT: %in_1 = task.buffer 10 sic %x[0:1, 0:5, 0:8, 16:32] : tensor<1x5x8x16xi8>
// CHECK-NEXT: %w_1 = task.weight 11 #task.random<1> : tensor<32x3x3x32xi8>[0:16, 0:3, 0:3, 16:32]
// CHECK-NEXT: %c_1 = task.conv 12 %in_1, %w_1 pad [1, 0, 1, 1] : tensor<1x4x8x16xi32>
// CHECK-NEXT: %in_2 = task.buffer 13 sic %x[0:1, 0:5, 0:8, 0:16] : tensor<1x5x8x16xi8>
// CHECK-NEXT: %w_2 = task.weight 14 #task.random<1> : tensor<32x3x3x32xi8>[16:32, 0:3, 0:3, 0:16]
// CHECK-NEXT: %c_2 = task.conv 15 %in_2, %w_2 pad [1, 0, 1, 1] : tensor<1x4x8x16xi32>
// CHECK-NEXT: %in_3 = task.buffer 16 sic %x[0:1, 0:5, 0:8, 16:32] : tensor<1x5x8x16xi8>
// CHECK-NEXT: %w_3 = task.weight 17 #task.random<1> : tensor<32x3x3x32xi8>[16:32, 0:3, 0:3, 16:32]
// CHECK-NEXT: %c_3 = task.conv 18 %in_3, %w_3 pad [1, 0, 1, 1] : tensor<1x4x8x16xi32>
// CHECK-NEXT: %in_4 = task.buffer 19 sic %x[0:1, 3:8, 0:8, 0:16] : tensor<1x5x8x16xi8>
// CHECK-NEXT: %w_4 = task.weight 20 #task.random<1> : tensor<32x3x3x32xi8>[0:16, 0:3, 0:3, 0:16]
// CHECK-NEXT: %c_4 = task.conv 21 %in_4, %w_4 pad [0, 1, 1, 1] : tensor<1x4x8x16xi32>
// CHECK-NEXT: %in_5 = task.buffer 22 sic %x[0:1, 3:8, 0:8, 16:32] : tensor<1x5x8x16xi8>
// CHECK-NEXT: %w_5 = task.weight 23 #task.random<1> : tensor<32x3x3x32xi8>[0:16, 0:3, 0:3, 16:32]
// CHECK-NEXT: %c_5 = task.conv 24 %in_5, %w_5 pad [0, 1, 1, 1] : tensor<1x4x8x16xi32>
// CHECK-NEXT: %in_6 = task.buffer 25 sic %x[0:1, 3:8, 0:8, 0:16] : tensor<1x5x8x16xi8>
// CHECK-NEXT: %w_6 = task.weight 26 #task.random<1> : tensor<32x3x3x32xi8>[16:32, 0:3, 0:3, 0:16]
// CHECK-NEXT: %c_6 = task.conv 27 %in_6, %w_6 pad [0, 1, 1, 1] : tensor<1x4x8x16xi32>
// CHECK-NEXT: %in_7 = task.buffer 28 sic %x[0:1, 3:8, 0:8, 16:32] : tensor<1x5x8x16xi8>
// CHECK-NEXT: %w_7 = task.weight 29 #task.random<1> : tensor<32x3x3x32xi8>[16:32, 0:3, 0:3, 16:32]
// CHECK-NEXT: %c_7 = task.conv 30 %in_7, %w_7 pad [0, 1, 1, 1] : tensor<1x4x8x16xi32>
// CHECK-NEXT: %c_partial = task.buffer 31 si %c, %c_2[0:1, 0:4, 0:8, 0:16] at [0, 0, 0, 16], %c_4[0:1, 0:4, 0:8, 0:16] at [0, 4, 0, 0], %c_6[0:1, 0:4, 0:8, 0:16] at [0, 4, 0, 16] : tensor<1x8x8x32xi32>
// CHECK-NEXT: %c_partial_1 = task.buffer 32 si %c_1, %c_3[0:1, 0:4, 0:8, 0:16] at [0, 0, 0, 16], %c_5[0:1, 0:4, 0:8, 0:16] at [0, 4, 0, 0], %c_7[0:1, 0:4, 0:8, 0:16] at [0, 4, 0, 16] : tensor<1x8x8x32xi32>
// CHECK-NEXT: %c_8 = task.add 33 %c_partial, %c_partial_1 bias %b shift 12 : tensor<1x8x8x32xi8>
// CHECK-NEXT: %out = task.buffer 4 so %c_8 : tensor<1x8x8x32xi8>
// CHECK-NEXT: task.output 6 "y" %out
