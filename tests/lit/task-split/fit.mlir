// task-split{fit=TARGET} splits every block whose input storage and result tile exceed a
// core's local memory by the smallest vector whose pieces fit. On tianjicx (143,360 usable
// bytes per core) the conv reads a 64x64x64 input (262,144 B) and 36,864 B of weights and
// writes 262,144 B; the relu reads and writes 262,144 B each.

// RUN: stc-opt %s -p 'task-split{fit=tianjicx}' | filecheck %s
// RUN: stc-opt %s -p 'task-split{fit=tianjicx}' -o %t && stc-run %s --compare %t
// RUN: not stc-opt %s -p 'task-split{fit=no-such-target}' 2>&1 | filecheck %s --check-prefix=TARGET
// RUN: not stc-opt %s -p 'task-split{fit=tianjicx task=3 vector=2,1,1,1}' 2>&1 | filecheck %s --check-prefix=BOTH

task.graph @big {
  %x = task.input 0 "x" : tensor<1x64x64x64xi8>
  %in = task.buffer 1 sic %x : tensor<1x64x64x64xi8>
  %w = task.weight 2 #task.random<1> : tensor<64x3x3x64xi8>
  %c = task.conv 3 %in, %w pad [1, 1, 1, 1] shift 12 : tensor<1x64x64x64xi8>
  %r_in = task.buffer 4 si %c : tensor<1x64x64x64xi8>
  %r = task.relu 5 %r_in : tensor<1x64x64x64xi8>
  %out = task.buffer 6 so %r : tensor<1x64x64x64xi8>
  task.output 7 "y" %out
}

