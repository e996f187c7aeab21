// Seed split_task example 12: the fc of example 10 split f and r in 2: four fcs, two
// partial-sum buffers, one task.add with the bias.

// RUN: stc-opt %s -p 'task-split{task=3 vector=1,1,2,2}' | filecheck %s
// RUN: stc-opt %s -p 'task-split{task=3 vector=1,1,2,2}' -o %t && stc-run %s --compare %t

task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}

// CHECK:      task.graph @fc attributes {split_created = array<i64: 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21>} {
// CHECK-NEXT: %x = task.input 5 "x" : tensor<1x1x1x32xi8>
// CHECK-NEXT: %b = task.bias 2 #task.random<2> : tensor<32xi32>
// CHECK-NEXT: %in = task.buffer 7 sifc %x[0:1, 0:1, 0:1, 0:16] : tensor<1x1x1x16xi8>
// CHECK-NEXT: %w = task.weight 8 #task.random<1> : tensor<32x1x1x32xi8>[0:16, 0:1, 0:1, 0:16]
// CHECK-NEXT: %f = task.fc 9 %in, %w : tensor<1x1x1x16xi32>
// CHECK-NEXT: %in_1 = task.buffer 10 sifc %x[0:1, 0:1, 0:1, 16:32] : tensor<1x1x1x16xi8>
// CHECK-NEXT: %w_1 = task.weight 11 #task.random<1> : tensor<32x1x1x32xi8>[0:16, 0:1, 0:1, 16:32]
// CHECK-NEXT: %f_1 = task.fc 12 %in_1, %w_1 : tensor<1x1x1x16xi32>
// CHECK-NEXT: %in_2 = task.buffer 13 sifc %x[0:1, 0:1, 0:1, 0:16] : tensor<1x1x1x16xi8>
// CHECK-NEXT: %w_2 = task.weight 14 #task.random<1> : tensor<32x1x1x32xi8>[16:32, 0:1, 0:1, 0:16]
// CHECK-NEXT: %f_2 = task.fc 15 %in_2, %w_2 : tensor<1x1x1x16xi32>
// CHECK-NEXT: %in_3 = task.buffer 16 sifc %x[0:1, 0:1, 0:1, 16:32] : tensor<1x1x1x16xi8>
// CHECK-NEXT: %w_3 = task.weight 17 #task.random<1> : tensor<32x1x1x32xi8>[16:32, 0:1, 0:1, 16:32]
// CHECK-NEXT: %f_3 = task.fc 18 %in_3, %w_3 : tensor<1x1x1x16xi32>
// CHECK-NEXT: %f_partial = task.buffer 19 si %f, %f_2[0:1, 0:1, 0:1, 0:16] at [0, 0, 0, 16] : tensor<1x1x1x32xi32>
// CHECK-NEXT: %f_partial_1 = task.buffer 20 si %f_1, %f_3[0:1, 0:1, 0:1, 0:16] at [0, 0, 0, 16] : tensor<1x1x1x32xi32>
// CHECK-NEXT: %f_4 = task.add 21 %f_partial, %f_partial_1 bias %b shift 10 : tensor<1x1x1x32xi8>
// CHECK-NEXT: %out = task.buffer 4 so %f_4 : tensor<1x1x1x32xi8>
// CHECK-NEXT: task.output 6 "y" %out
