// Seed split_task example 3: the conv of example 1 split f in 2. The input is replicated
// (one whole copy per piece, as a buffer feeds one block); weight and bias are split in f;
// each piece writes its channel half of the output buffer.

// RUN: stc-opt %s -p 'task-split{task=3 vector=1,1,2,1,1,1}' | filecheck %s
// RUN: stc-opt %s -p 'task-split{task=3 vector=1,1,2,1,1,1}' -o %t && stc-run %s --compare %t

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
// CHECK-NEXT: %in = task.buffer 7 sic %x : tensor<1x8x8x32xi8>
// CHECK-NEXT: %w = task.weight 8 #task.random<1> : tensor<32x3x3x32xi8>[0:16, 0:3, 0:3, 0:32]
// CHECK-NEXT: %b = task.bias 9 #task.random<2> : tensor<32xi32>[0:16]
// CHECK-NEXT: %c = task.conv 10 %in, %w bias %b pad [1, 1, 1, 1] shift 12 : tensor<1x8x8x16xi8>
// CHECK-NEXT: %in_1 = task.buffer 11 sic %x : tensor<1x8x8x32xi8>
// CHECK-NEXT: %w_1 = task.weight 12 #task.random<1> : tensor<32x3x3x32xi8>[16:32, 0:3, 0:3, 0:32]
// CHECK-NEXT: %b_1 = task.bias 13 #task.random<2> : tensor<32xi32>[16:32]
// CHECK-NEXT: %c_1 = task.conv 14 %in_1, %w_1 bias %b_1 pad [1, 1, 1, 1] shift 12 : tensor<1x8x8x16xi8>
// CHECK-NEXT: %out = task.buffer 4 so %c, %c_1[0:1, 0:8, 0:8, 0:16] at [0, 0, 0, 16] : tensor<1x8x8x32xi8>
// CHECK-NEXT: task.output 6 "y" %out
