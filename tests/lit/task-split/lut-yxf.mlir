// Seed split_task example 16: the lut of example 13 split y, x and f in 2: eight luts
// and eight identical tables.

// RUN: stc-opt %s -p 'task-split{task=2 vector=2,2,2,1}' | filecheck %s
// RUN: stc-opt %s -p 'task-split{task=2 vector=2,2,2,1}' -o %t && stc-run %s --compare %t

task.graph @lut {
  %x = task.input 4 "x" : tensor<1x8x8x32xi8>
  %in = task.buffer 0 si %x : tensor<1x8x8x32xi8>
  %t = task.table 1 #task.random<3> : tensor<256xi8>
  %l = task.lut 2 %in, %t : tensor<1x8x8x32xi8>
  %out = task.buffer 3 so %l : tensor<1x8x8x32xi8>
  task.output 5 "y" %out
}

// CHECK:      task.graph @lut attributes {split_created = array<i64: 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29>} {
// CHECK-NEXT: %x = task.input 4 "x" : tensor<1x8x8x32xi8>
// CHECK-NEXT: %in = task.buffer 6 si %x[0:1, 0:4, 0:4, 0:16] : tensor<1x4x4x16xi8>
// CHECK-NEXT: %t = task.table 7 #task.random<3> : tensor<256xi8>
// CHECK-NEXT: %l = task.lut 8 %in, %t : tensor<1x4x4x16xi8>
// CHECK-NEXT: %in_1 = task.buffer 9 si %x[0:1, 0:4, 0:4, 16:32] : tensor<1x4x4x16xi8>
// CHECK-NEXT: %t_1 = task.table 10 #task.random<3> : tensor<256xi8>
// CHECK-NEXT: %l_1 = task.lut 11 %in_1, %t_1 : tensor<1x4x4x16xi8>
// CHECK-NEXT: %in_2 = task.buffer 12 si %x[0:1, 0:4, 4:8, 0:16] : tensor<1x4x4x16xi8>
// CHECK-NEXT: %t_2 = task.table 13 #task.random<3> : tensor<256xi8>
// CHECK-NEXT: %l_2 = task.lut 14 %in_2, %t_2 : tensor<1x4x4x16xi8>
// CHECK-NEXT: %in_3 = task.buffer 15 si %x[0:1, 0:4, 4:8, 16:32] : tensor<1x4x4x16xi8>
// CHECK-NEXT: %t_3 = task.table 16 #task.random<3> : tensor<256xi8>
// CHECK-NEXT: %l_3 = task.lut 17 %in_3, %t_3 : tensor<1x4x4x16xi8>
// CHECK-NEXT: %in_4 = task.buffer 18 si %x[0:1, 4:8, 0:4, 0:16] : tensor<1x4x4x16xi8>
// CHECK-NEXT: %t_4 = task.table 19 #task.random<3> : tensor<256xi8>
// CHECK-NEXT: %l_4 = task.lut 20 %in_4, %t_4 : tensor<1x4x4x16xi8>
// CHECK-NEXT: %in_5 = task.buffer 21 si %x[0:1, 4:8, 0:4, 16:32] : tensor<1x4x4x16xi8>
// CHECK-NEXT: %t_5 = task.table 22 #task.random<3> : tensor<256xi8>
// CHECK-NEXT: %l_5 = task.lut 23 %in_5, %t_5 : tensor<1x4x4x16xi8>
// CHECK-NEXT: %in_6 = task.buffer 24 si %x[0:1, 4:8, 4:8, 0:16] : tensor<1x4x4x16xi8>
// CHECK-NEXT: %t_6 = task.table 25 #task.random<3> : tensor<256xi8>
// CHECK-NEXT: %l_6 = task.lut 26 %in_6, %t_6 : tensor<1x4x4x16xi8>
// CHECK-NEXT: %in_7 = task.buffer 27 si %x[0:1, 4:8, 4:8, 16:32] : tensor<1x4x4x16xi8>
// CHECK-NEXT: %t_7 = task.table 28 #task.random<3> : tensor<256xi8>
// CHECK-NEXT: %l_7 = task.lut 29 %in_7, %t_7 : tensor<1x4x4x16xi8>
// CHECK-NEXT: %out = task.buffer 3 so %l, %l_1[0:1, 0:4, 0:4, 0:16] at [0, 0, 0, 16], %l_2[0:1, 0:4, 0:4, 0:16] at [0, 0, 4, 0], %l_3[0:1, 0:4, 0:4, 0:16] at [0, 0, 4, 16], %l_4[0:1, 0:4, 0:4, 0:16] at [0, 4, 0, 0], %l_5[0:1, 0:4, 0:4, 0:16] at [0, 4, 0, 16], %l_6[0:1, 0:4, 0:4, 0:16] at [0, 4, 4, 0], %l_7[0:1, 0:4, 0:4, 0:16] at [0, 4, 4, 16] : tensor<1x8x8x32xi8>
// CHECK-NEXT: task.output 5 "y" %out
