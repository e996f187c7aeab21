// Seed 004's refused example: a 3x3 conv dilated by 30 along y (k_eff = 61) over h = 100
// rows has 40 output rows; its slices [0, 20) and [20, 40) read input rows [0, 80) and
// [20, 100): 60 duplicated rows > 100/2, refused.

// RUN: not stc-opt %s -p 'task-layer-group{group=3 slices=1,2}' 2>&1 | filecheck %s --check-prefix=FAIL
// FAIL: stc-opt: error: task-layer-group: group [3] sliced n=1 h=2: task.conv 3 reads input rows [0, 80), [20, 100) of 100: 60 duplicated rows > 100/2
task.graph @refused {
  %0 = task.input 0 "x" : tensor<1x100x4x4xi8>
  %1 = task.buffer 1 sic %0 : tensor<1x100x4x4xi8>
  %2 = task.weight 2 #task.random<1> : tensor<4x3x3x4xi8>
  %3 = task.conv 3 %1, %2 pad [0, 0, 1, 1] dilation [30, 1] shift 6 : tensor<1x40x4x4xi8>
  %4 = task.buffer 4 so %3 : tensor<1x40x4x4xi8>
  task.output 5 "y" %4
}
