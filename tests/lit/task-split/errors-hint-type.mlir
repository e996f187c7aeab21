// A split hint must be an i64 array.

// RUN: not stc-opt %s -p task-split 2>&1 | filecheck %s
// CHECK: stc-opt: error: task.relu 2: a split hint is array<i64: ny, nx, nf, nr>, got array<i32: 2, 1, 1, 1>

task.graph @hint {
  %x = task.input 0 "x" : tensor<1x8x8x32xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x32xi8>
  %r = task.relu 2 %in : tensor<1x8x8x32xi8> {split = array<i32: 2, 1, 1, 1>}
  %out = task.buffer 3 so %r : tensor<1x8x8x32xi8>
  task.output 4 "y" %out
}
