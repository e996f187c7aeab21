// Seed split_group example 2: the graph of example 1 split f, r, f through per-block split
// hints, applied in graph order. The first maxpool's f-halves line up with the conv's
// r-halves (each conv piece reads one maxpool piece whole); the conv gets a task.add with
// the bias; the second maxpool's input is split in f. The hints are removed.

// RUN: stc-opt %s -p task-split | filecheck %s
// RUN: stc-opt %s -p task-split -o %t && stc-run %s --compare %t

task.graph @group {
  %x = task.input 9 "x" : tensor<1x16x16x32xi8>
  %p1_in = task.buffer 0 si %x : tensor<1x16x16x32xi8>
  %p1 = task.maxpool 1 %p1_in window [2, 2] stride [2, 2] : tensor<1x8x8x32xi8> {split = array<i64: 1, 1, 2, 1>}
  %c_in = task.buffer 2 sic %p1 : tensor<1x8x8x32xi8>
  %w = task.weight 3 #task.random<1> : tensor<32x3x3x32xi8>
  %b = task.bias 4 #task.random<2> : tensor<32xi32>
  %c = task.conv 5 %c_in, %w bias %b pad [1, 1, 1, 1] shift 12 : tensor<1x8x8x32xi8> {split = array<i64: 1, 1, 1, 2>}
  %p7_in = task.buffer 6 si %c : tensor<1x8x8x32xi8>
  %p7 = task.maxpool 7 %p7_in window [2, 2] stride [2, 2] : tensor<1x4x4x32xi8> {split = array<i64: 1, 1, 2, 1>}
  %out = task.buffer 8 so %p7 : tensor<1x4x4x32xi8>
  task.output 10 "y" %out
}

// CHECK:      task.graph @group attributes {split_created = array<i64: 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27>} {
// CHECK-NEXT: %x = task.input 9 "x" : tensor<1x16x16x32xi8>
// CHECK-NEXT: %p1_in = task.buffer 11 si %x[0:1, 0:16, 0:16, 0:16] : tensor<1x16x16x16xi8>
// CHECK-NEXT: %p1 = task.maxpool 12 %p1_in window [2, 2] stride [2, 2] : tensor<1x8x8x16xi8>
// CHECK-NEXT: %p1_in_1 = task.buffer 13 si %x[0:1, 0:16, 0:16, 16:32] : tensor<1x16x16x16xi8>
// CHECK-NEXT: %p1_1 = task.maxpool 14 %p1_in_1 window [2, 2] stride [2, 2] : tensor<1x8x8x16xi8>
// CHECK-NEXT: %b = task.bias 4 #task.random<2> : tensor<32xi32>
// CHECK-NEXT: %c_in = task.buffer 15 sic %p1 : tensor<1x8x8x16xi8>
// CHECK-NEXT: %w = task.weight 16 #task.random<1> : tensor<32x3x3x32xi8>[0:32, 0:3, 0:3, 0:16]
// CHECK-NEXT: %c = task.conv 17 %c_in, %w pad [1, 1, 1, 1] : tensor<1x8x8x32xi32>
// CHECK-NEXT: %c_in_1 = task.buffer 18 sic %p1_1 : tensor<1x8x8x16xi8>
// CHECK-NEXT: %w_1 = task.weight 19 #task.random<1> : tensor<32x3x3x32xi8>[0:32, 0:3, 0:3, 16:32]
// CHECK-NEXT: %c_1 = task.conv 20 %c_in_1, %w_1 pad [1, 1, 1, 1] : tensor<1x8x8x32xi32>
// CHECK-NEXT: %c_partial = task.buffer 21 si %c : tensor<1x8x8x32xi32>
// CHECK-NEXT: %c_partial_1 = task.buffer 22 si %c_1 : tensor<1x8x8x32xi32>
// CHECK-NEXT: %c_2 = task.add 23 %c_partial, %c_partial_1 bias %b shift 12 : tensor<1x8x8x32xi8>
// CHECK-NEXT: %p7_in = task.buffer 24 si %c_2[0:1, 0:8, 0:8, 0:16] : tensor<1x8x8x16xi8>
// CHECK-NEXT: %p7 = task.maxpool 25 %p7_in window [2, 2] stride [2, 2] : tensor<1x4x4x16xi8>
// CHECK-NEXT: %p7_in_1 = task.buffer 26 si %c_2[0:1, 0:8, 0:8, 16:32] : tensor<1x8x8x16xi8>
// CHECK-NEXT: %p7_1 = task.maxpool 27 %p7_in_1 window [2, 2] stride [2, 2] : tensor<1x4x4x16xi8>
// CHECK-NEXT: %out = task.buffer 8 so %p7, %p7_1[0:1, 0:4, 0:4, 0:16] at [0, 0, 0, 16] : tensor<1x4x4x32xi8>
// CHECK-NEXT: task.output 10 "y" %out
