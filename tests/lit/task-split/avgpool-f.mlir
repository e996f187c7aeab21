// Seed split_task example 8: the avgpool of example 6 split f in 2; input and bias are
// split in f.

// RUN: stc-opt %s -p 'task-split{task=2 vector=1,1,2,1}' | filecheck %s
// RUN: stc-opt %s -p 'task-split{task=2 vector=1,1,2,1}' -o %t && stc-run %s --compare %t

task.graph @avgpool {
  %x = task.input 4 "x" : tensor<1x8x8x32xi8>
  %in = task.buffer 0 si %x : tensor<1x8x8x32xi8>
  %b = task.bias 1 #task.random<2> : tensor<32xi32>
  %p = task.avgpool 2 %in bias %b window [2, 2] stride [2, 2] shift 2 : tensor<1x4x4x32xi8>
  %out = task.buffer 3 so %p : tensor<1x4x4x32xi8>
  task.output 5 "y" %out
}

// CHECK:      task.graph @avgpool attributes {split_created = array<i64: 6, 7, 8, 9, 10, 11>} {
// CHECK-NEXT: %x = task.input 4 "x" : tensor<1x8x8x32xi8>
// CHECK-NEXT: %in = task.buffer 6 si %x[0:1, 0:8, 0:8, 0:16] : tensor<1x8x8x16xi8>
// CHECK-NEXT: %b = task.bias 7 #task.random<2> : tensor<32xi32>[0:16]
// CHECK-NEXT: %p = task.avgpool 8 %in bias %b window [2, 2] stride [2, 2] shift 2 : tensor<1x4x4x16xi8>
// CHECK-NEXT: %in_1 = task.buffer 9 si %x[0:1, 0:8, 0:8, 16:32] : tensor<1x8x8x16xi8>
// CHECK-NEXT: %b_1 = task.bias 10 #task.random<2> : tensor<32xi32>[16:32]
// CHECK-NEXT: %p_1 = task.avgpool 11 %in_1 bias %b_1 window [2, 2] stride [2, 2] shift 2 : tensor<1x4x4x16xi8>
// CHECK-NEXT: %out = task.buffer 3 so %p, %p_1[0:1, 0:4, 0:4, 0:16] at [0, 0, 0, 16] : tensor<1x4x4x32xi8>
// CHECK-NEXT: task.output 5 "y" %out
