// isa-lower writes each conv's cheapest dataflow through set-8x8's core buffers
// (`core_dataflow.chosen`, docs/cost-model.md, "Inside a core") where it is not SET's:
// the first conv's 3 channels packed with the 3x3 taps (27 elements in 4 vectors of 8, not 9;
// 32 lane groups fit), the second's 256 channels split over 4 PEs (72 vectors per lane: all 4
// lane groups stay in the weight buffer, so the input is written once, not 4 times).
// RUN: stc-opt %s -p 'st-place{target=set-8x8 iterations=0},st-route,st-lmem-alloc,isa-lower' | filecheck %s
// RUN: stc-opt %s -p 'st-place{target=set-8x8 iterations=0},st-route,st-lmem-alloc,isa-lower' -o %t && stc-run %s --compare %t

task.graph @dataflow {
  %x = task.input 0 "x" : tensor<1x6x6x3xi8>
  %in = task.buffer 1 sic %x : tensor<1x6x6x3xi8>
  %w = task.weight 2 #task.random<1> : tensor<256x3x3x3xi8>
  %b = task.bias 3 #task.random<2> : tensor<256xi32>
  %c = task.conv 4 %in, %w bias %b pad [1, 1, 1, 1] shift 8 : tensor<1x6x6x256xi8>
  %c_in = task.buffer 5 sic %c : tensor<1x6x6x256xi8>
  %w2 = task.weight 6 #task.random<3> : tensor<32x3x3x256xi8>
  %b2 = task.bias 7 #task.random<4> : tensor<32xi32>
  %d = task.conv 8 %c_in, %w2 bias %b2 shift 10 : tensor<1x4x4x32xi8>
  %out = task.buffer 9 so %d : tensor<1x4x4x32xi8>
  task.output 10 "y" %out
}

// CHECK:      isa.conv 73472 : tensor<1x6x6x3xi8>, 65536 : tensor<256x3x3x3xi8> bias 72448 : tensor<256xi32> -> 0 : tensor<1x6x6x256xi8> pad [1, 1, 1, 1] shift 8 dataflow [1, 1, 32, 256]
// CHECK:      isa.conv 73728 : tensor<1x6x6x256xi8>, 0 : tensor<32x3x3x256xi8> bias 82944 : tensor<32xi32> -> 131072 : tensor<1x4x4x32xi8> shift 10 dataflow [0, 4, 4, 256]
