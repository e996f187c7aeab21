// A group's outputs that a later group reads are stored only by the slices that own rows
// the later group reads: LeNet at batch 2 on a 32 KB tpu-like whose DMA overlaps compute
// (Inputs/tpu-32k-gdma.toml), grouped by `strategy=best`. In group 28 (sliced n = 2,
// h = 2) the next group's pooling reads only the rows that slices 1 and 3 own, so relu
// 210 and 214 (slices 0 and 2) are not stored: `rewrite.route_outside` gives the
// outside buffer no box of theirs. The plan counted their stores (116,964 DRAM bytes and
// 2,749 cycles against the machine's 113,892 and 2,707); it now predicts the machine's
// bytes and cycles exactly (2,677: before stop 31 the fc's input, loaded as one box in
// the plan, was two boxes on the machine, one per slice of the group before, 2,705 for
// 2,707; now the slices wait in one region and the box is one DMA, `spill_frames`, and
// the plan loads the boxes of results stored by earlier groups that make one box of a tile
// as one, as isa-lower does).

// RUN: stc-zoo lenet --batch 2 -o %t.mlir
// RUN: stc-opt %t.mlir --data-dir %S/Inputs -p 'task-split{fit="%S/Inputs/tpu-32k-gdma.toml"},task-layer-group{target="%S/Inputs/tpu-32k-gdma.toml" strategy=best}' -o %t.grouped.mlir
// RUN: filecheck %s < %t.grouped.mlir
// RUN: stc-opt %t.grouped.mlir --data-dir %S/Inputs -p 'st-place,st-route,st-lmem-alloc,isa-lower' -o %t.isa.mlir
// RUN: stc-run %t.mlir --compare %t.isa.mlir --data-dir %S/Inputs
// RUN: stc-run %t.isa.mlir --stats --data-dir %S/Inputs | filecheck %s --check-prefix=MACHINE

// CHECK:      task.relu 210 {{.*}} {lg.group = 28 : i64, lg.slice = 0 : i64, lg.step = 31 : i64}
// CHECK-NEXT: task.buffer
// CHECK-NEXT: task.relu 212 {{.*}} {lg.group = 28 : i64, lg.slice = 1 : i64, lg.step = 41 : i64, st.store_late}
// CHECK-NEXT: task.buffer
// CHECK-NEXT: task.relu 214 {{.*}} {lg.group = 28 : i64, lg.slice = 2 : i64, lg.step = 51 : i64}
// CHECK-NEXT: task.buffer
// CHECK-NEXT: task.relu 216 {{.*}} {lg.group = 28 : i64, lg.slice = 3 : i64, lg.step = 61 : i64, st.store_late}
// CHECK:      task.buffer 265 si %{{[0-9]+}}[0:1, 6:20, 2:4, 0:6], {{.*}} : tensor<1x14x14x6xi8>
// CHECK:      lg.plan = {cycles = 2677 : i64, {{.*}}, dram_bytes = 113892 : i64}

// MACHINE: "cycles": 2677
// MACHINE: "dram_bytes": 113892
