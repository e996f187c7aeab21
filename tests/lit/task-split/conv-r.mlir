// Seed split_task example 4: the conv of example 1 split r in 2. Input and weight are split
// in r; the pieces write raw int32 partial sums (no bias, no shift) to their own buffers;
// a task.add sums them, and the bias block moves to it with the original shift.

// RUN: stc-opt %s -p 'task-split{task=3 vector=1,1,1,2,1,1}' | filecheck %s
// RUN: stc-opt %s -p 'task-split{task=3 vector=1,1,1,2,1,1}' -o %t && stc-run %s --compare %t

task.graph @conv {
  %x = task.input 5 "x" : tensor<1x8x8x32xi8>
  %in = task.buffer 0 sic %x : tensor<1x8x8x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x3x3x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %c = task.conv 3 %in, %w bias %b pad [1, 1, 1, 1] shift 12 : tensor<1x8x8x32xi8>
  %out = task.buffer 4 so %c : tensor<1x8x8x32xi8>
  task.output 6 "y" %out
}

// CHECK:      task.graph @conv attributes {split_created = array<i64: 7, 8, 9, 10, 11, 12, 13, 14, 15>} {
// CHECK-NEXT: %x = task.input 5 "x" : tensor<1x8x8x32xi8>
// CHECK-NEXT: %b = task.bias 2 #task.random<2> : tensor<32xi32>
// CHECK-NEXT: %in = task.buffer 7 sic %x[0:1, 0:8, 0:8, 0:16] : tensor<1x8x8x16xi8>
// CHECK-NEXT: %w = task.weight 8 #task.random<1> : tensor<32x3x3x32xi8>[0:32, 0:3, 0:3, 0:16]
// CHECK-NEXT: %c = task.conv 9 %in, %w pad [1, 1, 1, 1] : tensor<1x8x8x32xi32>
// CHECK-NEXT: %in_1 = task.buffer 10 sic %x[0:1, 0:8, 0:8, 16:32] : tensor<1x8x8x16xi8>
// CHECK-NEXT: %w_1 = task.weight 11 #task.random<1> : tensor<32x3x3x32xi8>[0:32, 0:3, 0:3, 16:32]
// CHECK-NEXT: %c_1 = task.conv 12 %in_1, %w_1 pad [1, 1, 1, 1] : tensor<1x8x8x32xi32>
// CHECK-NEXT: %c_partial = task.buffer 13 si %c : tensor<1x8x8x32xi32>
// CHECK-NEXT: %c_partial_1 = task.buffer 14 si %c_1 : tensor<1x8x8x32xi32>
// CHECK-NEXT: %c_2 = task.add 15 %c_partial, %c_partial_1 bias %b shift 12 : tensor<1x8x8x32xi8>
// CHECK-NEXT: %out = task.buffer 4 so %c_2 : tensor<1x8x8x32xi8>
// CHECK-NEXT: task.output 6 "y" %out
