// Late stores decided one by one, and the price of every timestep against the machine:
// tiny at batch 2 on a 40 KB tpu-like whose DMA overlaps compute
// (Inputs/tpu-40k-gdma.toml), split to fit, with the five layers 57..69 grouped and
// sliced n=2 h=2 (4 slices, timesteps 3..22). Of the 15 results later groups read (all
// but those of the group's last timestep), 10 are stored in the next timestep
// (`st.store_late`): relu 111, 113, 115, 119, 121, 123 and conv 127, 131, 135, 139; the
// other 5 in their own, where no set moving them prices the timesteps lower
// (`Groups.stores_one_by_one`, `search.cheapest_late`). The mapping's `lg.plan` is the
// groups' price: every timestep's cycles equal the machine's for that phase, and the
// plan's DRAM bytes equal the machine's, with late stores (1,956 cycles) and with
// `delay=false` (2,019).

// RUN: stc-zoo tiny --batch 2 -o %t.mlir
// RUN: stc-opt %t.mlir --data-dir %S/Inputs -p 'task-split{fit="%S/Inputs/tpu-40k-gdma.toml"},task-layer-group{target="%S/Inputs/tpu-40k-gdma.toml" group=57,59,61,65,69 slices=2,2}' -o %t.late.mlir
// RUN: filecheck %s < %t.late.mlir
// RUN: grep -c st.store_late %t.late.mlir | filecheck %s --check-prefix=LATE
// RUN: stc-opt %t.late.mlir --data-dir %S/Inputs -p 'st-place,st-route,st-lmem-alloc,isa-lower' -o %t.late.isa.mlir
// RUN: stc-run %t.mlir --compare %t.late.isa.mlir --data-dir %S/Inputs
// RUN: stc-run %t.late.isa.mlir --stats --data-dir %S/Inputs | filecheck %s --check-prefix=MACHINE
// RUN: stc-opt %t.mlir --data-dir %S/Inputs -p 'task-split{fit="%S/Inputs/tpu-40k-gdma.toml"},task-layer-group{target="%S/Inputs/tpu-40k-gdma.toml" group=57,59,61,65,69 slices=2,2 delay=false}' -o %t.now.mlir
// RUN: filecheck %s --check-prefix=NOW < %t.now.mlir
// RUN: not grep st.store_late %t.now.mlir
// RUN: stc-opt %t.now.mlir --data-dir %S/Inputs -p 'st-place,st-route,st-lmem-alloc,isa-lower' -o %t.now.isa.mlir
// RUN: stc-run %t.mlir --compare %t.now.isa.mlir --data-dir %S/Inputs
// RUN: stc-run %t.now.isa.mlir --stats --data-dir %S/Inputs | filecheck %s --check-prefix=NOW-MACHINE

// LATE: 10
// CHECK:      task.relu 111 {{.*}} {lg.group = 3 : i64, lg.slice = 1 : i64, lg.step = 9 : i64, st.store_late}
// CHECK:      task.relu 113 {{.*}} {lg.group = 3 : i64, lg.slice = 2 : i64, lg.step = 14 : i64, st.store_late}
// CHECK:      task.relu 115 {{.*}} {lg.group = 3 : i64, lg.slice = 3 : i64, lg.step = 19 : i64, st.store_late}
// CHECK:      task.relu 119 {{.*}} {lg.group = 3 : i64, lg.slice = 1 : i64, lg.step = 10 : i64, st.store_late}
// CHECK:      task.relu 121 {{.*}} {lg.group = 3 : i64, lg.slice = 2 : i64, lg.step = 15 : i64, st.store_late}
// CHECK:      task.relu 123 {{.*}} {lg.group = 3 : i64, lg.slice = 3 : i64, lg.step = 20 : i64, st.store_late}
// CHECK:      task.conv 127 {{.*}} {lg.group = 3 : i64, lg.slice = 0 : i64, lg.step = 6 : i64, st.store_late}
// CHECK:      task.conv 131 {{.*}} {lg.group = 3 : i64, lg.slice = 1 : i64, lg.step = 11 : i64, st.store_late}
// CHECK:      task.conv 135 {{.*}} {lg.group = 3 : i64, lg.slice = 2 : i64, lg.step = 16 : i64, st.store_late}
// CHECK:      task.conv 139 {{.*}} {lg.group = 3 : i64, lg.slice = 3 : i64, lg.step = 21 : i64, st.store_late}
// CHECK:      lg.plan = {cycles = 1956 : i64, step_cycles = array<i64: 80, 80, 80, 44, 23, 37, 19, 25, 20, 11, 18, 18, 17, 34, 11, 18, 18, 25, 20, 11, 18, 18, 17, 132, 72, 72, 107, 107, 77, 77, 180, 77, 108, 108, 72, 45, 60>, dram_bytes = 103318 : i64}

// MACHINE: "cycles": 1956, "phase_cycles": [80, 80, 80, 44, 23, 37, 19, 25, 20, 11, 18, 18, 17, 34, 11, 18, 18, 25, 20, 11, 18, 18, 17, 132, 72, 72, 107, 107, 77, 77, 180, 77, 108, 108, 72, 45, 60]
// MACHINE: "dram_bytes": 103318

// NOW:        lg.plan = {cycles = 2019 : i64, step_cycles = array<i64: 80, 80, 80, 44, 23, 37, 25, 25, 20, 23, 23, 20, 17, 34, 23, 23, 20, 25, 20, 23, 23, 20, 17, 132, 72, 72, 107, 107, 77, 77, 180, 77, 108, 108, 72, 45, 60>, dram_bytes = 103318 : i64}

// NOW-MACHINE: "cycles": 2019, "phase_cycles": [80, 80, 80, 44, 23, 37, 25, 25, 20, 23, 23, 20, 17, 34, 23, 23, 20, 25, 20, 23, 23, 20, 17, 132, 72, 72, 107, 107, 77, 77, 180, 77, 108, 108, 72, 45, 60]
// NOW-MACHINE: "dram_bytes": 103318
