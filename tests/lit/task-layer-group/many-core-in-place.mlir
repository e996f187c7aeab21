// A reader beside its producer is charged the held buffer once. On a row of three cores
// with 6 KB usable each (Inputs/tianjicx-1x3.toml), conv 4 takes 5056 B of core (0, 0) in
// phase 0 (its input, weights, bias and 3072 B result); relu 6 holds buffer 5 (3072 B)
// from phase 0 on its core. On conv 4's core the conv writes its result into buffer 5 in
// place, so the buffer needs no bytes there beyond the result tile the conv's unit already
// counts: relu 6 sits beside conv 4 and the 3072 B never cross the NoC. Counted twice (the
// result tile and the buffer, 8128 B), the placer put relu 6 on core (0, 1) and the conv
// sent its result there: 6144 NoC bytes and 1662 cycles against 3072 and 1277 now.

// RUN: stc-opt %s -p 'task-layer-group{target="%S/Inputs/tianjicx-1x3.toml"},st-place{target="%S/Inputs/tianjicx-1x3.toml"},st-route' | filecheck %s
// RUN: stc-opt %s -p 'task-layer-group{target="%S/Inputs/tianjicx-1x3.toml"},st-place{target="%S/Inputs/tianjicx-1x3.toml"},st-route,st-lmem-alloc,isa-lower' -o %t.isa.mlir
// RUN: stc-run %s --compare %t.isa.mlir --data-dir %S/Inputs
// RUN: stc-run %t.isa.mlir --stats --data-dir %S/Inputs | filecheck %s --check-prefix=STATS

// CHECK:      task.conv 4 {{.*}} {lg.group = 0 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, axon)>}
// CHECK-NEXT: task.buffer 5 {{.*}} {st.coord = #st.coord<(0, 0, 0, 0), (0, 0 to 1, memory)>
// CHECK-NEXT: task.relu 6 {{.*}} {lg.group = 0 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 1, soma1)>}

// STATS: "cycles": 1277,
// STATS-SAME: "noc_bytes": 3072,

task.graph @chain {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<1> : tensor<48x1x1x16xi8>
  %b = task.bias 3 #task.random<2> : tensor<48xi32>
  %c = task.conv 4 %in, %w bias %b shift 9 : tensor<1x8x8x48xi8>
  %r_in = task.buffer 5 si %c : tensor<1x8x8x48xi8>
  %r = task.relu 6 %r_in : tensor<1x8x8x48xi8>
  %out = task.buffer 7 so %r : tensor<1x8x8x48xi8>
  task.output 8 "y" %out
}
