// Seed split_task example 13: lut on 8x8x32 int8 split y in 2. The input is split; the
// 256-entry table is never split, each piece gets its own copy.

// RUN: stc-opt %s -p 'task-split{task=2 vector=2,1,1,1}' | filecheck %s
// RUN: stc-opt %s -p 'task-split{task=2 vector=2,1,1,1}' -o %t && stc-run %s --compare %t

task.graph @lut {
  %x = task.input 4 "x" : tensor<1x8x8x32xi8>
  %in = task.buffer 0 si %x : tensor<1x8x8x32xi8>
  %t = task.table 1 #task.random<3> : tensor<256xi8>
  %l = task.lut 2 %in, %t : tensor<1x8x8x32xi8>
  %out = task.buffer 3 so %l : tensor<1x8x8x32xi8>
  task.output 5 "y" %out
}

// CHECK:      task.graph @lut attributes {split_created = array<i64: 6, 7, 8, 9, 10, 11>} {
// CHECK-NEXT: %x = task.input 4 "x" : tensor<1x8x8x32xi8>
// CHECK-NEXT: %in = task.buffer 6 si %x[0:1, 0:4, 0:8, 0:32] : tensor<1x4x8x32xi8>
// CHECK-NEXT: %t = task.table 7 #task.random<3> : tensor<256xi8>
// CHECK-NEXT: %l = task.lut 8 %in, %t : tensor<1x4x8x32xi8>
// CHECK-NEXT: %in_1 = task.buffer 9 si %x[0:1, 4:8, 0:8, 0:32] : tensor<1x4x8x32xi8>
// CHECK-NEXT: %t_1 = task.table 10 #task.random<3> : tensor<256xi8>
// CHECK-NEXT: %l_1 = task.lut 11 %in_1, %t_1 : tensor<1x4x8x32xi8>
// CHECK-NEXT: %out = task.buffer 3 so %l, %l_1[0:1, 0:4, 0:8, 0:32] at [0, 4, 0, 0] : tensor<1x8x8x32xi8>
// CHECK-NEXT: task.output 5 "y" %out
