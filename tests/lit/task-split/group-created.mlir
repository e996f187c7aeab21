// `tasks` may name a block that an earlier split of the same run created, as split_group
// does: splitting conv 3 by rows creates ids 7-14, conv 14 being the lower half, which is
// then split by rows again. Each run adds its created ids to `split_created`, after the
// ids earlier runs recorded that are still in the graph (here 14 is gone).

// RUN: stc-opt %s -p 'task-split{tasks=3,14 vector=2,1,1,1}' | filecheck %s
// RUN: stc-opt %s -p 'task-split{tasks=3,14 vector=2,1,1,1}' -o %t && stc-run %s --compare %t
// RUN: stc-opt %s -p 'task-split{task=3 vector=2,1,1,1},task-split{task=14 vector=2,1,1,1}' | filecheck %s
// RUN: stc-opt %s -p 'task-split{task=3 vector=2,1,1,1}' | filecheck %s --check-prefix=FIRST

task.graph @conv {
  %x = task.input 5 "x" : tensor<1x8x8x32xi8>
  %in = task.buffer 0 sic %x : tensor<1x8x8x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x3x3x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %c = task.conv 3 %in, %w bias %b pad [1, 1, 1, 1] shift 12 : tensor<1x8x8x32xi8>
  %out = task.buffer 4 so %c : tensor<1x8x8x32xi8>
  task.output 6 "y" %out
}

// FIRST: task.graph @conv attributes {split_created = array<i64: 7, 8, 9, 10, 11, 12, 13, 14>} {
// FIRST: %c_1 = task.conv 14 %in_1, %w_1 bias %b_1 pad [0, 1, 1, 1] shift 12 : tensor<1x4x8x32xi8>

// CHECK:      task.graph @conv attributes {split_created = array<i64: 7, 8, 9, 10, 15, 16, 17, 18, 19, 20, 21, 22>} {
// CHECK:      %c = task.conv 10 %in, %w bias %b pad [1, 0, 1, 1] shift 12 : tensor<1x4x8x32xi8>
// CHECK:      %in_1 = task.buffer 15 sic %x[0:1, 3:7, 0:8, 0:32] : tensor<1x4x8x32xi8>
// CHECK:      %c_1 = task.conv 18 %in_1, %w_1 bias %b_1 pad [0, 0, 1, 1] shift 12 : tensor<1x2x8x32xi8>
// CHECK:      %in_2 = task.buffer 19 sic %x[0:1, 5:8, 0:8, 0:32] : tensor<1x3x8x32xi8>
// CHECK:      %c_2 = task.conv 22 %in_2, %w_2 bias %b_2 pad [0, 1, 1, 1] shift 12 : tensor<1x2x8x32xi8>
// CHECK:      %out = task.buffer 4 so %c, %c_1[0:1, 0:2, 0:8, 0:32] at [0, 4, 0, 0], %c_2[0:1, 0:2, 0:8, 0:32] at [0, 6, 0, 0] : tensor<1x8x8x32xi8>
