// A group that does not fit local memory even at its finest slicing is refused, naming the
// group, the slicing and the bytes: conv 3's weight alone is 4096x3x3x512 = 18874368 B,
// more than tpu-like's 16 MB whatever the slicing. Each bad request ends with one line
// and exit code 1.

// RUN: not stc-opt %s -p 'task-layer-group{group=3}' 2>&1 | filecheck %s --check-prefix=FINEST
// FINEST: stc-opt: error: task-layer-group: group [3] does not fit tpu-like's local memory even at its finest slicing n=1 h=2: {{[0-9]+}} B live at the peak, 16777216 B usable

// RUN: not stc-opt %s -p 'task-layer-group{group=3 slices=1,2}' 2>&1 | filecheck %s --check-prefix=GIVEN
// GIVEN: stc-opt: error: task-layer-group: group [3] sliced n=1 h=2 does not fit tpu-like's local memory: {{[0-9]+}} B live at the peak, 16777216 B usable

// Searching, a layer that fits at no slicing runs alone and unsliced: st-lmem-alloc, as
// without grouping, has the last word.
// RUN: stc-opt %s -p 'task-layer-group' | filecheck %s --check-prefix=ALONE
// ALONE: task.conv 3 %{{.*}} {lg.group = 0 : i64, lg.slice = 0 : i64, lg.step = 0 : i64}

// RUN: not stc-opt %s -p 'task-layer-group{target=tianjicx group=3 slices=1,2}' 2>&1 | filecheck %s --check-prefix=MANY
// MANY: stc-opt: error: task-layer-group: tianjicx has 160 cores: a group's slices are task-split's pieces there, which st-place spreads over the cores; `slices` is for one-core targets

// timesteps.mlir has the error for a graph that is already mapped.
task.graph @big {
  %0 = task.input 0 "x" : tensor<1x4x4x512xi8>
  %1 = task.buffer 1 sic %0 : tensor<1x4x4x512xi8>
  %2 = task.weight 2 #task.random<1> : tensor<4096x3x3x512xi8>
  %3 = task.conv 3 %1, %2 pad [1, 1, 1, 1] shift 12 : tensor<1x4x4x4096xi8>
  %4 = task.buffer 4 so %3 : tensor<1x4x4x4096xi8>
  task.output 5 "y" %4
}
