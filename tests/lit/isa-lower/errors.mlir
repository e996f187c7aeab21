// Every refusal of st-lmem-alloc and isa-lower names the block, the rule and the numbers.
// RUN: stc-opt %s --split-input-file -p 'st-apply,st-lmem-alloc' --verify-diagnostics | filecheck %s
// RUN: not stc-opt %s --split-input-file -p 'st-apply,isa-lower' 2>&1 | filecheck %s --check-prefix=ROUTE

// A buffer last held in phase 0 whose producer runs in phase 1.
task.graph @early {
  %x = task.input 0 "x" : tensor<1x4x4x16xi8>
  %in = task.buffer 1 si %x : tensor<1x4x4x16xi8>
  %r = task.relu 2 %in : tensor<1x4x4x16xi8>
  %out = task.buffer 3 so %r : tensor<1x4x4x16xi8>
  task.output 4 "y" %out
}
st.mapping @early target "tianjicx" {
  st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
  st.put_group_in 2 at (0, 0, 0, 0), (0, 1, soma1)
  st.put_in 3 at (0, 0, 0, 0), (0, 0, memory)
  st.put_in 4 at (0, 0, 0, 0), (0, 0, router_send)
}

// CHECK: st-lmem-alloc: block 3 (task.buffer) is last held in phase 0, but its producer block 2 (task.relu) computes in phase 1; a buffer is filled while it is held, before its first reader
// ROUTE: isa-lower: block 1 (task.buffer) of task.graph @early has no st.routes; run st-route first

// -----

// Two 384 KB buffers and the add's 384 KB result tile on one core in one phase (the
// mapping's storage model counts only the two buffers there).
task.graph @full {
  %x = task.input 0 "x" : tensor<1x192x128x16xi8>
  %a = task.buffer 1 si %x : tensor<1x192x128x16xi8>
  %b = task.buffer 2 si %x : tensor<1x192x128x16xi8>
  %s = task.add 3 %a, %b : tensor<1x192x128x16xi8>
  %out = task.buffer 4 so %s : tensor<1x192x128x16xi8>
  task.output 5 "y" %out
}
st.mapping @full target "set-8x8" {
  st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
  st.put_group_in 3 at (0, 0, 0, 0), (0, 0, axon)
  st.put_in 4 at (0, 0, 0, 1), (0, 0, memory)
  st.put_in 5 at (0, 0, 0, 1), (0, 0, router_send)
}

// CHECK: st-lmem-alloc: local memory of core (0, 0) in phase 0: 1179648 B live > 1048576 B usable: block 1 (task.buffer), 393216 B, block 2 (task.buffer), 393216 B, block 3 (task.add) result, 393216 B

// -----

// Four 12,288 B tiles and the add's 12,288 B result on one AIE-ML tile in one phase:
// 61,440 B fit its 65,536 B, but each tile needs a 16 KB bank of its own and there are four.
task.graph @banks {
  %x = task.input 0 "x" : tensor<1x12x8x128xi8>
  %a = task.buffer 1 si %x : tensor<1x12x8x128xi8>
  %b = task.buffer 2 si %x : tensor<1x12x8x128xi8>
  %c = task.buffer 3 si %x : tensor<1x12x8x128xi8>
  %d = task.buffer 4 si %x : tensor<1x12x8x128xi8>
  %s = task.add 5 %a, %b, %c, %d shift 2 : tensor<1x12x8x128xi8>
  %out = task.buffer 6 so %s : tensor<1x12x8x128xi8>
  task.output 7 "y" %out
}
st.mapping @banks target "aie-ml" {
  st.put_in 0 at (0, 0, 3, 0), (0, 0, router_recv)
  st.put_group_in 5 at (0, 0, 3, 0), (0, 0, axon)
  st.put_in 6 at (0, 0, 3, 1), (0, 0, memory)
  st.put_in 7 at (0, 0, 3, 1), (0, 0, router_send)
}

// CHECK: st-lmem-alloc: local memory of core (3, 0) in phase 0: 61440 B live fit 65536 B usable only without fragmentation: block 1 (task.buffer), 12288 B, block 2 (task.buffer), 12288 B, block 3 (task.buffer), 12288 B, block 4 (task.buffer), 12288 B (+1 more)

// -----

