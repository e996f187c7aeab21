// The task graph layout-round-trip.mlir must agree with.
// RUN: stc-run %s --seed 3 --compare %S/layout-round-trip.mlir

task.graph @layout_round_trip {
  %x = task.input 0 "x" : tensor<1x5x7x40xi8>
  %in = task.buffer 1 si %x : tensor<1x5x7x40xi8>
  %same = task.relu 2 %in cmp -128 : tensor<1x5x7x40xi8>
  %out = task.buffer 3 so %same : tensor<1x5x7x40xi8>
  task.output 4 "y" %out
}
