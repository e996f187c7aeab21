// The task graph conv-4core.mlir must agree with.
// RUN: stc-run %s --seed 3 --compare %S/conv-4core.mlir

task.graph @conv_4core {
  %x = task.input 0 "x" : tensor<1x16x16x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x16x16x16xi8>
  %w = task.weight 2 #task.random<1> : tensor<32x3x3x16xi8>
  %b = task.bias 3 #task.random<2> : tensor<32xi32>
  %c = task.conv 4 %in, %w bias %b pad [1, 1, 1, 1] shift 9 : tensor<1x16x16x32xi8>
  %out = task.buffer 5 so %c : tensor<1x16x16x32xi8>
  task.output 6 "y" %out
}
