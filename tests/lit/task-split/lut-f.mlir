// Seed split_task example 15: the lut of example 13 split f in 2; the table is copied.

// RUN: stc-opt %s -p 'task-split{task=2 vector=1,1,2,1}' | filecheck %s
// RUN: stc-opt %s -p 'task-split{task=2 vector=1,1,2,1}' -o %t && stc-run %s --compare %t

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
// CHECK-NEXT: %in = task.buffer 6 si %x[0:1, 0:8, 0:8, 0:16] : tensor<1x8x8x16xi8>
// CHECK-NEXT: %t = task.table 7 #task.random<3> : tensor<256xi8>
// CHECK-NEXT: %l = task.lut 8 %in, %t : tensor<1x8x8x16xi8>
// CHECK-NEXT: %in_1 = task.buffer 9 si %x[0:1, 0:8, 0:8, 16:32] : tensor<1x8x8x16xi8>
// CHECK-NEXT: %t_1 = task.table 10 #task.random<3> : tensor<256xi8>
// CHECK-NEXT: %l_1 = task.lut 11 %in_1, %t_1 : tensor<1x8x8x16xi8>
// CHECK-NEXT: %out = task.buffer 3 so %l, %l_1[0:1, 0:8, 0:8, 0:16] at [0, 0, 0, 16] : tensor<1x8x8x32xi8>
// CHECK-NEXT: task.output 5 "y" %out
