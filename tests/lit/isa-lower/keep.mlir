// A result kept on its producer's core across phases (st.keep, as st-search marks the layers
// whose result it keeps on chip for a later segment): conv 3's result stays at its address
// on core (0, 0) from phase 0 until the last buffer that takes it is first held (phase 2).
// isa-lower stores nothing of it: in phase 1 core (0, 0) copies it into buffer 4, in phase 2
// it sends it to buffer 7 on core (0, 1), each at the start of the phase (it waits for
// nothing there). conv 6's result, not kept, goes through global memory (store, then load).
// Without the mark conv 3's result is stored in phase 0 and loaded back by both buffers:
// 1,024 B more each way. Both bit-identical.

// RUN: stc-opt %s -p 'st-apply,st-route,st-lmem-alloc,isa-lower' -o %t.isa.mlir
// RUN: filecheck %s < %t.isa.mlir
// RUN: stc-run %s --compare %t.isa.mlir
// RUN: stc-run %t.isa.mlir --stats | filecheck %s --check-prefix=STATS
// RUN: sed 's/ {st.keep}//' %s > %t.stored.mlir
// RUN: stc-opt %t.stored.mlir -p 'st-apply,st-route,st-lmem-alloc,isa-lower' -o %t.stored.isa.mlir
// RUN: stc-run %t.stored.mlir --compare %t.stored.isa.mlir
// RUN: stc-run %t.stored.isa.mlir --stats | filecheck %s --check-prefix=STORED

// CHECK:      isa.core (0, 0) {
// CHECK-NOT:  isa.dma_store
// CHECK:      isa.conv {{.*}} -> [[A:[0-9]+]] : tensor<1x8x8x16xi8>
// CHECK-NEXT: isa.sync 0
// CHECK-NEXT: isa.copy sizes [1, 8, 8, 16] from [[A]] to
// CHECK-NEXT: isa.dma_load sizes [2304]
// CHECK-NEXT: isa.conv
// CHECK-NEXT: isa.dma_store sizes [1024]
// CHECK-NEXT: isa.sync 1
// CHECK-NEXT: isa.send sizes [1, 8, 8, 16] from [[A]] to (0, 1) tag [[T:[0-9]+]]
// CHECK-NEXT: isa.sync 2
// CHECK:      isa.core (0, 1) {
// CHECK:      isa.sync 1
// CHECK-NEXT: isa.recv sizes [1, 8, 8, 16] to {{[0-9]+}} from (0, 0) tag [[T]]
// CHECK-NEXT: isa.dma_load sizes [1, 8, 8, 16]
// CHECK-NEXT: isa.add

// STATS: "cycles": 475, "phase_cycles": [196, 196, 83]
// STATS: "dram_bytes": 8704, "dram_read_bytes": 6656, "dram_write_bytes": 2048

// STORED: "cycles": 496, "phase_cycles": [212, 212, 72]
// STORED: "dram_bytes": 11776, "dram_read_bytes": 8704, "dram_write_bytes": 3072

task.graph @keep {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<1> : tensor<16x3x3x16xi8>
  %a = task.conv 3 %in, %w pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x16xi8> {st.keep}
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
  st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
  st.put_group_in 3 at (0, 0, 0, 0), (0, 0, axon)
  st.put_group_in 6 at (0, 0, 0, 0), (0, 1, axon)
  st.put_group_in 9 at (0, 0, 0, 1), (0, 2, axon)
  st.put_in 10 at (0, 0, 0, 1), (0, 2, memory)
  st.put_in 11 at (0, 0, 0, 1), (0, 2, router_send)
}
