// Spilled results in frames (`spill_frames`): st-place without annealing puts one block per
// phase on tianjicx, so every result waits in global memory for the buffer of a later phase.
// - relu 2 and relu 4 (rows 0-3 and 4-7 of one tensor) are loaded together by buffer 6: they
//   wait in one region laid out as the 1x8x4x16 tensor (at 1536), each stored strided at its
//   rows, and buffer 6 loads the whole of it with one DMA (before, one DMA per piece, each
//   rounded to whole cycles); buffer 8 takes rows 2-5, one box across both pieces: one DMA.
// - buffer 10 takes relu 9's result twice (at channels 0 and 16): no one place fits both,
//   so relu 9 keeps a region of its own, stored as before, and buffer 10 loads it twice.
// RUN: stc-opt %s -p 'st-place{target=tianjicx iterations=0},st-route,st-lmem-alloc,isa-lower' -o %t
// RUN: filecheck %s < %t
// RUN: stc-run %s --compare %t | filecheck %s --check-prefix=SAME

task.graph @frames {
  %x = task.input 0 "x" : tensor<1x8x4x16xi8>
  %top_in = task.buffer 1 si %x[0:1, 0:4, 0:4, 0:16] : tensor<1x4x4x16xi8>
  %top = task.relu 2 %top_in : tensor<1x4x4x16xi8>
  %bottom_in = task.buffer 3 si %x[0:1, 4:8, 0:4, 0:16] : tensor<1x4x4x16xi8>
  %bottom = task.relu 4 %bottom_in : tensor<1x4x4x16xi8>
  %whole_in = task.buffer 6 si %top, %bottom at [0, 4, 0, 0] : tensor<1x8x4x16xi8>
  %whole = task.relu 7 %whole_in : tensor<1x8x4x16xi8>
  %middle_in = task.buffer 8 si %top[0:1, 2:4, 0:4, 0:16], %bottom[0:1, 0:2, 0:4, 0:16] at [0, 2, 0, 0] : tensor<1x4x4x16xi8>
  %middle = task.relu 9 %middle_in : tensor<1x4x4x16xi8>
  %twice_in = task.buffer 10 si %middle, %middle at [0, 0, 0, 16] : tensor<1x4x4x32xi8>
  %twice = task.relu 11 %twice_in : tensor<1x4x4x32xi8>
  %y = task.buffer 13 so %whole : tensor<1x8x4x16xi8>
  task.output 14 "y" %y
  %z = task.buffer 15 so %twice : tensor<1x4x4x32xi8>
  task.output 16 "z" %z
}

// CHECK:      isa.relu {{.*}} -> [[TOP:[0-9]+]] : tensor<1x4x4x16xi8>
// CHECK-NEXT: isa.dma_store sizes [1, 4, 4, 16] from local [[TOP]] to global 1536 strides [512, 64, 16, 1]
// CHECK:      isa.relu {{.*}} -> [[BOTTOM:[0-9]+]] : tensor<1x4x4x16xi8>
// CHECK-NEXT: isa.dma_store sizes [1, 4, 4, 16] from local [[BOTTOM]] to global 1792 strides [512, 64, 16, 1]
// CHECK:      isa.dma_load sizes [1, 8, 4, 16] from global 1536 to local
// CHECK-NEXT: isa.dma_load sizes [1, 4, 4, 16] from global 1664 strides [512, 64, 16, 1] to local
// CHECK:      isa.dma_store sizes [256] from local {{[0-9]+}} to global [[OWN:[0-9]+]]
// CHECK:      isa.dma_load sizes [1, 4, 4, 16] from global [[OWN]] to local {{[0-9]+}} strides [512, 128, 32, 1]
// CHECK-NEXT: isa.dma_load sizes [1, 4, 4, 16] from global [[OWN]] to local {{[0-9]+}} strides [512, 128, 32, 1]

// SAME: 2 outputs bit-identical
