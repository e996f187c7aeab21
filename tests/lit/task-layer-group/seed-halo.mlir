// Seed 004's halo rule on its own example: an input of h = 100 rows cut into two slices.
// A 3x3 conv dilated by 20 along y (k_eff = 41) with pad top 20 has 80 output rows; its
// two output slices [0, 40) and [40, 80) read input rows [0, 60) and [20, 100): 40
// duplicated rows <= 100/2, accepted.
// seed-halo-refused.mlir has the refused case.

// RUN: stc-opt %s -p 'task-layer-group{group=3 slices=1,2}' | filecheck %s --check-prefix=PASS
// RUN: stc-opt %s -p 'task-layer-group{group=3 slices=1,2}' -o %t.mlir
// RUN: stc-run %s --compare %t.mlir
// RUN: stc-opt %t.mlir -p 'st-place,st-route,st-lmem-alloc,isa-lower' -o %t.isa.mlir
// RUN: stc-run %s --compare %t.isa.mlir

// PASS: task.buffer {{[0-9]+}} sic %{{.*}}[0:1, 0:60, 0:4, 0:4] : tensor<1x60x4x4xi8>
// PASS: task.conv {{[0-9]+}} {{.*}} pad [20, 0, 1, 1] dilation [20, 1] {{.*}} : tensor<1x40x4x4xi8> {lg.group = 0 : i64, lg.slice = 0 : i64, lg.step = 0 : i64}
// PASS: task.buffer {{[0-9]+}} sic %{{.*}}[0:1, 20:100, 0:4, 0:4] : tensor<1x80x4x4xi8>
// PASS: task.conv {{[0-9]+}} {{.*}} pad [0, 0, 1, 1] dilation [20, 1] {{.*}} : tensor<1x40x4x4xi8> {lg.group = 0 : i64, lg.slice = 1 : i64, lg.step = 1 : i64}
task.graph @accepted {
  %0 = task.input 0 "x" : tensor<1x100x4x4xi8>
  %1 = task.buffer 1 sic %0 : tensor<1x100x4x4xi8>
  %2 = task.weight 2 #task.random<1> : tensor<4x3x3x4xi8>
  %3 = task.conv 3 %1, %2 pad [20, 0, 1, 1] dilation [20, 1] shift 6 : tensor<1x80x4x4xi8>
  %4 = task.buffer 4 so %3 : tensor<1x80x4x4xi8>
  task.output 5 "y" %4
}

