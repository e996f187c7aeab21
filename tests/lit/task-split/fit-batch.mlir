// `fit` splits the batch first (seed 004 slices N first). On tianjicx (143,360 usable
// bytes) the relu over 8x16x16x64 reads and writes 131,072 B each: 2 sub-batches of 4
// samples fit. The relu over 2x48x48x64 does not fit even one sample (147,456 B in and
// out), so it is split into its 2 samples, and each sample as the same relu at batch 1
// (the BATCH-1 run) is: the pieces grow with the batch, never faster.

// RUN: stc-opt %s -p 'task-split{fit=tianjicx}' | filecheck %s
// RUN: stc-opt %s -p 'task-split{fit=tianjicx}' -o %t && stc-run %s --compare %t
// RUN: sed 's/2x48x48x64/1x48x48x64/g' %s | stc-opt -p 'task-split{fit=tianjicx}' | filecheck %s --check-prefix=BATCH-1

task.graph @batches {
  %x = task.input 0 "x" : tensor<8x16x16x64xi8>
  %in = task.buffer 1 si %x : tensor<8x16x16x64xi8>
  %r = task.relu 2 %in : tensor<8x16x16x64xi8>
  %out = task.buffer 3 so %r : tensor<8x16x16x64xi8>
  task.output 4 "y" %out
  %u = task.input 5 "u" : tensor<2x48x48x64xi8>
  %u_in = task.buffer 6 si %u : tensor<2x48x48x64xi8>
  %s = task.relu 7 %u_in : tensor<2x48x48x64xi8>
  %u_out = task.buffer 8 so %s : tensor<2x48x48x64xi8>
  task.output 9 "v" %u_out
}

// CHECK:          %x = task.input 0 "x" : tensor<8x16x16x64xi8>
// CHECK-NEXT:     %in = task.buffer 10 si %x[0:4, 0:16, 0:16, 0:64] : tensor<4x16x16x64xi8>
// CHECK-NEXT:     %r = task.relu 11 %in : tensor<4x16x16x64xi8>
// CHECK-NEXT:     %in_1 = task.buffer 12 si %x[4:8, 0:16, 0:16, 0:64] : tensor<4x16x16x64xi8>
// CHECK-NEXT:     %r_1 = task.relu 13 %in_1 : tensor<4x16x16x64xi8>
// CHECK-NEXT:     %out = task.buffer 3 so %r, %r_1[0:4, 0:16, 0:16, 0:64] at [4, 0, 0, 0] : tensor<8x16x16x64xi8>
// CHECK-NEXT:     task.output 4 "y" %out
// CHECK-NEXT:     %u = task.input 5 "u" : tensor<2x48x48x64xi8>
// CHECK-NEXT:     %u_in = task.buffer 14 si %u[0:1, 0:48, 0:16, 0:64] : tensor<1x48x16x64xi8>
// CHECK-NEXT:     %s = task.relu 15 %u_in : tensor<1x48x16x64xi8>
// CHECK-NEXT:     %u_in_1 = task.buffer 16 si %u[0:1, 0:48, 16:32, 0:64] : tensor<1x48x16x64xi8>
// CHECK-NEXT:     %s_1 = task.relu 17 %u_in_1 : tensor<1x48x16x64xi8>
// CHECK-NEXT:     %u_in_2 = task.buffer 18 si %u[0:1, 0:48, 32:48, 0:64] : tensor<1x48x16x64xi8>
// CHECK-NEXT:     %s_2 = task.relu 19 %u_in_2 : tensor<1x48x16x64xi8>
// CHECK-NEXT:     %u_in_3 = task.buffer 20 si %u[1:2, 0:48, 0:16, 0:64] : tensor<1x48x16x64xi8>
// CHECK-NEXT:     %s_3 = task.relu 21 %u_in_3 : tensor<1x48x16x64xi8>
// CHECK-NEXT:     %u_in_4 = task.buffer 22 si %u[1:2, 0:48, 16:32, 0:64] : tensor<1x48x16x64xi8>

// BATCH-1:     %s = task.relu 15 %u_in : tensor<1x48x16x64xi8>
// BATCH-1:     %s_1 = task.relu 17 %u_in_1 : tensor<1x48x16x64xi8>
// BATCH-1:     %s_2 = task.relu 19 %u_in_2 : tensor<1x48x16x64xi8>
// BATCH-1-NOT: task.relu
