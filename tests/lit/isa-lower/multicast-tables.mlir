// Multicast loads of one box into several blocks of a core (set-8x8's multicast_loads): two
// lut layers, each split by rows over cores (0, 0) and (0, 1), read the same table; both
// tables are held from phase 0 (prefetched: the luts run in phases 1 and 2), so each core
// loads that box into two blocks in one phase. Each block of a core takes one multicast
// (the k-th of each core together): two DRAM reads of 256 B, as the cost model counts one
// read of a layer's table for all its cores. Before, the second block of each core loaded
// its own copy (dma_load): 1,792 DRAM bytes read and 44 cycles for 1,536 and 40 (DarkNet-19
// b8's searched schedule read 189 tables so, 48,384 B, 0.6 % of its DRAM bytes); the outputs,
// stored straight from the luts since, make those 1,024 and 24.
// RUN: stc-opt %s -p 'st-apply,st-route,st-lmem-alloc,isa-lower' | filecheck %s
// RUN: stc-opt %s -p 'st-apply,st-route,st-lmem-alloc,isa-lower' -o %t && stc-run %s --compare %t
// RUN: stc-run %t --stats | filecheck %s --check-prefix=STATS

task.graph @tables {
  %x = task.input 0 "x" : tensor<1x4x4x16xi8>
  %xin = task.buffer 1 si %x : tensor<1x4x4x16xi8>
  %ta = task.table 2 #task.random<11> : tensor<256xi8>
  %a = task.lut 3 %xin, %ta : tensor<1x4x4x16xi8>
  %aout = task.buffer 4 so %a : tensor<1x4x4x16xi8>
  task.output 5 "a" %aout
  %z = task.input 6 "z" : tensor<1x4x4x16xi8>
  %zin = task.buffer 7 si %z : tensor<1x4x4x16xi8>
  %tb = task.table 8 #task.random<11> : tensor<256xi8>
  %b = task.lut 9 %zin, %tb : tensor<1x4x4x16xi8>
  %bout = task.buffer 10 so %b : tensor<1x4x4x16xi8>
  task.output 11 "b" %bout
}
st.mapping @tables target "set-8x8" {
  st.split_task 3 by [2, 1, 1, 1]
  st.split_task 9 by [2, 1, 1, 1]
  st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
  st.put_in 6 at (0, 0, 0, 1), (0, 0, router_recv)
  st.put_in 13 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1, memory)
  st.put_in 16 at (0, 0, 0, 1), (0, 0, memory) to (0, 0, 0, 1), (0, 1, memory)
  st.put_in 19 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 2, memory)
  st.put_in 22 at (0, 0, 0, 1), (0, 0, memory) to (0, 0, 0, 1), (0, 2, memory)
  st.put_in 14 at (0, 0, 0, 0), (0, 1, soma1)
  st.put_in 12 at (0, 0, 0, 0), (0, 1, memory)
  st.put_in 17 at (0, 0, 0, 1), (0, 1, soma1)
  st.put_in 15 at (0, 0, 0, 1), (0, 1, memory)
  st.put_in 20 at (0, 0, 0, 0), (0, 2, soma1)
  st.put_in 18 at (0, 0, 0, 0), (0, 2, memory)
  st.put_in 23 at (0, 0, 0, 1), (0, 2, soma1)
  st.put_in 21 at (0, 0, 0, 1), (0, 2, memory)
  st.put_in 4 at (0, 0, 0, 0), (0, 2, memory)
  st.put_in 5 at (0, 0, 0, 0), (0, 2, router_send)
  st.put_in 10 at (0, 0, 0, 1), (0, 3, memory)
  st.put_in 11 at (0, 0, 0, 1), (0, 3, router_send)
}

// CHECK:      isa.core (0, 0) {
// CHECK-NEXT:   isa.dma_multicast sizes [256] from global 1024 to local 256 and (0, 1) tag 0
// CHECK-NEXT:   isa.dma_multicast sizes [256] from global 1024 to local 0 and (0, 1) tag 1
// CHECK:      isa.core (0, 1) {
// CHECK-NEXT:   isa.recv 256 bytes to 256 from (0, 0) tag 0
// CHECK-NEXT:   isa.recv 256 bytes to 0 from (0, 0) tag 1
// CHECK-NOT:  isa.dma_load sizes [256]

// The inputs (512 B) and the table twice (512 B); the four results are stored straight
// into the outputs, whose buffers are held after them (`MemoryPlan.direct_outputs`: 512 B
// reloaded and 40 cycles before).
// STATS: "cycles": 24,
// STATS-SAME: "dram_read_bytes": 1024,
