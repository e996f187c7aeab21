// Inner pieces keep the pad their windows still reach. A 3x3 conv with pad 2 over a 7x7
// input has 9 output rows; split y into 9, output row a reads input rows [a-2, a+1)
// clipped to [0, 7). Row 1 still reaches one padded row above the input (pad [1, 0]) and
// row 7 one below it (pad [0, 1]), though neither is the first or last piece; setting
// an inner pad to 0 would shift their windows. Splitting x too gives the same pads along x.

// RUN: stc-opt %s -p 'task-split{task=3 vector=9,1,1,1}' | filecheck %s
// RUN: stc-opt %s -p 'task-split{task=3 vector=9,1,1,1}' -o %t && stc-run %s --compare %t
// RUN: stc-opt %s -p 'task-split{task=3 vector=1,9,1,1}' -o %t && stc-run %s --compare %t
// RUN: stc-opt %s -p 'task-split{task=3 vector=9,9,1,1}' -o %t && stc-run %s --compare %t
// RUN: stc-opt %s -p 'task-split{task=3 vector=9,9,1,1}' | filecheck %s --check-prefix=YX

task.graph @pad {
  %x = task.input 5 "x" : tensor<1x7x7x2xi8>
  %in = task.buffer 0 sic %x : tensor<1x7x7x2xi8>
  %w = task.weight 1 #task.random<1> : tensor<2x3x3x2xi8>
  %b = task.bias 2 #task.random<2> : tensor<2xi32>
  %c = task.conv 3 %in, %w bias %b pad [2, 2, 2, 2] shift 6 : tensor<1x9x9x2xi8>
  %out = task.buffer 4 so %c : tensor<1x9x9x2xi8>
  task.output 6 "y" %out
}

// CHECK:      task.graph @pad attributes {split_created = array<i64: {{.*}}>} {
// CHECK:      %in = task.buffer 7 sic %x[0:1, 0:1, 0:7, 0:2] : tensor<1x1x7x2xi8>
// CHECK:      %c = task.conv 10 %in, %w bias %b pad [2, 0, 2, 2] shift 6 : tensor<1x1x9x2xi8>
// CHECK:      %in_1 = task.buffer 11 sic %x[0:1, 0:2, 0:7, 0:2] : tensor<1x2x7x2xi8>
// CHECK:      %c_1 = task.conv 14 %in_1, %w_1 bias %b_1 pad [1, 0, 2, 2] shift 6 : tensor<1x1x9x2xi8>
// CHECK:      %in_2 = task.buffer 15 sic %x[0:1, 0:3, 0:7, 0:2] : tensor<1x3x7x2xi8>
// CHECK:      %c_2 = task.conv 18 %in_2, %w_2 bias %b_2 pad [0, 0, 2, 2] shift 6 : tensor<1x1x9x2xi8>
// CHECK:      %in_3 = task.buffer 19 sic %x[0:1, 1:4, 0:7, 0:2] : tensor<1x3x7x2xi8>
// CHECK:      %c_3 = task.conv 22 %in_3, %w_3 bias %b_3 pad [0, 0, 2, 2] shift 6 : tensor<1x1x9x2xi8>
// CHECK:      %in_4 = task.buffer 23 sic %x[0:1, 2:5, 0:7, 0:2] : tensor<1x3x7x2xi8>
// CHECK:      %c_4 = task.conv 26 %in_4, %w_4 bias %b_4 pad [0, 0, 2, 2] shift 6 : tensor<1x1x9x2xi8>
// CHECK:      %in_5 = task.buffer 27 sic %x[0:1, 3:6, 0:7, 0:2] : tensor<1x3x7x2xi8>
// CHECK:      %c_5 = task.conv 30 %in_5, %w_5 bias %b_5 pad [0, 0, 2, 2] shift 6 : tensor<1x1x9x2xi8>
// CHECK:      %in_6 = task.buffer 31 sic %x[0:1, 4:7, 0:7, 0:2] : tensor<1x3x7x2xi8>
// CHECK:      %c_6 = task.conv 34 %in_6, %w_6 bias %b_6 pad [0, 0, 2, 2] shift 6 : tensor<1x1x9x2xi8>
// CHECK:      %in_7 = task.buffer 35 sic %x[0:1, 5:7, 0:7, 0:2] : tensor<1x2x7x2xi8>
// CHECK:      %c_7 = task.conv 38 %in_7, %w_7 bias %b_7 pad [0, 1, 2, 2] shift 6 : tensor<1x1x9x2xi8>
// CHECK:      %in_8 = task.buffer 39 sic %x[0:1, 6:7, 0:7, 0:2] : tensor<1x1x7x2xi8>
// CHECK:      %c_8 = task.conv 42 %in_8, %w_8 bias %b_8 pad [0, 2, 2, 2] shift 6 : tensor<1x1x9x2xi8>

// Output row 1 of the 9x9 grid: the pads [top, bottom, left, right] of its nine pieces.
// YX:         %c_9 = task.conv {{.*}} pad [1, 0, 2, 0]
// YX:         %c_10 = task.conv {{.*}} pad [1, 0, 1, 0]
// YX:         %c_11 = task.conv {{.*}} pad [1, 0, 0, 0]
// YX:         %c_12 = task.conv {{.*}} pad [1, 0, 0, 0]
// YX:         %c_13 = task.conv {{.*}} pad [1, 0, 0, 0]
// YX:         %c_14 = task.conv {{.*}} pad [1, 0, 0, 0]
// YX:         %c_15 = task.conv {{.*}} pad [1, 0, 0, 0]
// YX:         %c_16 = task.conv {{.*}} pad [1, 0, 0, 1]
// YX:         %c_17 = task.conv {{.*}} pad [1, 0, 0, 2]