// A mapping that leaves a block without a place.
task.graph @half {
  %x = task.input 0 "x" : tensor<1x4x4x16xi8>
  %in = task.buffer 1 si %x : tensor<1x4x4x16xi8>
  %r = task.relu 2 %in : tensor<1x4x4x16xi8>
  %out = task.buffer 3 so %r : tensor<1x4x4x16xi8>
  task.output 4 "y" %out
}
st.mapping @half target "tianjicx" {
  st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
}

// CHECK: st-lmem-alloc: block 1 (task.buffer) of task.graph @half is not placed; run st-place (or st-apply) first

// -----

// A result stored late (st.store_late), in phase 1, that buffer 3 would load from global
// memory in that same phase, before the store.
task.graph @late {
  %x = task.input 0 "x" : tensor<1x4x4x16xi8>
  %in = task.buffer 1 si %x : tensor<1x4x4x16xi8>
  %r = task.relu 2 %in : tensor<1x4x4x16xi8> {st.store_late}
  %mid = task.buffer 3 si %r : tensor<1x4x4x16xi8>
  %r2 = task.relu 5 %mid : tensor<1x4x4x16xi8>
  %out = task.buffer 6 so %r2 : tensor<1x4x4x16xi8>
  task.output 4 "y" %out
}
st.mapping @late target "tianjicx" {
  st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
  st.put_group_in 2 at (0, 0, 0, 0), (0, 0, soma1)
  st.put_group_in 5 at (0, 0, 0, 0), (0, 1, soma1)
  st.put_in 6 at (0, 0, 0, 0), (0, 1, memory)
  st.put_in 4 at (0, 0, 0, 0), (0, 1, router_send)
}

// CHECK: st-lmem-alloc: block 2 (task.relu) stores its result late (st.store_late), in phase 1, but block 3 (task.buffer) loads it from global memory in phase 1

// -----

// A result stored two phases late (st.store_late = 2), in phase 2, that buffer 3 would
// load from global memory in phase 1, before the store.
task.graph @far {
  %x = task.input 0 "x" : tensor<1x4x4x16xi8>
  %in = task.buffer 1 si %x : tensor<1x4x4x16xi8>
  %r = task.relu 2 %in : tensor<1x4x4x16xi8> {st.store_late = 2 : i64}
  %mid = task.buffer 3 si %r : tensor<1x4x4x16xi8>
  %r2 = task.relu 5 %mid : tensor<1x4x4x16xi8>
  %out = task.buffer 6 so %r2 : tensor<1x4x4x16xi8>
  task.output 4 "y" %out
}
st.mapping @far target "tianjicx" {
  st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
  st.put_group_in 2 at (0, 0, 0, 0), (0, 0, soma1)
  st.put_group_in 5 at (0, 0, 0, 0), (0, 1, soma1)
  st.put_in 6 at (0, 0, 0, 0), (0, 1, memory)
  st.put_in 4 at (0, 0, 0, 0), (0, 1, router_send)
}

// CHECK: st-lmem-alloc: block 2 (task.relu) stores its result late (st.store_late), in phase 2, but block 3 (task.buffer) loads it from global memory in phase 1

// -----

// A network output larger than a core held in its producers' phase (direct-output.mlir
// holds it in the phase after them, where it takes no bytes).
task.graph @wide {
  %x = task.input 0 "x" : tensor<1x64x64x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x64x64x16xi8>
  %w = task.weight 2 #task.random<1> : tensor<272x1x1x16xi8>
  %b = task.bias 3 #task.random<2> : tensor<272xi32>
  %c = task.conv 4 %in, %w bias %b shift 7 : tensor<1x64x64x272xi8>
  %out = task.buffer 5 so %c : tensor<1x64x64x272xi8>
  task.output 6 "y" %out
}
st.mapping @wide target "set-8x8" {
  st.split_task 4 by [1, 1, 2, 1]
  st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
  st.put_group_in 10 at (0, 0, 0, 0), (0, 0, axon)
  st.put_group_in 14 at (0, 0, 0, 1), (0, 0, axon)
  st.put_in 5 at (0, 0, 0, 0), (0, 0, memory)
  st.put_in 6 at (0, 0, 0, 0), (0, 0, router_send)
}

// CHECK: st.put_in (action 5): block 5 (task.buffer) at (0, 0, 0, 0), (0, 0, memory): local memory of core (0, 0, 0, 0) in phase 0 overflows: 68256 B in use + 1114112 B > 1048576 B usable
