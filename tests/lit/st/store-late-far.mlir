// st.store_late by k: conv 3's result (4,096 B, a 64-cycle store), which buffer 7 loads
// from global memory in phase 3, is stored two phases late, beside conv 15's compute in
// phase 2, where DMA is idle; phase 1 is DMA-bound (it prefetches conv 15's 36,864 B of
// weights beside the relu), so stored one phase late it would lengthen phase 1 by the
// store's 64 cycles instead. The result lives at its address in phases 0-2. 3,904 cycles;
// one phase late 3,968 (704 in phase 1), in its own phase 3,968 (800 in phase 0).

// RUN: stc-opt %s -p st-apply | filecheck %s
// RUN: stc-opt %s -p 'st-apply,st-route,st-lmem-alloc,isa-lower' -o %t.isa.mlir
// RUN: filecheck %s --check-prefix=ISA < %t.isa.mlir
// RUN: stc-run %s --compare %t.isa.mlir
// RUN: stc-run %t.isa.mlir --stats | filecheck %s --check-prefix=CYCLES
// RUN: sed 's/st.store_late \[3\] by 2/st.store_late [3]/' %s > %t.one.mlir
// RUN: stc-opt %t.one.mlir -p 'st-apply,st-route,st-lmem-alloc,isa-lower' -o %t.one.isa.mlir
// RUN: stc-run %t.one.mlir --compare %t.one.isa.mlir
// RUN: stc-run %t.one.isa.mlir --stats | filecheck %s --check-prefix=ONE

// CHECK:     %a = task.conv 3 {{.*}} : tensor<1x8x8x64xi8> {st.store_late = 2 : i64, st.coord
// CHECK:     st.store_late [3] by 2

// ISA:       isa.conv {{.*}} -> 0 : tensor<1x8x8x64xi8>
// ISA-NEXT:  isa.sync 0
// ISA:       isa.sync 1
// ISA-NEXT:  isa.conv
// ISA-NEXT:  isa.dma_store sizes [4096] from local 0 to global
// ISA-NEXT:  isa.sync 2

// CYCLES: "cycles": 3904, "phase_cycles": [736, 640, 2304, 224]
// ONE:    "cycles": 3968, "phase_cycles": [736, 704, 2304, 224]

task.graph @late {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<1> : tensor<64x3x3x16xi8>
  %a = task.conv 3 %in, %w pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x64xi8>
  %z = task.input 12 "z" : tensor<1x8x8x64xi8>
  %z_in = task.buffer 4 si %z : tensor<1x8x8x64xi8>
  %c = task.relu 6 %z_in : tensor<1x8x8x64xi8>
  %c_in = task.buffer 13 sic %c : tensor<1x8x8x64xi8>
  %u = task.weight 14 #task.random<3> : tensor<64x3x3x64xi8>
  %d = task.conv 15 %c_in, %u pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x64xi8>
  %r = task.buffer 7 si %a : tensor<1x8x8x64xi8>
  %s = task.buffer 8 si %d : tensor<1x8x8x64xi8>
  %sum = task.add 9 %r, %s shift 1 : tensor<1x8x8x64xi8>
  %out = task.buffer 10 so %sum : tensor<1x8x8x64xi8>
  task.output 11 "y" %out
}
st.mapping @late target "set-8x8" {
  st.store_late [3] by 2
  st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
  st.put_in 12 at (0, 0, 0, 1), (0, 1, router_recv)
  st.put_group_in 3 at (0, 0, 0, 0), (0, 0, axon)
  st.put_group_in 6 at (0, 0, 0, 0), (0, 1, soma1)
  st.put_group_in 15 at (0, 0, 0, 0), (0, 2, axon)
  st.put_in 13 at (0, 0, 0, 0), (0, 1, memory)
  st.put_in 14 at (0, 0, 0, 0), (0, 1, memory)
  st.put_group_in 9 at (0, 0, 0, 0), (0, 3, axon)
  st.put_in 8 at (0, 0, 0, 0), (0, 2, memory)
  st.put_in 10 at (0, 0, 0, 0), (0, 3, memory)
  st.put_in 11 at (0, 0, 0, 0), (0, 3, router_send)
}
