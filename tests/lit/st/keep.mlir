// st.keep: the action marks conv 3 `st.keep`, as the attribute written on the block does
// (isa-lower/keep.mlir, the same graph and places): conv 3's result stays on core (0, 0)
// until buffer 7 is first held (phase 2), copied into buffer 4 in phase 1 and sent to
// buffer 7 on core (0, 1) in phase 2, nothing stored or loaded of it: 475 cycles, 8,704
// DRAM bytes (496 and 11,776 through global memory). A script st-search writes (`script=`)
// carries the results it keeps so.

// RUN: stc-opt %s -p st-apply | filecheck %s
// RUN: stc-opt %s -p 'st-apply,st-route,st-lmem-alloc,isa-lower' -o %t.isa.mlir
// RUN: stc-run %s --compare %t.isa.mlir
// RUN: stc-run %t.isa.mlir --stats | filecheck %s --check-prefix=STATS

// CHECK:     %a = task.conv 3 %in, %w pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x16xi8> {st.keep, st.coord
// CHECK-NOT: st.keep,
// CHECK:     st.keep [3]

// STATS: "cycles": 475, "phase_cycles": [196, 196, 83]
// STATS: "dram_bytes": 8704, "dram_read_bytes": 6656, "dram_write_bytes": 2048

task.graph @keep {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<1> : tensor<16x3x3x16xi8>
  %a = task.conv 3 %in, %w pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x16xi8>
  %c_in = task.buffer 4 sic %a : tensor<1x8x8x16xi8>
  %v = task.weight 5 #task.random<2> : tensor<16x3x3x16xi8>
  %c = task.conv 6 %c_in, %v pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x16xi8>
  %r = task.buffer 7 si %a : tensor<1x8x8x16xi8>
  %s = task.buffer 8 si %c : tensor<1x8x8x16xi8>
  %sum = task.add 9 %r, %s shift 1 : tensor<1x8x8x16xi8>
  %out = task.buffer 10 so %sum : tensor<1x8x8x16xi8>
  task.output 11 "y" %out
}
st.mapping @keep target "set-8x8" {
  st.keep [3]
  st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
  st.put_group_in 3 at (0, 0, 0, 0), (0, 0, axon)
  st.put_group_in 6 at (0, 0, 0, 0), (0, 1, axon)
  st.put_group_in 9 at (0, 0, 0, 1), (0, 2, axon)
  st.put_in 10 at (0, 0, 0, 1), (0, 2, memory)
  st.put_in 11 at (0, 0, 0, 1), (0, 2, router_send)
}
