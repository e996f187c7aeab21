// st-search on a graph one of whose layers fits no core even one image at a time: one
// message naming the layer, the target and the bytes, exit code 1.
// RUN: not stc-opt %s -p 'st-search{target=set-8x8 rounds=5 chains=1}' 2>&1 | filecheck %s

// An fc whose weights (102,760,448 B) do not fit the 64 cores' 1 MB each, however they split.
task.graph @big {
  %x = task.input 0 "x" : tensor<1x7x7x512xi8>
  %in = task.buffer 1 sifc %x : tensor<1x7x7x512xi8>
  %w = task.weight 2 #task.random<1> : tensor<4096x7x7x512xi8>
  %f = task.fc 3 %in, %w shift 13 : tensor<1x1x1x4096xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x4096xi8>
  task.output 5 "y" %out
}
// CHECK: stc-opt: error: layer fc3 does not fit set-8x8 even one image at a time: segment 0 needs more than the 1048576 B of a core (a part of it alone overflows one)
