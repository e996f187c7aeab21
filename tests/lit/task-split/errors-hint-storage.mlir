// A split hint on a storage block is refused like a split of it by id.

// RUN: not stc-opt %s -p task-split 2>&1 | filecheck %s
// CHECK: stc-opt: error: task.buffer 1: only compute blocks are split, this is a storage block

task.graph @hint {
  %x = task.input 0 "x" : tensor<1x8x8x32xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x32xi8> {split = array<i64: 2, 1, 1, 1>}
  %r = task.relu 2 %in : tensor<1x8x8x32xi8>
  %out = task.buffer 3 so %r : tensor<1x8x8x32xi8>
  task.output 4 "y" %out
}
