// Uneven splits (larger pieces first), strides, dilations, pads kept on the outer pieces
// and inner pads where the windows still reach the padding, on every kind of compute
// block. The hints are applied in graph order, and the split graph computes exactly
// what the original does.

// RUN: stc-opt %s -p task-split | filecheck %s
// RUN: stc-opt %s -p task-split -o %t && stc-run %s --compare %t

task.graph @uneven {
  %x = task.input 0 "x" : tensor<1x10x10x8xi8>
  %c1_in = task.buffer 1 sic %x : tensor<1x10x10x8xi8>
  %w1 = task.weight 2 #task.random<1> : tensor<16x3x3x8xi8>
  %c1 = task.conv 3 %c1_in, %w1 stride [2, 2] pad [1, 1, 1, 1] shift 11 : tensor<1x5x5x16xi8> {split = array<i64: 3, 1, 1, 1>}
  %r_in = task.buffer 4 si %c1 : tensor<1x5x5x16xi8>
  %r = task.relu 5 %r_in : tensor<1x5x5x16xi8> {split = array<i64: 1, 2, 3, 1>}
  %c2_in = task.buffer 6 sic %r : tensor<1x5x5x16xi8>
  %w2 = task.weight 7 #task.random<2> : tensor<16x3x3x16xi8>
  %b2 = task.bias 8 #task.random<3> : tensor<16xi32>
  %c2 = task.conv 9 %c2_in, %w2 bias %b2 pad [2, 2, 2, 2] dilation [2, 2] shift 10 : tensor<1x5x5x16xi8> {split = array<i64: 3, 1, 1, 3>}
  %p_in = task.buffer 10 si %c2 : tensor<1x5x5x16xi8>
  %p = task.maxpool 11 %p_in window [3, 3] stride [2, 2] pad [1, 1, 1, 1] : tensor<1x3x3x16xi8> {split = array<i64: 1, 3, 2, 1>}
  %a_in0 = task.buffer 12 si %p : tensor<1x3x3x16xi8>
  %a_in1 = task.buffer 13 si %p : tensor<1x3x3x16xi8>
  %ab = task.bias 14 #task.random<4> : tensor<16xi32>
  %a = task.add 15 %a_in0, %a_in1 bias %ab shift 1 : tensor<1x3x3x16xi8> {split = array<i64: 2, 1, 2, 1>}
  %m_in0 = task.buffer 16 si %a : tensor<1x3x3x16xi8>
  %m_in1 = task.buffer 17 si %a : tensor<1x3x3x16xi8>
  %mb = task.bias 18 #task.random<5> : tensor<16xi32>
  %m = task.mul 19 %m_in0, %m_in1 bias %mb shift 6 : tensor<1x3x3x16xi8> {split = array<i64: 1, 2, 1, 1>}
  %v_in = task.buffer 20 si %m : tensor<1x3x3x16xi8>
  %v = task.avgpool 21 %v_in window [2, 2] pad [0, 1, 0, 1] shift 2 : tensor<1x3x3x16xi8> {split = array<i64: 3, 1, 1, 1>}
  %l_in = task.buffer 22 si %v : tensor<1x3x3x16xi8>
  %t = task.table 23 #task.random<6> : tensor<256xi8>
  %l = task.lut 24 %l_in, %t : tensor<1x3x3x16xi8> {split = array<i64: 1, 1, 4, 1>}
  %f_in = task.buffer 25 sifc %l : tensor<1x3x3x16xi8>
  %fw = task.weight 26 #task.random<7> : tensor<10x3x3x16xi8>
  %fb = task.bias 27 #task.random<8> : tensor<10xi32>
  %f = task.fc 28 %f_in, %fw bias %fb shift 10 : tensor<1x1x1x10xi8> {split = array<i64: 1, 1, 3, 3, 1, 1>}
  %out = task.buffer 29 so %f : tensor<1x1x1x10xi8>
  task.output 30 "y" %out
}

// Stride 2, 5 output rows in 3 pieces (2, 2, 1): the middle piece needs no pad at all.
// CHECK:      %c1_in = task.buffer 31 sic %x[0:1, 0:4, 0:10, 0:8] : tensor<1x4x10x8xi8>
// CHECK:      %c1 = task.conv 33 %c1_in, %w1 stride [2, 2] pad [1, 0, 1, 1] shift 11 : tensor<1x2x5x16xi8>
// CHECK:      %c1_in_1 = task.buffer 34 sic %x[0:1, 3:8, 0:10, 0:8] : tensor<1x5x10x8xi8>
// CHECK:      %c1_1 = task.conv 36 %c1_in_1, %w1_1 stride [2, 2] pad [0, 0, 1, 1] shift 11 : tensor<1x2x5x16xi8>
// CHECK:      %c1_in_2 = task.buffer 37 sic %x[0:1, 7:10, 0:10, 0:8] : tensor<1x3x10x8xi8>
// CHECK:      %c1_2 = task.conv 39 %c1_in_2, %w1_2 stride [2, 2] pad [0, 1, 1, 1] shift 11 : tensor<1x1x5x16xi8>

// The relu's pieces read the conv pieces' results directly; 16 channels in 3 are 6, 5, 5.
// CHECK:      %r_in = task.buffer 40 si %c1[0:1, 0:2, 0:3, 0:6], %c1_1[0:1, 0:2, 0:3, 0:6] at [0, 2, 0, 0], %c1_2[0:1, 0:1, 0:3, 0:6] at [0, 4, 0, 0] : tensor<1x5x3x6xi8>

