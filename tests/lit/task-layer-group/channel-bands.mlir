// A result made in place as a channel band of a buffer: task-split cuts fc 4 along its
// filters into fc 12 and fc 16, which write channels [0, 64) and [64, 128) of relu 6's
// input buffer 5. Each band is one contiguous run at an aligned address, so the memory plan
// lands it in place (no copy) and the group's price counts no copy either: 273, 273 and 20
// cycles, equal to the machine's phases (the price counted a 64 B copy per band, 274 and
// 274, until it asked what the memory plan asks; VGG-19's fc pieces were 19 cycles high so).

// RUN: stc-opt %s -p 'task-split{task=4 vector=1,1,2,1},task-layer-group' | filecheck %s
// RUN: stc-opt %s -p 'task-split{task=4 vector=1,1,2,1},task-layer-group,st-place,st-route,st-lmem-alloc,isa-lower' -o %t.isa.mlir
// RUN: stc-run %s --compare %t.isa.mlir
// RUN: stc-run %t.isa.mlir --stats | filecheck %s --check-prefix=MACHINE

// CHECK: task.buffer 5 si %{{.*}}, %{{.*}}[0:1, 0:1, 0:1, 0:64] at [0, 0, 0, 64] : tensor<1x1x1x128xi8>
// CHECK: lg.plan = {cycles = 566 : i64, step_cycles = array<i64: 273, 273, 20>, dram_bytes = 33920 : i64}
// MACHINE: "cycles": 566, "phase_cycles": [273, 273, 20]
// MACHINE: "dram_bytes": 33920

task.graph @bands {
  %x = task.input 0 "x" : tensor<1x4x4x16xi8>
  %in = task.buffer 1 sifc %x : tensor<1x4x4x16xi8>
  %w = task.weight 2 #task.random<1> : tensor<128x4x4x16xi8>
  %b = task.bias 3 #task.random<2> : tensor<128xi32>
  %f = task.fc 4 %in, %w bias %b shift 9 : tensor<1x1x1x128xi8>
  %r_in = task.buffer 5 si %f : tensor<1x1x1x128xi8>
  %r = task.relu 6 %r_in : tensor<1x1x1x128xi8>
  %out = task.buffer 7 so %r : tensor<1x1x1x128xi8>
  task.output 8 "y" %out
}
