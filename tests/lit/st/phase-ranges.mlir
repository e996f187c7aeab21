// Phases are kept as ranges (docs/st-dialect.md): on a target without a phase limit a
// block at phase 2^40, or a storage block over phases 0 to 10^8, costs what one phase
// costs, and every rule names the phase where it breaks.

// RUN: stc-opt %s --split-input-file -p st-apply --verify-diagnostics | filecheck %s

task.graph @g {
  %x = task.input 0 "x" : tensor<1x128x128x48xi8>
  %a = task.buffer 1 si %x : tensor<1x128x128x48xi8>
  %b = task.buffer 2 si %x : tensor<1x128x128x48xi8>
  %r = task.add 3 %a, %b : tensor<1x128x128x48xi8>
  %o = task.buffer 4 so %r : tensor<1x128x128x48xi8>
  task.output 5 "y" %o
}
st.mapping @g target "set-8x8" {
  st.put_in 1 at (0, 0, 0, 0), (0, 1099511627776, memory) to (0, 0, 0, 0), (0, 1099611627776, memory)
  st.put_in 2 at (0, 0, 0, 0), (0, 1099511627781, memory) to (0, 0, 0, 0), (0, 2199023255552, memory)
}
// CHECK: st.put_in (action 2): block 2 (task.buffer) at (0, 0, 0, 0), (0, 1099511627781 to 2199023255552, memory): local memory of core (0, 0, 0, 0) in phase 1099511627781 overflows: 786432 B in use + 786432 B > 1048576 B usable

// -----

// A take-out from the middle of a range leaves two ranges, which a finished script refuses.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %b = task.buffer 1 si %x : tensor<1x4x4x32xi8>
  %r = task.relu 2 %b : tensor<1x4x4x32xi8>
  %o = task.buffer 3 so %r : tensor<1x4x4x32xi8>
  task.output 4 "y" %o
}
st.mapping @g target "aie-ml" {
  st.put_in 1 at (0, 0, 1, 0), (0, 0, memory) to (0, 0, 1, 0), (0, 100000000, memory)
  st.take_out at (0, 0, 1, 0), (0, 5, memory) to (0, 0, 1, 0), (0, 99999999, memory)
}
// CHECK: st.take_out (action 2): block 1 (task.buffer) lives in phases 0 to 4, 100000000 of core (0, 0, 1, 0) in step 0; a storage block lives in one contiguous range of phases

// -----

// A put over phases the block is already in names the first of them.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %b = task.buffer 1 si %x : tensor<1x4x4x32xi8>
  %r = task.relu 2 %b : tensor<1x4x4x32xi8>
  %o = task.buffer 3 so %r : tensor<1x4x4x32xi8>
  task.output 4 "y" %o
}
st.mapping @g target "aie-ml" {
  st.put_in 1 at (0, 0, 1, 0), (0, 0, memory) to (0, 0, 1, 0), (0, 100000000, memory)
  st.take_out 1 at (0, 0, 1, 0), (0, 5, memory) to (0, 0, 1, 0), (0, 99999999, memory)
  st.put_in 1 at (0, 0, 1, 0), (0, 5, memory) to (0, 0, 1, 0), (0, 1099511627776, memory)
}
// CHECK: st.put_in (action 3): block 1 (task.buffer) at (0, 0, 1, 0), (0, 5 to 1099511627776, memory): it is already there in phase 100000000

// -----

// Putting the middle back joins the ranges again.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %b = task.buffer 1 si %x : tensor<1x4x4x32xi8>
  %r = task.relu 2 %b : tensor<1x4x4x32xi8>
  %o = task.buffer 3 so %r : tensor<1x4x4x32xi8>
  task.output 4 "y" %o
}
st.mapping @g target "aie-ml" {
  st.put_in 1 at (0, 0, 1, 0), (0, 0, memory) to (0, 0, 1, 0), (0, 100000000, memory)
  st.take_out 1 at (0, 0, 1, 0), (0, 5, memory) to (0, 0, 1, 0), (0, 99999999, memory)
  st.put_in 1 at (0, 0, 1, 0), (0, 5, memory) to (0, 0, 1, 0), (0, 99999999, memory)
}
// CHECK:      %b = task.buffer 1 si %x : tensor<1x4x4x32xi8> {st.coord = #st.coord<(0, 0, 1, 0), (0, 0 to 100000000, memory)>}
