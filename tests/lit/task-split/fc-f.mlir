// Seed split_task example 10: fc 32 -> 32 split f in 2. The input is replicated; weight and
// bias are split in f.

// RUN: stc-opt %s -p 'task-split{task=3 vector=1,1,2,1}' | filecheck %s
// RUN: stc-opt %s -p 'task-split{task=3 vector=1,1,2,1}' -o %t && stc-run %s --compare %t

task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}

// CHECK:      task.graph @fc attributes {split_created = array<i64: 7, 8, 9, 10, 11, 12, 13, 14>} {
// CHECK-NEXT: %x = task.input 5 "x" : tensor<1x1x1x32xi8>
// CHECK-NEXT: %in = task.buffer 7 sifc %x : tensor<1x1x1x32xi8>
// CHECK-NEXT: %w = task.weight 8 #task.random<1> : tensor<32x1x1x32xi8>[0:16, 0:1, 0:1, 0:32]
// CHECK-NEXT: %b = task.bias 9 #task.random<2> : tensor<32xi32>[0:16]
// CHECK-NEXT: %f = task.fc 10 %in, %w bias %b shift 10 : tensor<1x1x1x16xi8>
// CHECK-NEXT: %in_1 = task.buffer 11 sifc %x : tensor<1x1x1x32xi8>
// CHECK-NEXT: %w_1 = task.weight 12 #task.random<1> : tensor<32x1x1x32xi8>[16:32, 0:1, 0:1, 0:32]
// CHECK-NEXT: %b_1 = task.bias 13 #task.random<2> : tensor<32xi32>[16:32]
// CHECK-NEXT: %f_1 = task.fc 14 %in_1, %w_1 bias %b_1 shift 10 : tensor<1x1x1x16xi8>
// CHECK-NEXT: %out = task.buffer 4 so %f, %f_1[0:1, 0:1, 0:1, 0:16] at [0, 0, 0, 16] : tensor<1x1x1x32xi8>
// CHECK-NEXT: task.output 6 "y" %out
