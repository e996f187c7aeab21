// r pieces write int32 partial sums, which saturate, while the unsplit block accumulates
// in int64. An int8 x int8 product is at most 2^14 in size, so a piece is exact only up
// to (2^31 - 1) / 2^14 = 131071 products; a split whose largest r piece could sum more is
// refused. Here each of two pieces sums 140000 products: with inputs 127 and weights 127
// then -128, the halves saturate to 2^31 - 1 and -2^31, so the split gave -1 where the
// fc computes -127*140000 = -17780000.

// RUN: not stc-opt %s -p 'task-split{task=3 vector=1,1,1,2}' 2>&1 | filecheck %s --check-prefix=TWO
// TWO: stc-opt: error: task.fc 3: r pieces of 140000 terms could overflow their int32 partial sums (|sum| <= terms * 2^14 stays within 2^31 - 1 only up to 131071 terms); split r into at least 3 pieces

// RUN: stc-opt %s -p 'task-split{task=3 vector=1,1,1,3}' | filecheck %s --check-prefix=THREE
// THREE: task.fc {{[0-9]+}} %in, %w : tensor<1x1x1x1xi32>
// THREE: task.add

task.graph @wide {
  %x = task.input 0 "x" : tensor<1x1x1x280000xi8>
  %in = task.buffer 1 sifc %x : tensor<1x1x1x280000xi8>
  %w = task.weight 2 #task.random<1> : tensor<1x1x1x280000xi8>
  %f = task.fc 3 %in, %w : tensor<1x1x1x1xi32>
  %out = task.buffer 4 so %f : tensor<1x1x1x1xi32>
  task.output 5 "y" %out
}
