// Backward-H through a dilated conv (3x3, dilation 2 along H, pad 2): k_eff = 2·(3 − 1) + 1
// = 5, so each of the two row slices of 8 output rows reads (8 − 1)·1 + max(5, 1) = 12 rows
// from 8·s − 2, clamped to the input: [0, 10) keeping pad top 2, and [6, 16) keeping pad
// bottom 2. The halo, 4 rows read by both slices, is within half the input's 16.

// RUN: stc-opt %s -p 'task-layer-group{group=3,5 slices=1,2}' | filecheck %s
// RUN: stc-opt %s -p 'task-layer-group{group=3,5 slices=1,2}' -o %t.mlir
// RUN: stc-run %s --compare %t.mlir
// RUN: stc-opt %t.mlir -p 'st-place,st-route,st-lmem-alloc,isa-lower' -o %t.isa.mlir
// RUN: stc-run %s --compare %t.isa.mlir

// CHECK: task.buffer 8 sic %{{.*}}[0:1, 0:10, 0:8, 0:8] : tensor<1x10x8x8xi8>
// CHECK: task.conv 10 {{.*}} pad [2, 0, 1, 1] dilation [2, 1] {{.*}} : tensor<1x8x8x8xi8> {lg.group = 0 : i64, lg.slice = 0 : i64, lg.step = 0 : i64}
// CHECK: task.buffer 11 sic %{{.*}}[0:1, 6:16, 0:8, 0:8] : tensor<1x10x8x8xi8>
// CHECK: task.conv 13 {{.*}} pad [0, 2, 1, 1] dilation [2, 1] {{.*}} : tensor<1x8x8x8xi8> {lg.group = 0 : i64, lg.slice = 1 : i64, lg.step = 2 : i64}
// CHECK: task.buffer 6 so %{{.*}}, %{{.*}}[0:1, 0:8, 0:8, 0:8] at [0, 8, 0, 0] : tensor<1x16x8x8xi8>

task.graph @dilated {
  %0 = task.input 0 "x" : tensor<1x16x8x8xi8>
  %1 = task.buffer 1 sic %0 : tensor<1x16x8x8xi8>
  %2 = task.weight 2 #task.random<1> : tensor<8x3x3x8xi8>
  %3 = task.conv 3 %1, %2 pad [2, 2, 1, 1] dilation [2, 1] shift 6 : tensor<1x16x8x8xi8>
  %4 = task.buffer 4 si %3 : tensor<1x16x8x8xi8>
  %5 = task.relu 5 %4 : tensor<1x16x8x8xi8>
  %6 = task.buffer 6 so %5 : tensor<1x16x8x8xi8>
  task.output 7 "y" %6
}
