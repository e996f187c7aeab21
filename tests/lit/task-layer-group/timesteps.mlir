// The timestep table of a small group (conv 3 then relu 5, two row slices) as the mapping
// writes it: timestep t is phase t; slice s runs its layers in steps 2s and 2s + 1. The
// conv's weight (block 9, one copy both slices read) is resident from step 0 to step 2; the
// relu's input tile of each slice lives from the conv's step to the relu's, in local
// memory; the group's input tiles are loaded in their reader's step; the output buffer 6
// is held from the first slice's relu (step 1) to the last's (step 3), each writing its rows.

// RUN: stc-opt %s -p 'task-layer-group{group=3,5 slices=1,2}' | filecheck %s
// RUN: stc-opt %s -p 'task-layer-group{group=3,5 slices=1,2},st-place,st-route,st-lmem-alloc,isa-lower' -o %t.isa.mlir
// RUN: stc-run %s --compare %t.isa.mlir
// RUN: stc-run %t.isa.mlir --stats | filecheck %s --check-prefix=MACHINE
// RUN: not stc-opt %s -p 'task-layer-group,task-layer-group' 2>&1 | filecheck %s --check-prefix=MAPPED
// MAPPED: stc-opt: error: task-layer-group: task.graph @pair already has an st.mapping; layer groups are made before placement

// The mapping carries the groups' price (`lg.plan`): each timestep's cycles and the DRAM
// bytes, equal to the machine's phase by phase (MACHINE).
// CHECK:      st.mapping @pair target "tpu-like" attributes {lg.plan = {cycles = 69 : i64, step_cycles = array<i64: 29, 1, 20, 19>, dram_bytes = 1728 : i64}} {
// CHECK-NEXT:   st.put_in 8 at (0, 0, 0, 0), (0, 0, memory)
// CHECK-NEXT:   st.put_in 9 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 2, memory)
// CHECK-NEXT:   st.put_in 10 at (0, 0, 0, 0), (0, 0, axon)
// CHECK-NEXT:   st.put_in 11 at (0, 0, 0, 0), (0, 2, memory)
// CHECK-NEXT:   st.put_in 13 at (0, 0, 0, 0), (0, 2, axon)
// CHECK-NEXT:   st.put_in 14 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1, memory)
// CHECK-NEXT:   st.put_in 15 at (0, 0, 0, 0), (0, 1, soma1)
// CHECK-NEXT:   st.put_in 16 at (0, 0, 0, 0), (0, 2, memory) to (0, 0, 0, 0), (0, 3, memory)
// CHECK-NEXT:   st.put_in 17 at (0, 0, 0, 0), (0, 3, soma1)
// CHECK-NEXT:   st.put_in 6 at (0, 0, 0, 0), (0, 1, memory) to (0, 0, 0, 0), (0, 3, memory)
// CHECK-NEXT: }
// MACHINE: "cycles": 69, "phase_cycles": [29, 1, 20, 19]
// MACHINE: "dram_bytes": 1728
task.graph @pair {
  %0 = task.input 0 "x" : tensor<1x8x8x8xi8>
  %1 = task.buffer 1 sic %0 : tensor<1x8x8x8xi8>
  %2 = task.weight 2 #task.random<1> : tensor<8x3x3x8xi8>
  %3 = task.conv 3 %1, %2 pad [1, 1, 1, 1] shift 6 : tensor<1x8x8x8xi8>
  %4 = task.buffer 4 si %3 : tensor<1x8x8x8xi8>
  %5 = task.relu 5 %4 : tensor<1x8x8x8xi8>
  %6 = task.buffer 6 so %5 : tensor<1x8x8x8xi8>
  task.output 7 "y" %6
}
