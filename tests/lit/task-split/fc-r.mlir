// Seed split_task example 11: the fc of example 10 split r in 2. Input and weight are split
// in r; int32 partial sums without bias; a task.add takes the bias and the shift.

// RUN: stc-opt %s -p 'task-split{task=3 vector=1,1,1,2}' | filecheck %s
// RUN: stc-opt %s -p 'task-split{task=3 vector=1,1,1,2}' -o %t && stc-run %s --compare %t

task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}

// CHECK:      task.graph @fc attributes {split_created = array<i64: 7, 8, 9, 10, 11, 12, 13, 14, 15>} {
// CHECK-NEXT: %x = task.input 5 "x" : tensor<1x1x1x32xi8>
// CHECK-NEXT: %b = task.bias 2 #task.random<2> : tensor<32xi32>
// CHECK-NEXT: %in = task.buffer 7 sifc %x[0:1, 0:1, 0:1, 0:16] : tensor<1x1x1x16xi8>
// CHECK-NEXT: %w = task.weight 8 #task.random<1> : tensor<32x1x1x32xi8>[0:32, 0:1, 0:1, 0:16]
// CHECK-NEXT: %f = task.fc 9 %in, %w : tensor<1x1x1x32xi32>
// CHECK-NEXT: %in_1 = task.buffer 10 sifc %x[0:1, 0:1, 0:1, 16:32] : tensor<1x1x1x16xi8>
// CHECK-NEXT: %w_1 = task.weight 11 #task.random<1> : tensor<32x1x1x32xi8>[0:32, 0:1, 0:1, 16:32]
// CHECK-NEXT: %f_1 = task.fc 12 %in_1, %w_1 : tensor<1x1x1x32xi32>
// CHECK-NEXT: %f_partial = task.buffer 13 si %f : tensor<1x1x1x32xi32>
// CHECK-NEXT: %f_partial_1 = task.buffer 14 si %f_1 : tensor<1x1x1x32xi32>
// CHECK-NEXT: %f_2 = task.add 15 %f_partial, %f_partial_1 bias %b shift 10 : tensor<1x1x1x32xi8>
// CHECK-NEXT: %out = task.buffer 4 so %f_2 : tensor<1x1x1x32xi8>
// CHECK-NEXT: task.output 6 "y" %out