// Dilation 2 (extent 5), pad 2, split y in 3 and r in 3: the middle piece's windows still
// reach one row of bottom padding; partial sums of r-slice 0 gather the three y pieces.
// CHECK:      %c2 = task.conv 54 %c2_in, %w2 pad [2, 0, 2, 2] dilation [2, 2] : tensor<1x2x5x16xi32>
// CHECK:      %c2_3 = task.conv 63 %c2_in_3, %w2_3 pad [0, 1, 2, 2] dilation [2, 2] : tensor<1x2x5x16xi32>
// CHECK:      %c2_in_6 = task.buffer 70 sic %r[0:1, 2:5, 0:3, 0:6], %r_3[0:1, 2:5, 0:2, 0:6] at [0, 0, 3, 0] : tensor<1x3x5x6xi8>
// CHECK:      %c2_6 = task.conv 72 %c2_in_6, %w2_6 pad [0, 2, 2, 2] dilation [2, 2] : tensor<1x1x5x16xi32>
// CHECK:      %c2_partial = task.buffer 79 si %c2, %c2_3[0:1, 0:2, 0:5, 0:16] at [0, 2, 0, 0], %c2_6[0:1, 0:1, 0:5, 0:16] at [0, 4, 0, 0] : tensor<1x5x5x16xi32>
// CHECK:      %c2_9 = task.add 82 %c2_partial, %c2_partial_1, %c2_partial_2 bias %b2 shift 10 : tensor<1x5x5x16xi8>

// A 3x3 stride-2 maxpool split x in 3: left pad on the first piece, right on the last.
// CHECK:      %p = task.maxpool 84 %p_in window [3, 3] stride [2, 2] pad [1, 1, 1, 0] : tensor<1x3x1x8xi8>
// CHECK:      %p_in_2 = task.buffer 87 si %c2_9[0:1, 0:5, 1:4, 0:8] : tensor<1x5x3x8xi8>
// CHECK:      %p_2 = task.maxpool 88 %p_in_2 window [3, 3] stride [2, 2] pad [1, 1, 0, 0] : tensor<1x3x1x8xi8>
// CHECK:      %p_4 = task.maxpool 92 %p_in_4 window [3, 3] stride [2, 2] pad [1, 1, 0, 1] : tensor<1x3x1x8xi8>

// An add splits every branch alike, its bias in f.
// CHECK:      %a_in0 = task.buffer 95 si %p[0:1, 0:2, 0:1, 0:8], %p_2[0:1, 0:2, 0:1, 0:8] at [0, 0, 1, 0], %p_4[0:1, 0:2, 0:1, 0:8] at [0, 0, 2, 0] : tensor<1x2x3x8xi8>
// CHECK-NEXT: %a_in1 = task.buffer 96 si %p[0:1, 0:2, 0:1, 0:8], %p_2[0:1, 0:2, 0:1, 0:8] at [0, 0, 1, 0], %p_4[0:1, 0:2, 0:1, 0:8] at [0, 0, 2, 0] : tensor<1x2x3x8xi8>
// CHECK-NEXT: %ab = task.bias 97 #task.random<4> : tensor<16xi32>[0:8]
// CHECK-NEXT: %a = task.add 98 %a_in0, %a_in1 bias %ab shift 1 : tensor<1x2x3x8xi8>

// A mul split in x replicates its bias.
// CHECK:      %mb = task.bias 113 #task.random<5> : tensor<16xi32>
// CHECK-NEXT: %m = task.mul 114 %m_in0, %m_in1 bias %mb shift 6 : tensor<1x3x2x16xi8>
// CHECK:      %mb_1 = task.bias 117 #task.random<5> : tensor<16xi32>
// CHECK-NEXT: %m_1 = task.mul 118 %m_in0_1, %m_in1_1 bias %mb_1 shift 6 : tensor<1x3x1x16xi8>

// A 2x2 stride-1 avgpool with bottom/right pad 1 split y in 3: overlapping input rows,
// the bottom pad only on the last piece.
// CHECK:      %v = task.avgpool 120 %v_in window [2, 2] pad [0, 0, 0, 1] shift 2 : tensor<1x1x3x16xi8>
// CHECK:      %v_in_1 = task.buffer 121 si %m[0:1, 1:3, 0:2, 0:16], %m_1[0:1, 1:3, 0:1, 0:16] at [0, 0, 2, 0] : tensor<1x2x3x16xi8>
// CHECK:      %v_2 = task.avgpool 124 %v_in_2 window [2, 2] pad [0, 1, 0, 1] shift 2 : tensor<1x1x3x16xi8>

// The fc's r-slices (6, 5, 5 channels) cut across the lut's f pieces (4 each).
// CHECK:      %f_in_1 = task.buffer 140 sifc %l_1[0:1, 0:3, 0:3, 2:4], %l_2[0:1, 0:3, 0:3, 0:3] at [0, 0, 0, 2] : tensor<1x3x3x5xi8>
// CHECK-NEXT: %fw_1 = task.weight 141 #task.random<7> : tensor<10x3x3x16xi8>[0:4, 0:3, 0:3, 6:11]
// CHECK-NEXT: %f_1 = task.fc 142 %f_in_1, %fw_1 : tensor<1x1x1x4xi32>
// CHECK:      %f_9 = task.add 167 %f_partial, %f_partial_1, %f_partial_2 bias %fb shift 10 : tensor<1x1x1x10xi8>
// CHECK-NEXT: %out = task.buffer 29 so %f_9 : tensor<1x1x1x10xi8>
// CHECK-NOT:  split =
