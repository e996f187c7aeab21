// A result stored late (st.store_late, as st-search marks the stored results of the layers
// its model stores beside the next slot) on set-8x8, whose DMA runs beside compute: conv 3
// in phase 0 writes a result that buffer 7 loads from global memory in phase 2. Stored
// late, isa-lower stores it in phase 1 (listed after conv 6, which it does not wait for),
// and the machine runs the store on the DMA clock after that phase's loads, beside conv 6:
// by hand, phase 0 = 16 (x, 1,024 B at 64 B/cycle) + 36 (weights, 2,304 B) + 144 (conv:
// 147,456 MACs at 1,024) = 196; phase 1 = 16 (z) + 36 + 144 = 196 (the 16-cycle store
// ends at 68, beside the conv); phase 2 = 16 (a's box from global memory) + 24 (the add:
// 3 × 1,024 B at 128 B/cycle) + 16 (store) = 56. Without the mark (NOW) the store follows
// conv 3 in phase 0: 196 + 16 = 212. Both bit-identical.

// RUN: stc-opt %s -p 'st-apply,st-route,st-lmem-alloc,isa-lower' -o %t.isa.mlir
// RUN: filecheck %s < %t.isa.mlir
// RUN: stc-run %s --compare %t.isa.mlir
// RUN: stc-run %t.isa.mlir --stats | filecheck %s --check-prefix=CYCLES
// RUN: sed 's/ {st.store_late}//' %s > %t.now.mlir
// RUN: stc-opt %t.now.mlir -p 'st-apply,st-route,st-lmem-alloc,isa-lower' -o %t.now.isa.mlir
// RUN: filecheck %s --check-prefix=NOW < %t.now.isa.mlir
// RUN: stc-run %t.now.mlir --compare %t.now.isa.mlir
// RUN: stc-run %t.now.isa.mlir --stats | filecheck %s --check-prefix=NOW-CYCLES

// CHECK:      isa.dma_load sizes [2304]
// CHECK-NEXT: isa.conv
// CHECK-NEXT: isa.sync 0
// CHECK-NEXT: isa.dma_load sizes [1, 8, 8, 16] from global
// CHECK-NEXT: isa.dma_load sizes [2304]
// CHECK-NEXT: isa.conv
// CHECK-NEXT: isa.dma_store sizes [1024]
// CHECK-NEXT: isa.sync 1

// CYCLES: "cycles": 448, "phase_cycles": [196, 196, 56]

// NOW:      isa.conv
// NOW-NEXT: isa.dma_store sizes [1024]
// NOW-NEXT: isa.sync 0

// NOW-CYCLES: "cycles": 464, "phase_cycles": [212, 196, 56]

task.graph @late {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<1> : tensor<16x3x3x16xi8>
  %a = task.conv 3 %in, %w pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x16xi8> {st.store_late}
  %z = task.input 12 "z" : tensor<1x8x8x16xi8>
  %z_in = task.buffer 4 sic %z : tensor<1x8x8x16xi8>
  %v = task.weight 5 #task.random<2> : tensor<16x3x3x16xi8>
  %c = task.conv 6 %z_in, %v pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x16xi8>
  %r = task.buffer 7 si %a : tensor<1x8x8x16xi8>
  %s = task.buffer 8 si %c : tensor<1x8x8x16xi8>
  %sum = task.add 9 %r, %s shift 1 : tensor<1x8x8x16xi8>
  %out = task.buffer 10 so %sum : tensor<1x8x8x16xi8>
  task.output 11 "y" %out
}
st.mapping @late target "set-8x8" {
  st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
  st.put_in 12 at (0, 0, 0, 1), (0, 1, router_recv)
  st.put_group_in 3 at (0, 0, 0, 0), (0, 0, axon)
  st.put_group_in 6 at (0, 0, 0, 0), (0, 1, axon)
  st.put_group_in 9 at (0, 0, 0, 0), (0, 2, axon)
  st.put_in 8 at (0, 0, 0, 0), (0, 1, memory)
  st.put_in 10 at (0, 0, 0, 0), (0, 2, memory)
  st.put_in 11 at (0, 0, 0, 0), (0, 2, router_send)
}
