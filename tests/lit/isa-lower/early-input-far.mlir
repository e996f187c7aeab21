// An input box loaded two phases early (st-search's early inputs k slots before, on
// set-8x8, whose DMA runs beside compute): the add in phase 2 reads a second network input
// z. Its buffer 7 held from phase 0 to 2, isa-lower loads it in phase 0, after conv 3 in
// the core's order, and the machine runs that load on the DMA clock beside conv 3: by
// hand, phase 0 = 16 (x, 1,024 B at 64 B/cycle) + 36 (weights, 2,304 B) + 144 (conv:
// 147,456 MACs at 1,024; z's 16-cycle load ends at 68, beside it) = 196; phase 1 = 36
// (weights) + 144 (conv) = 180; phase 2 = 24 (the add: 3 × 1,024 B at 128 B/cycle) + 16
// (store) = 40. Held only in phase 2 (LATE), the load precedes the add: 16 + 24 + 16 = 56.
// Both bit-identical.

// RUN: stc-opt %s -p 'st-apply,st-route,st-lmem-alloc,isa-lower' -o %t.isa.mlir
// RUN: filecheck %s < %t.isa.mlir
// RUN: stc-run %s --compare %t.isa.mlir
// RUN: stc-run %t.isa.mlir --stats | filecheck %s --check-prefix=CYCLES
// RUN: sed '/st.put_in 7 at/d' %s > %t.late.mlir
// RUN: stc-opt %t.late.mlir -p 'st-apply,st-route,st-lmem-alloc,isa-lower' -o %t.late.isa.mlir
// RUN: filecheck %s --check-prefix=LATE < %t.late.isa.mlir
// RUN: stc-run %t.late.mlir --compare %t.late.isa.mlir
// RUN: stc-run %t.late.isa.mlir --stats | filecheck %s --check-prefix=LATE-CYCLES

// CHECK:      isa.dma_load sizes [2304]
// CHECK-NEXT: isa.conv
// CHECK-NEXT: isa.dma_load sizes [1, 8, 8, 16] from global
// CHECK-NEXT: isa.sync 0
// CHECK-NEXT: isa.dma_load sizes [2304]
// CHECK-NEXT: isa.conv
// CHECK-NEXT: isa.sync 1
// CHECK-NEXT: isa.add
// CHECK-NEXT: isa.dma_store
// CHECK-NEXT: isa.sync 2

// CYCLES: "cycles": 416, "phase_cycles": [196, 180, 40]

// LATE:      isa.sync 1
// LATE-NEXT: isa.dma_load sizes [1, 8, 8, 16] from global {{[0-9]+}}
// LATE-NEXT: isa.add

// LATE-CYCLES: "cycles": 432, "phase_cycles": [196, 180, 56]

task.graph @far {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<1> : tensor<16x3x3x16xi8>
  %a = task.conv 3 %in, %w pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x16xi8>
  %c_in = task.buffer 4 sic %a : tensor<1x8x8x16xi8>
  %v = task.weight 5 #task.random<2> : tensor<16x3x3x16xi8>
  %c = task.conv 6 %c_in, %v pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x16xi8>
  %z = task.input 12 "z" : tensor<1x8x8x16xi8>
  %r = task.buffer 7 si %z : tensor<1x8x8x16xi8>
  %s = task.buffer 8 si %c : tensor<1x8x8x16xi8>
  %sum = task.add 9 %r, %s shift 1 : tensor<1x8x8x16xi8>
  %out = task.buffer 10 so %sum : tensor<1x8x8x16xi8>
  task.output 11 "y" %out
}
st.mapping @far target "set-8x8" {
  st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
  st.put_in 12 at (0, 0, 0, 1), (0, 0, router_recv)
  st.put_group_in 3 at (0, 0, 0, 0), (0, 0, axon)
  st.put_group_in 6 at (0, 0, 0, 0), (0, 1, axon)
  st.put_in 4 at (0, 0, 0, 0), (0, 0, memory)
  st.put_group_in 9 at (0, 0, 0, 0), (0, 2, axon)
  st.put_in 8 at (0, 0, 0, 0), (0, 1, memory)
  st.put_in 7 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1, memory)
  st.put_in 10 at (0, 0, 0, 0), (0, 2, memory)
  st.put_in 11 at (0, 0, 0, 0), (0, 2, router_send)
}
