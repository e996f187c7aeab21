"""The task graphs of the seed's split and mapping examples (seed 000), shared by the tests."""

SEED_CONV = """
task.graph @conv {
  %x = task.input 5 "x" : tensor<1x8x8x32xi8>
  %in = task.buffer 0 sic %x : tensor<1x8x8x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x3x3x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %c = task.conv 3 %in, %w bias %b pad [1, 1, 1, 1] shift 12 : tensor<1x8x8x32xi8>
  %out = task.buffer 4 so %c : tensor<1x8x8x32xi8>
  task.output 6 "y" %out
}
"""

SEED_AVGPOOL = """
task.graph @avgpool {
  %x = task.input 4 "x" : tensor<1x8x8x32xi8>
  %in = task.buffer 0 si %x : tensor<1x8x8x32xi8>
  %b = task.bias 1 #task.random<2> : tensor<32xi32>
  %p = task.avgpool 2 %in bias %b window [2, 2] stride [2, 2] shift 2 : tensor<1x4x4x32xi8>
  %out = task.buffer 3 so %p : tensor<1x4x4x32xi8>
  task.output 5 "y" %out
}
"""

SEED_FC = """
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
"""

SEED_LUT = """
task.graph @lut {
  %x = task.input 4 "x" : tensor<1x8x8x32xi8>
  %in = task.buffer 0 si %x : tensor<1x8x8x32xi8>
  %t = task.table 1 #task.random<3> : tensor<256xi8>
  %l = task.lut 2 %in, %t : tensor<1x8x8x32xi8>
  %out = task.buffer 3 so %l : tensor<1x8x8x32xi8>
  task.output 5 "y" %out
}
"""

SEED_GROUP = """
task.graph @group {
  %x = task.input 9 "x" : tensor<1x16x16x32xi8>
  %p1_in = task.buffer 0 si %x : tensor<1x16x16x32xi8>
  %p1 = task.maxpool 1 %p1_in window [2, 2] stride [2, 2] : tensor<1x8x8x32xi8>
  %c_in = task.buffer 2 sic %p1 : tensor<1x8x8x32xi8>
  %w = task.weight 3 #task.random<1> : tensor<32x3x3x32xi8>
  %b = task.bias 4 #task.random<2> : tensor<32xi32>
  %c = task.conv 5 %c_in, %w bias %b pad [1, 1, 1, 1] shift 12 : tensor<1x8x8x32xi8>
  %p7_in = task.buffer 6 si %c : tensor<1x8x8x32xi8>
  %p7 = task.maxpool 7 %p7_in window [2, 2] stride [2, 2] : tensor<1x4x4x32xi8>
  %out = task.buffer 8 so %p7 : tensor<1x4x4x32xi8>
  task.output 10 "y" %out
}
"""
