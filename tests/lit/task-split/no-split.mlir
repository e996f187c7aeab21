// An all-ones vector changes nothing, and an all-ones hint is only removed. With explicit
// options the hints are left alone.

// RUN: stc-opt %s -p 'task-split{task=2 vector=1,1,1,1}' | filecheck %s --check-prefix=ONES
// RUN: stc-opt %s -p task-split | filecheck %s --check-prefix=HINT

task.graph @ones {
  %x = task.input 0 "x" : tensor<1x8x8x32xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x32xi8>
  %r = task.relu 2 %in : tensor<1x8x8x32xi8> {split = array<i64: 1, 1, 1, 1>}
  %out = task.buffer 3 so %r : tensor<1x8x8x32xi8>
  task.output 4 "y" %out
}

// ONES:      task.graph @ones attributes {split_created = array<i64>} {
// ONES-NEXT:   %x = task.input 0 "x" : tensor<1x8x8x32xi8>
// ONES-NEXT:   %in = task.buffer 1 si %x : tensor<1x8x8x32xi8>
// ONES-NEXT:   %r = task.relu 2 %in : tensor<1x8x8x32xi8> {split = array<i64: 1, 1, 1, 1>}

// HINT:      task.graph @ones attributes {split_created = array<i64>} {
// HINT:        %r = task.relu 2 %in : tensor<1x8x8x32xi8>{{$}}
