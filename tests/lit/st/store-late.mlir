// st.store_late: the action marks conv 3 `st.store_late`, as the attribute written on the
// block does (isa-lower/store-late-search.mlir, the same graph and places): conv 3's result,
// which buffer 7 loads from global memory in phase 2, is stored in phase 1 beside conv 6's
// compute, 448 cycles (464 stored in phase 0). A script st-search writes (`script=`) carries
// its late stores so.

// RUN: stc-opt %s -p st-apply | filecheck %s
// RUN: stc-opt %s -p 'st-apply,st-route,st-lmem-alloc,isa-lower' -o %t.isa.mlir
// RUN: stc-run %s --compare %t.isa.mlir
// RUN: stc-run %t.isa.mlir --stats | filecheck %s --check-prefix=CYCLES

// CHECK:     %a = task.conv 3 %in, %w pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x16xi8> {st.store_late, st.coord
// CHECK-NOT: st.store_late,
// CHECK:     st.store_late [3]

// CYCLES: "cycles": 448, "phase_cycles": [196, 196, 56]

task.graph @late {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<1> : tensor<16x3x3x16xi8>
  %a = task.conv 3 %in, %w pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x16xi8>
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
  st.store_late [3]
  st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
  st.put_in 12 at (0, 0, 0, 1), (0, 1, router_recv)
  st.put_group_in 3 at (0, 0, 0, 0), (0, 0, axon)
  st.put_group_in 6 at (0, 0, 0, 0), (0, 1, axon)
  st.put_group_in 9 at (0, 0, 0, 0), (0, 2, axon)
  st.put_in 8 at (0, 0, 0, 0), (0, 1, memory)
  st.put_in 10 at (0, 0, 0, 0), (0, 2, memory)
  st.put_in 11 at (0, 0, 0, 0), (0, 2, router_send)
}
