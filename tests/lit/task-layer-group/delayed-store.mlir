// Delayed stores: on a target whose DMA overlaps compute (Inputs/tpu-gdma.toml), a group
// output that a later group reads is stored in the timestep after the one that computes
// it (seed 004's "op i−1's group outputs stored"), beside that timestep's compute, when
// that is cheaper and its tile still fits local memory one timestep longer. Group [6, 8]
// is sliced in two: relu 21 (slice 0, step 2) is marked `st.store_late`, so its result
// lives through step 3 and is stored there, after conv 19 (slice 1) in that phase's
// program, so the store runs beside the conv; relu 23, in the group's last timestep,
// stores in its own. The stores leave step 2 to the relu and the prefetch of slice 1's
// input: 318 machine cycles instead of 326 with `delay=false`, bit-identical. On tpu-like
// (serial DMA) nothing is stored late. The two slices' results wait in one region laid out
// as the whole tensor (`spill_frames`), each stored at its rows, and conv 11 loads its input
// from there with one DMA.

// RUN: stc-opt %s -p 'task-layer-group{target="%S/Inputs/tpu-gdma.toml" group=6,8 slices=1,2}' | filecheck %s
// RUN: stc-opt %s -p 'task-layer-group{target="%S/Inputs/tpu-gdma.toml" group=6,8 slices=1,2},st-place,st-route,st-lmem-alloc' | filecheck %s --check-prefix=ALLOC
// RUN: stc-opt %s -p 'task-layer-group{target="%S/Inputs/tpu-gdma.toml" group=6,8 slices=1,2},st-place,st-route,st-lmem-alloc,isa-lower' -o %t.isa.mlir
// RUN: filecheck %s --check-prefix=ISA < %t.isa.mlir
// RUN: stc-run %s --compare %t.isa.mlir --data-dir %S/Inputs
// RUN: stc-run %t.isa.mlir --stats --data-dir %S/Inputs | filecheck %s --check-prefix=CYCLES
// RUN: stc-opt %s -p 'task-layer-group{target="%S/Inputs/tpu-gdma.toml" group=6,8 slices=1,2 delay=false},st-place,st-route,st-lmem-alloc,isa-lower' -o %t.now.isa.mlir
// RUN: stc-run %s --compare %t.now.isa.mlir --data-dir %S/Inputs
// RUN: stc-run %t.now.isa.mlir --stats --data-dir %S/Inputs | filecheck %s --check-prefix=NOW
// RUN: stc-opt %s -p 'task-layer-group{group=6,8 slices=1,2}' | filecheck %s --check-prefix=SERIAL
// RUN: stc-opt %s -p 'task-layer-group{target="%S/Inputs/tpu-gdma.toml" group=6,8 slices=1,2 delay=false}' | filecheck %s --check-prefix=NOW-PLAN

// The timestep table: conv 3 alone in step 0, slice s of the group in steps 1 + 2s and
// 2 + 2s, conv 11 alone in step 5; only relu 21 stores late.
// CHECK:      task.conv 3 {{.*}} {lg.group = 0 : i64, lg.slice = 0 : i64, lg.step = 0 : i64}
// CHECK:      task.conv 16 {{.*}} {lg.group = 1 : i64, lg.slice = 0 : i64, lg.step = 1 : i64}
// CHECK:      task.conv 19 {{.*}} {lg.group = 1 : i64, lg.slice = 1 : i64, lg.step = 3 : i64}
// CHECK:      task.relu 21 {{.*}} {lg.group = 1 : i64, lg.slice = 0 : i64, lg.step = 2 : i64, st.store_late}
// CHECK:      task.relu 23 {{.*}} {lg.group = 1 : i64, lg.slice = 1 : i64, lg.step = 4 : i64}
// CHECK:      task.conv 11 {{.*}} {lg.group = 2 : i64, lg.slice = 0 : i64, lg.step = 5 : i64}
// The groups' price (`lg.plan`), timestep by timestep, is the machine's (CYCLES, NOW
// below): the last timestep's output store starts once the 16 real channels are staged,
// beside the two calls that write only padding channels (112, not 116).
// CHECK:      lg.plan = {cycles = 318 : i64, step_cycles = array<i64: 104, 64, 10, 18, 10, 112>, dram_bytes = 13312 : i64}
// NOW-PLAN:   lg.plan = {cycles = 326 : i64, step_cycles = array<i64: 104, 64, 18, 18, 10, 112>, dram_bytes = 13312 : i64}
// CHECK:      st.put_in 17 at (0, 0, 0, 0), (0, 2, memory) to (0, 0, 0, 0), (0, 3, memory)
// CHECK:      st.put_in 21 at (0, 0, 0, 0), (0, 2, soma1)

// relu 21's result (512 B at 2944) stays clear of step 3's blocks: slice 1's conv input
// (buffer 17, 640 B at 2304) and the conv's result.
// ALLOC:      task.buffer 17 {{.*}} st.addr = 2304 : i64
// ALLOC:      task.conv 19 {{.*}} st.addr = 1048576 : i64
// ALLOC:      task.relu 21 {{.*}} st.store_late, st.coord = #st.coord<(0, 0, 0, 0), (0, 2, soma1)>, st.addr = 2944 : i64

// ISA:      isa.sync 1
// ISA-NEXT: isa.relu 1048576 : tensor<1x4x8x16xi8> -> 2944
// ISA-NEXT: isa.dma_load sizes [1, 5, 8, 16]
// ISA-NEXT: isa.sync 2
// ISA-NEXT: isa.conv
// ISA-NEXT: isa.dma_store sizes [1, 4, 8, 16] from local 2944
// ISA-NEXT: isa.sync 3
// ISA-NEXT: isa.relu
// ISA-NEXT: isa.dma_store sizes [1, 4, 8, 16]
// ISA-NEXT: isa.sync 4
// ISA-NEXT: isa.dma_load sizes [1, 8, 8, 16]

// CYCLES: "cycles": 318, "phase_cycles": [104, 64, 10, 18, 10, 112]
// CYCLES: "dram_bytes": 13312
// NOW:    "cycles": 326, "phase_cycles": [104, 64, 18, 18, 10, 112]
// NOW:    "dram_bytes": 13312

// SERIAL-NOT: st.store_late

task.graph @chain {
  %0 = task.input 0 "x" : tensor<1x8x8x16xi8>
  %1 = task.buffer 1 sic %0 : tensor<1x8x8x16xi8>
  %2 = task.weight 2 #task.random<1> : tensor<16x3x3x16xi8>
  %3 = task.conv 3 %1, %2 pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x16xi8>
  %4 = task.buffer 4 sic %3 : tensor<1x8x8x16xi8>
  %5 = task.weight 5 #task.random<2> : tensor<16x3x3x16xi8>
  %6 = task.conv 6 %4, %5 pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x16xi8>
  %7 = task.buffer 7 si %6 : tensor<1x8x8x16xi8>
  %8 = task.relu 8 %7 : tensor<1x8x8x16xi8>
  %9 = task.buffer 9 sic %8 : tensor<1x8x8x16xi8>
  %10 = task.weight 10 #task.random<3> : tensor<16x3x3x16xi8>
  %11 = task.conv 11 %9, %10 pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x16xi8>
  %12 = task.buffer 12 so %11 : tensor<1x8x8x16xi8>
  task.output 13 "y" %12
}
