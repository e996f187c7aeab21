// Software pipelining of slices: on a target whose DMA overlaps compute
// (Inputs/tpu-gdma.toml), a group input tile that only layers outside the group write is
// loaded one timestep before its reader when that is cheaper and memory allows. Here
// slice 1's conv input (buffer 11, rows 3..8 of the image) is held from step 1 and loaded
// there, after relu 15 of slice 0 in that phase's program, so the load runs beside the
// relu instead of before conv 13: 129 machine cycles instead of 131 with `pipeline=false`
// (which loads it in step 2, its reader's), bit-identical. On tpu-like (serial DMA) nothing
// is loaded early.

// RUN: stc-opt %s -p 'task-layer-group{target="%S/Inputs/tpu-gdma.toml" group=3,5 slices=1,2}' | filecheck %s
// RUN: stc-opt %s -p 'task-layer-group{target="%S/Inputs/tpu-gdma.toml" group=3,5 slices=1,2},st-place,st-route,st-lmem-alloc,isa-lower' -o %t.isa.mlir
// RUN: filecheck %s --check-prefix=ISA < %t.isa.mlir
// RUN: stc-run %s --compare %t.isa.mlir --data-dir %S/Inputs
// RUN: stc-run %t.isa.mlir --stats --data-dir %S/Inputs | filecheck %s --check-prefix=CYCLES
// RUN: stc-opt %s -p 'task-layer-group{target="%S/Inputs/tpu-gdma.toml" group=3,5 slices=1,2 pipeline=false},st-place,st-route,st-lmem-alloc,isa-lower' -o %t.serial.isa.mlir
// RUN: stc-run %t.serial.isa.mlir --stats --data-dir %S/Inputs | filecheck %s --check-prefix=UNPIPELINED
// RUN: stc-opt %s -p 'task-layer-group{group=3,5 slices=1,2}' | filecheck %s --check-prefix=SERIAL
// RUN: stc-opt %s -p 'task-layer-group{target="%S/Inputs/tpu-gdma.toml" group=3,5 slices=1,2 pipeline=false}' | filecheck %s --check-prefix=UNPIPELINED-PLAN

// The timestep table: slice s of the two layers runs in steps 2s and 2s + 1.
// CHECK:      %[[IN0:.*]] = task.buffer 8 sic %0[0:1, 0:5, 0:8, 0:16]
// CHECK:      task.conv 10 %[[IN0]], {{.*}} {lg.group = 0 : i64, lg.slice = 0 : i64, lg.step = 0 : i64}
// CHECK:      %[[IN1:.*]] = task.buffer 11 sic %0[0:1, 3:8, 0:8, 0:16]
// CHECK:      task.conv 13 %[[IN1]], {{.*}} {lg.group = 0 : i64, lg.slice = 1 : i64, lg.step = 2 : i64}
// CHECK:      task.relu 15 {{.*}} {lg.group = 0 : i64, lg.slice = 0 : i64, lg.step = 1 : i64}
// CHECK:      task.relu 17 {{.*}} {lg.group = 0 : i64, lg.slice = 1 : i64, lg.step = 3 : i64}
// The groups' price (`lg.plan`), timestep by timestep, is the machine's (CYCLES and
// UNPIPELINED below).
// CHECK:      lg.plan = {cycles = 129 : i64, step_cycles = array<i64: 64, 21, 18, 26>, dram_bytes = 4608 : i64}
// UNPIPELINED-PLAN: lg.plan = {cycles = 131 : i64, step_cycles = array<i64: 64, 2, 39, 26>, dram_bytes = 4608 : i64}
// CHECK:      st.put_in 8 at (0, 0, 0, 0), (0, 0, memory)
// CHECK-NEXT: st.put_in 9 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 2, memory)
// CHECK-NEXT: st.put_in 10 at (0, 0, 0, 0), (0, 0, axon)
// CHECK-NEXT: st.put_in 11 at (0, 0, 0, 0), (0, 1, memory) to (0, 0, 0, 0), (0, 2, memory)
// CHECK-NEXT: st.put_in 13 at (0, 0, 0, 0), (0, 2, axon)

// ISA:      isa.sync 0
// ISA-NEXT: isa.relu
// ISA-NEXT: isa.dma_load sizes [1, 5, 8, 16] from global 24
// ISA:      isa.sync 1
// ISA-NEXT: isa.conv

// CYCLES:      "cycles": 129, "phase_cycles": [64, 21, 18, 26]
// CYCLES:      "dram_bytes": 4608
// UNPIPELINED: "cycles": 131, "phase_cycles": [64, 2, 39, 26]
// UNPIPELINED: "dram_bytes": 4608

// SERIAL: st.put_in 11 at (0, 0, 0, 0), (0, 2, memory)

task.graph @chain {
  %0 = task.input 0 "x" : tensor<1x8x8x16xi8>
  %1 = task.buffer 1 sic %0 : tensor<1x8x8x16xi8>
  %2 = task.weight 2 #task.random<1> : tensor<16x3x3x16xi8>
  %3 = task.conv 3 %1, %2 pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x16xi8>
  %4 = task.buffer 4 si %3 : tensor<1x8x8x16xi8>
  %5 = task.relu 5 %4 : tensor<1x8x8x16xi8>
  %6 = task.buffer 6 so %5 : tensor<1x8x8x16xi8>
  task.output 7 "y" %6
}
