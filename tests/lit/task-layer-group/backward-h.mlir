// Backward-H through a conv (3x3, pad 1), a maxpool (2x2, stride 2) and a 1x1 conv of
// stride 2, whose input slice is (out - 1)·stride + max(k_eff, stride) rows: the group's
// 4 output rows cut in two, [0, 2) and [2, 4), need rows [0, 4) and [4, 8) of the pool,
// which needs rows [0, 8) and [8, 16) of the first conv, which reads rows [0, 9) with
// pad [1, 0] and [7, 16) with pad [0, 1]: the halo grows towards the group's input.

// RUN: stc-opt %s -p 'task-layer-group{group=3,5,8 slices=1,2}' | filecheck %s
// RUN: stc-opt %s -p 'task-layer-group{group=3,5,8 slices=1,2}' -o %t.mlir
// RUN: stc-run %s --compare %t.mlir
// RUN: stc-opt %t.mlir -p 'st-place,st-route,st-lmem-alloc,isa-lower' -o %t.isa.mlir
// RUN: stc-run %s --compare %t.isa.mlir

// CHECK: task.buffer {{[0-9]+}} sic %{{.*}}[0:1, 0:9, 0:8, 0:8] : tensor<1x9x8x8xi8>
// CHECK: task.conv {{.*}} pad [1, 0, 1, 1] {{.*}} : tensor<1x8x8x8xi8> {lg.group = 0 : i64, lg.slice = 0 : i64, lg.step = 0 : i64}
// CHECK: task.buffer {{[0-9]+}} sic %{{.*}}[0:1, 7:16, 0:8, 0:8] : tensor<1x9x8x8xi8>
// CHECK: task.conv {{.*}} pad [0, 1, 1, 1] {{.*}} : tensor<1x8x8x8xi8> {lg.group = 0 : i64, lg.slice = 1 : i64, lg.step = 3 : i64}
// CHECK: task.maxpool {{.*}} : tensor<1x4x4x8xi8> {lg.group = 0 : i64, lg.slice = 0 : i64, lg.step = 1 : i64}
// CHECK: task.maxpool {{.*}} : tensor<1x4x4x8xi8> {lg.group = 0 : i64, lg.slice = 1 : i64, lg.step = 4 : i64}
// CHECK: task.conv {{.*}} stride [2, 2] {{.*}} : tensor<1x2x2x8xi8> {lg.group = 0 : i64, lg.slice = 0 : i64, lg.step = 2 : i64}
// CHECK: task.conv {{.*}} stride [2, 2] {{.*}} : tensor<1x2x2x8xi8> {lg.group = 0 : i64, lg.slice = 1 : i64, lg.step = 5 : i64}
// CHECK: task.buffer 9 so %{{.*}}, %{{.*}}[0:1, 0:2, 0:2, 0:8] at [0, 2, 0, 0] : tensor<1x4x2x8xi8>

task.graph @chain {
  %0 = task.input 0 "x" : tensor<1x16x8x8xi8>
  %1 = task.buffer 1 sic %0 : tensor<1x16x8x8xi8>
  %2 = task.weight 2 #task.random<1> : tensor<8x3x3x8xi8>
  %3 = task.conv 3 %1, %2 pad [1, 1, 1, 1] shift 6 : tensor<1x16x8x8xi8>
  %4 = task.buffer 4 si %3 : tensor<1x16x8x8xi8>
  %5 = task.maxpool 5 %4 window [2, 2] stride [2, 2] : tensor<1x8x4x8xi8>
  %6 = task.buffer 6 sic %5 : tensor<1x8x4x8xi8>
  %7 = task.weight 7 #task.random<2> : tensor<8x1x1x8xi8>
  %8 = task.conv 8 %6, %7 stride [2, 2] shift 4 : tensor<1x4x2x8xi8>
  %9 = task.buffer 9 so %8 : tensor<1x4x2x8xi8>
  task.output 10 "y" %9
}
