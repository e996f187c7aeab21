// `fit` records no ids of its own in `split_created` (a fitted ResNet-50 would carry
// thousands nobody reads), but it keeps an earlier run's list true: the pieces of relu 4
// (ids 11 to 14) do not fit tianjicx and are split again, so their ids leave the list;
// the pieces of relu 2 (ids 7 to 10) fit and stay.

// RUN: stc-opt %s -p 'task-split{tasks=2,4 vector=1,1,2,1}' | filecheck %s --check-prefix=FIRST
// RUN: stc-opt %s -p 'task-split{tasks=2,4 vector=1,1,2,1},task-split{fit=tianjicx}' | filecheck %s
// RUN: stc-opt %s -p 'task-split{tasks=2,4 vector=1,1,2,1},task-split{fit=tianjicx}' -o %t && stc-run %s --compare %t
// RUN: stc-opt %s -p 'task-split{fit=tianjicx}' | filecheck %s --check-prefix=ONLY-FIT

task.graph @relus {
  %x = task.input 0 "x" : tensor<1x16x16x64xi8>
  %in = task.buffer 1 si %x : tensor<1x16x16x64xi8>
  %r = task.relu 2 %in : tensor<1x16x16x64xi8>
  %mid = task.buffer 3 si %r[0:1, 0:16, 0:16, 0:64], %r at [0, 16, 0, 0], %r at [0, 32, 0, 0], %r at [0, 0, 16, 0], %r at [0, 16, 16, 0], %r at [0, 32, 16, 0], %r at [0, 0, 32, 0], %r at [0, 16, 32, 0], %r at [0, 32, 32, 0] : tensor<1x48x48x64xi8>
  %s = task.relu 4 %mid : tensor<1x48x48x64xi8>
  %out = task.buffer 5 so %s : tensor<1x48x48x64xi8>
  task.output 6 "y" %out
}

// FIRST:  task.graph @relus attributes {split_created = array<i64: 7, 8, 9, 10, 11, 12, 13, 14>} {

// CHECK:      task.graph @relus attributes {split_created = array<i64: 7, 8, 9, 10>} {
// CHECK:        %r = task.relu 8 %in : tensor<1x16x16x32xi8>
// CHECK:        %r_1 = task.relu 10 %in_1 : tensor<1x16x16x32xi8>
// CHECK:        %s = task.relu 16 %mid : tensor<1x48x48x16xi8>
// CHECK:        %s_3 = task.relu 22 %mid_3 : tensor<1x48x48x16xi8>

// ONLY-FIT:     task.graph @relus {
// ONLY-FIT-NOT: split_created
