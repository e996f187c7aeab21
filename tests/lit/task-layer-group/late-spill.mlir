// Late spills on a many-core target whose DMA overlaps compute (Inputs/set-1x2.toml: set-8x8
// cut to two cores). Group [4, 6] leaves the add outside, so st-place holds buffer 5 from
// conv 4's phase (0) to relu 6's (1), but conv 4's result also goes to the add (phase 2)
// through global memory: it is stored, and loaded back in phase 2. Stored in phase 0 the
// store waits for the conv; marked `st.store_late` by st-place, it runs in phase 1 beside
// the relu (before the relu's own store), since nothing loads it before phase 2: phases of
// 677, 128, 288 machine cycles, 1093 in all, against 741, 128, 288 = 1157 with
// `delay=false`, bit-identical. Each phase's price (`spills.CoreWork`) equals the machine's
// (`tests/unit/test_late_spills.py`).

// RUN: stc-opt %s --data-dir %S/Inputs -p 'task-layer-group{target="%S/Inputs/set-1x2.toml" group=4,6},st-place{target="%S/Inputs/set-1x2.toml"}' | filecheck %s
// RUN: stc-opt %s --data-dir %S/Inputs -p 'task-layer-group{target="%S/Inputs/set-1x2.toml" group=4,6},st-place{target="%S/Inputs/set-1x2.toml"},st-route,st-lmem-alloc,isa-lower' -o %t.isa.mlir
// RUN: filecheck %s --check-prefix=ISA < %t.isa.mlir
// RUN: stc-run %s --compare %t.isa.mlir --data-dir %S/Inputs
// RUN: stc-run %t.isa.mlir --stats --data-dir %S/Inputs | filecheck %s --check-prefix=CYCLES
// RUN: stc-opt %s --data-dir %S/Inputs -p 'task-layer-group{target="%S/Inputs/set-1x2.toml" group=4,6},st-place{target="%S/Inputs/set-1x2.toml" delay=false},st-route,st-lmem-alloc,isa-lower' -o %t.now.isa.mlir
// RUN: filecheck %s --check-prefix=NOW-ISA < %t.now.isa.mlir
// RUN: stc-run %s --compare %t.now.isa.mlir --data-dir %S/Inputs
// RUN: stc-run %t.now.isa.mlir --stats --data-dir %S/Inputs | filecheck %s --check-prefix=NOW

// CHECK:      task.conv 4 {{.*}} {lg.group = 0 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, axon)>, st.store_late}
// CHECK-NEXT: task.buffer 5 {{.*}} {st.coord = #st.coord<(0, 0, 0, 0), (0, 0 to 1, memory)>}
// CHECK-NEXT: task.relu 6 {{.*}} {lg.group = 0 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 1, soma1)>}
// CHECK-NEXT: task.buffer 7 {{.*}} {st.coord = #st.coord<(0, 0, 0, 0), (0, 2, memory)>}

// ISA:      isa.conv
// ISA-NEXT: isa.sync 0
// ISA-NEXT: isa.relu 0 : tensor<1x16x16x16xi8> -> 65536
// ISA-NEXT: isa.dma_store sizes [4096] from local 0 to global [[CONV:[0-9]+]]
// ISA-NEXT: isa.dma_store sizes [4096] from local 65536 to global [[RELU:[0-9]+]]
// ISA-NEXT: isa.sync 1
// ISA-NEXT: isa.dma_load sizes [1, 16, 16, 16] from global [[CONV]]
// ISA-NEXT: isa.dma_load sizes [1, 16, 16, 16] from global [[RELU]]
// ISA-NEXT: isa.add

// CYCLES: "cycles": 1093, "phase_cycles": [677, 128, 288]

// NOW-ISA:      isa.conv
// NOW-ISA-NEXT: isa.dma_store sizes [4096] from local 0
// NOW-ISA-NEXT: isa.sync 0

// NOW: "cycles": 1157, "phase_cycles": [741, 128, 288]

task.graph @residual {
  %x = task.input 0 "x" : tensor<1x16x16x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x16x16x16xi8>
  %w = task.weight 2 #task.random<1> : tensor<16x3x3x16xi8>
  %b = task.bias 3 #task.random<2> : tensor<16xi32>
  %c = task.conv 4 %in, %w bias %b pad [1, 1, 1, 1] shift 9 : tensor<1x16x16x16xi8>
  %r_in = task.buffer 5 si %c : tensor<1x16x16x16xi8>
  %r = task.relu 6 %r_in : tensor<1x16x16x16xi8>
  %a_c = task.buffer 7 si %c : tensor<1x16x16x16xi8>
  %a_r = task.buffer 8 si %r : tensor<1x16x16x16xi8>
  %a = task.add 9 %a_c, %a_r shift 1 : tensor<1x16x16x16xi8>
  %out = task.buffer 10 so %a : tensor<1x16x16x16xi8>
  task.output 11 "y" %out
}
