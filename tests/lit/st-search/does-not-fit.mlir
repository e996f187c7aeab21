// st-search on a graph one of whose layers fits no core even one image at a time: one
// message naming the layer, the target and the bytes, exit code 1.
// RUN: not stc-opt %s -p 'st-search{target=set-8x8 rounds=5 chains=1}' 2>&1 | filecheck %s

// A global pool of a 512x512x256 image: split by channels over 64 cores each core still
// takes 1 MB of input, and a window of all rows and columns cannot be split further.
task.graph @big {
  %x = task.input 0 "x" : tensor<1x512x512x256xi8>
  %in = task.buffer 1 si %x : tensor<1x512x512x256xi8>
  %p = task.avgpool 2 %in window [512, 512] shift 18 : tensor<1x1x1x256xi8>
  %out = task.buffer 3 so %p : tensor<1x1x1x256xi8>
  task.output 4 "y" %out
}
// CHECK: stc-opt: error: layer avgpool2 does not fit set-8x8 even one image at a time: segment 0 needs more than the 1048576 B of a core (a part of it alone overflows one)
