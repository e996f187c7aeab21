// The task graph every-op.mlir must agree with.
// RUN: stc-run %s --seed 3 --compare %S/every-op.mlir

task.graph @every_op {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %relu_in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %relu = task.relu 2 %relu_in : tensor<1x8x8x16xi8>
  %max_in = task.buffer 3 si %relu : tensor<1x8x8x16xi8>
  %max = task.maxpool 4 %max_in window [2, 2] stride [2, 2] : tensor<1x4x4x16xi8>
  %lut_in = task.buffer 5 si %max : tensor<1x4x4x16xi8>
  %table = task.table 6 #task.random<11> : tensor<256xi8>
  %lut = task.lut 7 %lut_in, %table : tensor<1x4x4x16xi8>
  %avg_in = task.buffer 8 si %x : tensor<1x8x8x16xi8>
  %avg_bias = task.bias 9 #task.random<12> : tensor<16xi32>
  %avg = task.avgpool 10 %avg_in bias %avg_bias window [2, 2] stride [2, 2] shift 2 : tensor<1x4x4x16xi8>
  %mul_lhs = task.buffer 11 si %avg : tensor<1x4x4x16xi8>
  %mul_rhs = task.buffer 12 si %lut : tensor<1x4x4x16xi8>
  %mul = task.mul 13 %mul_lhs, %mul_rhs shift 6 : tensor<1x4x4x16xi8>
  %add_avg = task.buffer 14 si %avg : tensor<1x4x4x16xi8>
  %add_mul = task.buffer 15 si %mul : tensor<1x4x4x16xi8>
  %add_lut = task.buffer 16 si %lut : tensor<1x4x4x16xi8>
  %add_bias = task.bias 17 #task.random<12> : tensor<16xi32>
  %add = task.add 18 %add_avg, %add_mul, %add_lut bias %add_bias shift 1 : tensor<1x4x4x16xi8>
  %fc_in = task.buffer 19 sifc %add : tensor<1x4x4x16xi8>
  %fc_w = task.weight 20 #task.random<13> : tensor<10x4x4x16xi8>
  %fc_b = task.bias 21 #task.random<14> : tensor<10xi32>
  %fc = task.fc 22 %fc_in, %fc_w bias %fc_b shift 9 : tensor<1x1x1x10xi8>
  %y = task.buffer 23 so %fc : tensor<1x1x1x10xi8>
  task.output 24 "y" %y
  %conv_in = task.buffer 25 sic %x : tensor<1x8x8x16xi8>
  %conv_w = task.weight 26 #task.random<15> : tensor<8x1x1x16xi8>
  %conv = task.conv 27 %conv_in, %conv_w : tensor<1x8x8x8xi32>
  %z_in = task.buffer 28 si %conv : tensor<1x8x8x8xi32>
  %z_relu = task.relu 29 %z_in shift 8 : tensor<1x8x8x8xi8>
  %z = task.buffer 30 so %z_relu : tensor<1x8x8x8xi8>
  task.output 31 "z" %z
}
