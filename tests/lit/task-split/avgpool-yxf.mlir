// Seed split_task example 9: the avgpool of example 6 split y, x and f in 2: eight pools,
// bias split in f and replicated across y and x.

// RUN: stc-opt %s -p 'task-split{task=2 vector=2,2,2,1}' | filecheck %s
// RUN: stc-opt %s -p 'task-split{task=2 vector=2,2,2,1}' -o %t && stc-run %s --compare %t

task.graph @avgpool {
  %x = task.input 4 "x" : tensor<1x8x8x32xi8>
  %in = task.buffer 0 si %x : tensor<1x8x8x32xi8>
  %b = task.bias 1 #task.random<2> : tensor<32xi32>
  %p = task.avgpool 2 %in bias %b window [2, 2] stride [2, 2] shift 2 : tensor<1x4x4x32xi8>
  %out = task.buffer 3 so %p : tensor<1x4x4x32xi8>
  task.output 5 "y" %out
}

// CHECK:      task.graph @avgpool attributes {split_created = array<i64: 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29>} {
// CHECK-NEXT: %x = task.input 4 "x" : tensor<1x8x8x32xi8>
// CHECK-NEXT: %in = task.buffer 6 si %x[0:1, 0:4, 0:4, 0:16] : tensor<1x4x4x16xi8>
// CHECK-NEXT: %b = task.bias 7 #task.random<2> : tensor<32xi32>[0:16]
// CHECK-NEXT: %p = task.avgpool 8 %in bias %b window [2, 2] stride [2, 2] shift 2 : tensor<1x2x2x16xi8>
// CHECK-NEXT: %in_1 = task.buffer 9 si %x[0:1, 0:4, 0:4, 16:32] : tensor<1x4x4x16xi8>
// CHECK-NEXT: %b_1 = task.bias 10 #task.random<2> : tensor<32xi32>[16:32]
// CHECK-NEXT: %p_1 = task.avgpool 11 %in_1 bias %b_1 window [2, 2] stride [2, 2] shift 2 : tensor<1x2x2x16xi8>
// CHECK-NEXT: %in_2 = task.buffer 12 si %x[0:1, 0:4, 4:8, 0:16] : tensor<1x4x4x16xi8>
// CHECK-NEXT: %b_2 = task.bias 13 #task.random<2> : tensor<32xi32>[0:16]
// CHECK-NEXT: %p_2 = task.avgpool 14 %in_2 bias %b_2 window [2, 2] stride [2, 2] shift 2 : tensor<1x2x2x16xi8>
// CHECK-NEXT: %in_3 = task.buffer 15 si %x[0:1, 0:4, 4:8, 16:32] : tensor<1x4x4x16xi8>
// CHECK-NEXT: %b_3 = task.bias 16 #task.random<2> : tensor<32xi32>[16:32]
// CHECK-NEXT: %p_3 = task.avgpool 17 %in_3 bias %b_3 window [2, 2] stride [2, 2] shift 2 : tensor<1x2x2x16xi8>
// CHECK-NEXT: %in_4 = task.buffer 18 si %x[0:1, 4:8, 0:4, 0:16] : tensor<1x4x4x16xi8>
// CHECK-NEXT: %b_4 = task.bias 19 #task.random<2> : tensor<32xi32>[0:16]
// CHECK-NEXT: %p_4 = task.avgpool 20 %in_4 bias %b_4 window [2, 2] stride [2, 2] shift 2 : tensor<1x2x2x16xi8>
// CHECK-NEXT: %in_5 = task.buffer 21 si %x[0:1, 4:8, 0:4, 16:32] : tensor<1x4x4x16xi8>
// CHECK-NEXT: %b_5 = task.bias 22 #task.random<2> : tensor<32xi32>[16:32]
// CHECK-NEXT: %p_5 = task.avgpool 23 %in_5 bias %b_5 window [2, 2] stride [2, 2] shift 2 : tensor<1x2x2x16xi8>
// CHECK-NEXT: %in_6 = task.buffer 24 si %x[0:1, 4:8, 4:8, 0:16] : tensor<1x4x4x16xi8>
// CHECK-NEXT: %b_6 = task.bias 25 #task.random<2> : tensor<32xi32>[0:16]
// CHECK-NEXT: %p_6 = task.avgpool 26 %in_6 bias %b_6 window [2, 2] stride [2, 2] shift 2 : tensor<1x2x2x16xi8>
// CHECK-NEXT: %in_7 = task.buffer 27 si %x[0:1, 4:8, 4:8, 16:32] : tensor<1x4x4x16xi8>
// CHECK-NEXT: %b_7 = task.bias 28 #task.random<2> : tensor<32xi32>[16:32]
// CHECK-NEXT: %p_7 = task.avgpool 29 %in_7 bias %b_7 window [2, 2] stride [2, 2] shift 2 : tensor<1x2x2x16xi8>
// CHECK-NEXT: %out = task.buffer 3 so %p, %p_1[0:1, 0:2, 0:2, 0:16] at [0, 0, 0, 16], %p_2[0:1, 0:2, 0:2, 0:16] at [0, 0, 2, 0], %p_3[0:1, 0:2, 0:2, 0:16] at [0, 0, 2, 16], %p_4[0:1, 0:2, 0:2, 0:16] at [0, 2, 0, 0], %p_5[0:1, 0:2, 0:2, 0:16] at [0, 2, 0, 16], %p_6[0:1, 0:2, 0:2, 0:16] at [0, 2, 2, 0], %p_7[0:1, 0:2, 0:2, 0:16] at [0, 2, 2, 16] : tensor<1x4x4x32xi8>
// CHECK-NEXT: task.output 5 "y" %out
