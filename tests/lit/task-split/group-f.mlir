// Seed split_group example 1: maxpool -> conv -> maxpool; both maxpools (tasks 1 and 7)
// split f in 2 by one broadcast vector. The conv's input buffer now gathers the two
// channel halves of the first maxpool; the second maxpool's input is split in f.

// RUN: stc-opt %s -p 'task-split{tasks=1,7 vector=1,1,2,1}' | filecheck %s
// RUN: stc-opt %s -p 'task-split{tasks=1,7 vector=1,1,2,1}' -o %t && stc-run %s --compare %t

task.graph @group {
  %x = task.input 9 "x" : tensor<1x16x16x32xi8>
  %p1_in = task.buffer 0 si %x : tensor<1x16x16x32xi8>
  %p1 = task.maxpool 1 %p1_in window [2, 2] stride [2, 2] : tensor<1x8x8x32xi8>
  %c_in = task.buffer 2 sic %p1 : tensor<1x8x8x32xi8>
  %w = task.weight 3 #task.random<1> : tensor<32x3x3x32xi8>
  %b = task.bias 4 #task.random<2> : tensor<32xi32>
  %c = task.conv 5 %c_in, %w bias %b pad [1, 1, 1, 1] shift 12 : tensor<1x8x8x32xi8>
  %p7_in = task.buffer 6 si %c : tensor<1x8x8x32xi8>
  %p7 = task.maxpool 7 %p7_in window [2, 2] stride [2, 2] : tensor<1x4x4x32xi8>
  %out = task.buffer 8 so %p7 : tensor<1x4x4x32xi8>
  task.output 10 "y" %out
}

// CHECK:      task.graph @group attributes {split_created = array<i64: 11, 12, 13, 14, 15, 16, 17, 18>} {
// CHECK-NEXT: %x = task.input 9 "x" : tensor<1x16x16x32xi8>
// CHECK-NEXT: %p1_in = task.buffer 11 si %x[0:1, 0:16, 0:16, 0:16] : tensor<1x16x16x16xi8>
// CHECK-NEXT: %p1 = task.maxpool 12 %p1_in window [2, 2] stride [2, 2] : tensor<1x8x8x16xi8>
// CHECK-NEXT: %p1_in_1 = task.buffer 13 si %x[0:1, 0:16, 0:16, 16:32] : tensor<1x16x16x16xi8>
// CHECK-NEXT: %p1_1 = task.maxpool 14 %p1_in_1 window [2, 2] stride [2, 2] : tensor<1x8x8x16xi8>
// CHECK-NEXT: %c_in = task.buffer 2 sic %p1, %p1_1[0:1, 0:8, 0:8, 0:16] at [0, 0, 0, 16] : tensor<1x8x8x32xi8>
// CHECK-NEXT: %w = task.weight 3 #task.random<1> : tensor<32x3x3x32xi8>
// CHECK-NEXT: %b = task.bias 4 #task.random<2> : tensor<32xi32>
// CHECK-NEXT: %c = task.conv 5 %c_in, %w bias %b pad [1, 1, 1, 1] shift 12 : tensor<1x8x8x32xi8>
// CHECK-NEXT: %p7_in = task.buffer 15 si %c[0:1, 0:8, 0:8, 0:16] : tensor<1x8x8x16xi8>
// CHECK-NEXT: %p7 = task.maxpool 16 %p7_in window [2, 2] stride [2, 2] : tensor<1x4x4x16xi8>
// CHECK-NEXT: %p7_in_1 = task.buffer 17 si %c[0:1, 0:8, 0:8, 16:32] : tensor<1x8x8x16xi8>
// CHECK-NEXT: %p7_1 = task.maxpool 18 %p7_in_1 window [2, 2] stride [2, 2] : tensor<1x4x4x16xi8>
// CHECK-NEXT: %out = task.buffer 8 so %p7, %p7_1[0:1, 0:4, 0:4, 0:16] at [0, 0, 0, 16] : tensor<1x4x4x32xi8>
// CHECK-NEXT: task.output 10 "y" %out
