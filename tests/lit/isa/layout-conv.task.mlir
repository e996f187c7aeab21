// The task graph layout-conv.mlir must agree with.
// RUN: stc-run %s --seed 3 --compare %S/layout-conv.mlir

task.graph @layout_conv {
  %x = task.input 0 "x" : tensor<1x7x7x20xi8>
  %in = task.buffer 1 sic %x : tensor<1x7x7x20xi8>
  %w = task.weight 2 #task.random<3> : tensor<24x3x3x20xi8>
  %b = task.bias 3 #task.random<4> : tensor<24xi32>
  %c = task.conv 4 %in, %w bias %b pad [1, 1, 1, 1] shift 8 : tensor<1x7x7x24xi8>
  %out = task.buffer 5 so %c : tensor<1x7x7x24xi8>
  task.output 6 "y" %out
}