// CHECK:      task.graph @big {
// CHECK-NEXT:   %x = task.input 0 "x" : tensor<1x64x64x64xi8>
// CHECK-NEXT:   %in = task.buffer 8 sic %x[0:1, 0:33, 0:23, 0:64] : tensor<1x33x23x64xi8>
// CHECK-NEXT:   %w = task.weight 9 #task.random<1> : tensor<64x3x3x64xi8>
// CHECK-NEXT:   %c = task.conv 10 %in, %w pad [1, 0, 1, 0] shift 12 : tensor<1x32x22x64xi8>
// CHECK-NEXT:   %in_1 = task.buffer 11 sic %x[0:1, 0:33, 21:44, 0:64] : tensor<1x33x23x64xi8>
// CHECK-NEXT:   %w_1 = task.weight 12 #task.random<1> : tensor<64x3x3x64xi8>
// CHECK-NEXT:   %c_1 = task.conv 13 %in_1, %w_1 pad [1, 0, 0, 0] shift 12 : tensor<1x32x21x64xi8>
// CHECK-NEXT:   %in_2 = task.buffer 14 sic %x[0:1, 0:33, 42:64, 0:64] : tensor<1x33x22x64xi8>
// CHECK-NEXT:   %w_2 = task.weight 15 #task.random<1> : tensor<64x3x3x64xi8>
// CHECK-NEXT:   %c_2 = task.conv 16 %in_2, %w_2 pad [1, 0, 0, 1] shift 12 : tensor<1x32x21x64xi8>
// CHECK-NEXT:   %in_3 = task.buffer 17 sic %x[0:1, 31:64, 0:23, 0:64] : tensor<1x33x23x64xi8>
// CHECK-NEXT:   %w_3 = task.weight 18 #task.random<1> : tensor<64x3x3x64xi8>
// CHECK-NEXT:   %c_3 = task.conv 19 %in_3, %w_3 pad [0, 1, 1, 0] shift 12 : tensor<1x32x22x64xi8>
// CHECK-NEXT:   %in_4 = task.buffer 20 sic %x[0:1, 31:64, 21:44, 0:64] : tensor<1x33x23x64xi8>
// CHECK-NEXT:   %w_4 = task.weight 21 #task.random<1> : tensor<64x3x3x64xi8>
// CHECK-NEXT:   %c_4 = task.conv 22 %in_4, %w_4 pad [0, 1, 0, 0] shift 12 : tensor<1x32x21x64xi8>
// CHECK-NEXT:   %in_5 = task.buffer 23 sic %x[0:1, 31:64, 42:64, 0:64] : tensor<1x33x22x64xi8>
// CHECK-NEXT:   %w_5 = task.weight 24 #task.random<1> : tensor<64x3x3x64xi8>
// CHECK-NEXT:   %c_5 = task.conv 25 %in_5, %w_5 pad [0, 1, 0, 1] shift 12 : tensor<1x32x21x64xi8>
// CHECK-NEXT:   %r_in = task.buffer 26 si %c[0:1, 0:32, 0:22, 0:16], %c_1[0:1, 0:32, 0:21, 0:16] at [0, 0, 22, 0], %c_2[0:1, 0:32, 0:21, 0:16] at [0, 0, 43, 0], %c_3[0:1, 0:32, 0:22, 0:16] at [0, 32, 0, 0], %c_4[0:1, 0:32, 0:21, 0:16] at [0, 32, 22, 0], %c_5[0:1, 0:32, 0:21, 0:16] at [0, 32, 43, 0] : tensor<1x64x64x16xi8>
// CHECK-NEXT:   %r = task.relu 27 %r_in : tensor<1x64x64x16xi8>
// CHECK-NEXT:   %r_in_1 = task.buffer 28 si %c[0:1, 0:32, 0:22, 16:32], %c_1[0:1, 0:32, 0:21, 16:32] at [0, 0, 22, 0], %c_2[0:1, 0:32, 0:21, 16:32] at [0, 0, 43, 0], %c_3[0:1, 0:32, 0:22, 16:32] at [0, 32, 0, 0], %c_4[0:1, 0:32, 0:21, 16:32] at [0, 32, 22, 0], %c_5[0:1, 0:32, 0:21, 16:32] at [0, 32, 43, 0] : tensor<1x64x64x16xi8>
// CHECK-NEXT:   %r_1 = task.relu 29 %r_in_1 : tensor<1x64x64x16xi8>
// CHECK-NEXT:   %r_in_2 = task.buffer 30 si %c[0:1, 0:32, 0:22, 32:48], %c_1[0:1, 0:32, 0:21, 32:48] at [0, 0, 22, 0], %c_2[0:1, 0:32, 0:21, 32:48] at [0, 0, 43, 0], %c_3[0:1, 0:32, 0:22, 32:48] at [0, 32, 0, 0], %c_4[0:1, 0:32, 0:21, 32:48] at [0, 32, 22, 0], %c_5[0:1, 0:32, 0:21, 32:48] at [0, 32, 43, 0] : tensor<1x64x64x16xi8>
// CHECK-NEXT:   %r_2 = task.relu 31 %r_in_2 : tensor<1x64x64x16xi8>
// CHECK-NEXT:   %r_in_3 = task.buffer 32 si %c[0:1, 0:32, 0:22, 48:64], %c_1[0:1, 0:32, 0:21, 48:64] at [0, 0, 22, 0], %c_2[0:1, 0:32, 0:21, 48:64] at [0, 0, 43, 0], %c_3[0:1, 0:32, 0:22, 48:64] at [0, 32, 0, 0], %c_4[0:1, 0:32, 0:21, 48:64] at [0, 32, 22, 0], %c_5[0:1, 0:32, 0:21, 48:64] at [0, 32, 43, 0] : tensor<1x64x64x16xi8>
// CHECK-NEXT:   %r_3 = task.relu 33 %r_in_3 : tensor<1x64x64x16xi8>
// CHECK-NEXT:   %out = task.buffer 6 so %r, %r_1[0:1, 0:64, 0:64, 0:16] at [0, 0, 0, 16], %r_2[0:1, 0:64, 0:64, 0:16] at [0, 0, 0, 32], %r_3[0:1, 0:64, 0:64, 0:16] at [0, 0, 0, 48] : tensor<1x64x64x64xi8>
// CHECK-NEXT:   task.output 7 "y" %out

// TARGET: stc-opt: error: unknown target 'no-such-target'; available: aie-ml, set-8x8, tianjicx, tpu-like
// BOTH:   stc-opt: error: task-split: `fit` chooses the vectors itself; give no task, tasks or vector
