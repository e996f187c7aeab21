// A block that no split makes fit is an error naming it, the capacity and what its finest
// pieces (one output pixel and channel, one input channel each) still read: here one 67x67
// filter, each tap padded to the 32 B weight alignment (143,648 B), plus the 64x64 input
// window of one channel padded to 16 B per pixel (65,536 B).

// RUN: not stc-opt %s -p 'task-split{fit=tianjicx}' 2>&1 | filecheck %s

task.graph @huge_kernel {
  %x = task.input 0 "x" : tensor<1x64x64x2xi8>
  %in = task.buffer 1 sic %x : tensor<1x64x64x2xi8>
  %w = task.weight 2 #task.random<7> : tensor<64x67x67x2xi8>
  %c = task.conv 4 %in, %w pad [33, 33, 33, 33] shift 9 : tensor<1x64x64x64xi8>
  %out = task.buffer 5 so %c : tensor<1x64x64x64xi8>
  task.output 6 "y" %out
}

// CHECK: stc-opt: error: task.conv 4: no split makes its pieces fit 143360 B: even its finest pieces (vector=64,64,64,2) read 209312 B
