// Every rule st-apply checks, one violation per case; each message names the action and
// its position in the script, the block, the coordinate, the rule and the numbers.

// RUN: stc-opt %s --split-input-file -p st-apply --verify-diagnostics | filecheck %s

// Seed: only storage blocks take an end coordinate.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_in 3 at (0, 0, 0, 0), (0, 0, axon) to (0, 0, 0, 0), (0, 1, axon)
}
// CHECK: st.put_in (action 1): block 3 (task.fc) at (0, 0, 0, 0), (0, 0, axon) to (0, 0, 0, 0), (0, 1, axon): only storage blocks take an end coordinate

// -----

// Seed: an end coordinate differs from the start only in the phase.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_in 1 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 1), (0, 1, memory)
}
// CHECK: st.put_in (action 1): block 1 (task.weight) at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 1), (0, 1, memory): an end coordinate differs from the start only in the phase

// -----

// Seed: an end coordinate does not come before the start.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_in 1 at (0, 0, 0, 0), (0, 2, memory) to (0, 0, 0, 0), (0, 1, memory)
}
// CHECK: st.put_in (action 1): block 1 (task.weight) at (0, 0, 0, 0), (0, 2, memory) to (0, 0, 0, 0), (0, 1, memory): the end phase 1 comes before the start phase 2

// -----

// Seed: a storage block is not put twice at one coordinate.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_in 1 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1, memory)
  st.put_group_in 3 at (0, 0, 0, 0), (0, 1, axon)
}
// CHECK: st.put_group_in (action 2): block 1 (task.weight) at (0, 0, 0, 0), (0, 1, memory): it is already there in phase 1

// -----

// Seed: put_group_in takes a compute block.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_group_in 1 at (0, 0, 0, 0), (0, 1, memory)
}
// CHECK: st.put_group_in (action 1): block 1 (task.weight) at (0, 0, 0, 0), (0, 1, memory): put_group_in takes a compute block, not a storage block

// -----

// Seed: take_out of an empty compute stage.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.take_out at (0, 0, 0, 0), (0, 1, axon)
}
// CHECK: st.take_out (action 1): nothing is at (0, 0, 0, 0), (0, 1, axon)

// -----

// Seed: take_out names the block at the stage.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_in 3 at (0, 0, 0, 0), (0, 1, axon)
  st.take_out 2 at (0, 0, 0, 0), (0, 1, axon)
}
// CHECK: st.take_out (action 2): block 2 is not at (0, 0, 0, 0), (0, 1, axon); block 3 (task.fc) is

// -----

// Seed: take_out of a storage block that is not there.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_in 1 at (0, 0, 0, 0), (0, 0, memory)
  st.take_out 1 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1, memory)
}
// CHECK: st.take_out (action 2): block 1 (task.weight) is not at (0, 0, 0, 0), (0, 1, memory); it is at (0, 0, 0, 0), (0, 0, memory)

// -----

// Seed: take_out of every storage block of an empty core and phase.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.take_out at (0, 0, 3, 3), (0, 0, memory)
}
// CHECK: st.take_out (action 1): no storage block at (0, 0, 3, 3), (0, 0, memory)

// -----

// Seed: only storage is taken out over a range of phases.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_in 3 at (0, 0, 0, 0), (0, 1, axon)
  st.take_out 3 at (0, 0, 0, 0), (0, 1, axon) to (0, 0, 0, 0), (0, 2, axon)
}
// CHECK: st.take_out (action 2): block 3 (task.fc) at (0, 0, 0, 0), (0, 1, axon) to (0, 0, 0, 0), (0, 2, axon): an end coordinate takes storage out, at the memory stage only

// -----

// A compute block runs at its kind's stage (fc: axon).
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_in 3 at (0, 0, 0, 0), (0, 1, soma1)
}
// CHECK: st.put_in (action 1): block 3 (task.fc) at (0, 0, 0, 0), (0, 1, soma1): a task.fc is placed at the axon stage, not soma1

// -----

// Storage lives at the memory stage.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_in 1 at (0, 0, 0, 0), (0, 1, axon)
}
// CHECK: st.put_in (action 1): block 1 (task.weight) at (0, 0, 0, 0), (0, 1, axon): a task.weight is placed at the memory stage, not axon

// -----

// Network inputs arrive at router_recv.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_in 5 at (0, 0, 0, 0), (0, 1, memory)
}
// CHECK: st.put_in (action 1): block 5 (task.input) at (0, 0, 0, 0), (0, 1, memory): a task.input is placed at the router_recv stage, not memory

// -----

// Compute blocks run on computing tiles (aie-ml row 1 is a memory tile).
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "aie-ml" {
  st.put_in 3 at (0, 0, 1, 0), (0, 0, axon)
}
// CHECK: st.put_in (action 1): block 3 (task.fc) at (0, 0, 1, 0), (0, 0, axon): core (0, 0, 1, 0) is a memory_tile, which does not compute

// -----

// A compute block is placed once.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_in 3 at (0, 0, 0, 0), (0, 1, axon)
  st.put_in 3 at (0, 0, 0, 1), (0, 1, axon)
}
// CHECK: st.put_in (action 2): block 3 (task.fc) at (0, 0, 0, 1), (0, 1, axon): it is already at (0, 0, 0, 0), (0, 1, axon) (take it out first)

// -----

// A placed block is taken out before it is split.
task.graph @big {
  %x = task.input 0 "x" : tensor<1x64x64x32xi8>
  %in = task.buffer 1 sic %x : tensor<1x64x64x32xi8>
  %w = task.weight 2 #task.random<1> : tensor<32x3x3x32xi8>
  %c = task.conv 3 %in, %w pad [1, 1, 1, 1] shift 9 : tensor<1x64x64x32xi8>
  %r_in = task.buffer 4 si %c : tensor<1x64x64x32xi8>
  %r = task.relu 5 %r_in : tensor<1x64x64x32xi8>
  %out = task.buffer 6 so %r : tensor<1x64x64x32xi8>
  task.output 7 "y" %out
}
st.mapping @big target "tianjicx" {
  st.put_in 3 at (0, 0, 0, 0), (0, 1, axon)
  st.put_in 5 at (0, 0, 0, 0), (0, 1, soma1)
  st.split_task 5 by [2, 1, 1, 1]
}
// CHECK: st.split_task (action 3): block 5 (task.relu) is placed at (0, 0, 0, 0), (0, 1, soma1); take it out before splitting 5

// -----

// One compute block per stage, core and phase (two relus at soma1).
task.graph @two {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %a_in = task.buffer 1 si %x : tensor<1x4x4x32xi8>
  %a = task.relu 2 %a_in : tensor<1x4x4x32xi8>
  %b_in = task.buffer 3 si %a : tensor<1x4x4x32xi8>
  %b = task.relu 4 %b_in : tensor<1x4x4x32xi8>
  %out = task.buffer 5 so %b : tensor<1x4x4x32xi8>
  task.output 6 "y" %out
}
st.mapping @two target "tianjicx" {
  st.put_in 2 at (0, 0, 0, 0), (0, 0, soma1)
  st.put_in 4 at (0, 0, 0, 0), (0, 0, soma1)
}
// CHECK: st.put_in (action 2): block 4 (task.relu) at (0, 0, 0, 0), (0, 0, soma1): soma1 of core (0, 0, 0, 0) in phase 0 already holds block 2 (task.relu); one block per stage, core and phase

// -----

// A storage block lives on one core.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_in 1 at (0, 0, 0, 0), (0, 0, memory)
  st.put_in 1 at (0, 0, 0, 1), (0, 1, memory)
}
// CHECK: st.put_in (action 2): block 1 (task.weight) at (0, 0, 0, 1), (0, 1, memory): it already lives on core (0, 0, 0, 0) in step 0; a storage block lives on one core (take it out first)

// -----

// Local memory per core and phase: the 64x64x32 input (131072 B) and its 3x3 weight (9216 B) fit 143360 B, the relu's input does not fit beside them.
task.graph @big {
  %x = task.input 0 "x" : tensor<1x64x64x32xi8>
  %in = task.buffer 1 sic %x : tensor<1x64x64x32xi8>
  %w = task.weight 2 #task.random<1> : tensor<32x3x3x32xi8>
  %c = task.conv 3 %in, %w pad [1, 1, 1, 1] shift 9 : tensor<1x64x64x32xi8>
  %r_in = task.buffer 4 si %c : tensor<1x64x64x32xi8>
  %r = task.relu 5 %r_in : tensor<1x64x64x32xi8>
  %out = task.buffer 6 so %r : tensor<1x64x64x32xi8>
  task.output 7 "y" %out
}
st.mapping @big target "tianjicx" {
  st.put_group_in 3 at (0, 0, 0, 0), (0, 0, axon)
  st.put_in 4 at (0, 0, 0, 0), (0, 0, memory)
}
// CHECK: st.put_in (action 2): block 4 (task.buffer) at (0, 0, 0, 0), (0, 0, memory): local memory of core (0, 0, 0, 0) in phase 0 overflows: 140288 B in use + 131072 B > 143360 B usable

// -----

// A compute block shares core and phase with its input storage (checked when the script ends).
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_in 1 at (0, 0, 0, 0), (0, 0, memory)
  st.put_in 3 at (0, 0, 0, 0), (0, 1, axon)
}
// CHECK: st.put_in (action 2): block 3 (task.fc) at (0, 0, 0, 0), (0, 1, axon) reads block 1 (task.weight) at (0, 0, 0, 0), (0, 0, memory); a compute block shares core, step and phase with its input storage

// -----

// A storage block lives in one contiguous range of phases (checked when the script ends);
// the take_out that made the gap is to blame.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_in 1 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 2, memory)
  st.take_out 1 at (0, 0, 0, 0), (0, 1, memory)
}
// CHECK: st.take_out (action 2): block 1 (task.weight) lives in phases 0, 2 of core (0, 0, 0, 0) in step 0; a storage block lives in one contiguous range of phases

// -----

// Co-location: the put_in that moved the weight away from its fc is to blame, not the
// put_group_in before it.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_group_in 3 at (0, 0, 0, 0), (0, 1, axon)
  st.take_out 1 at (0, 0, 0, 0), (0, 1, memory)
  st.put_in 1 at (0, 0, 0, 0), (0, 0, memory)
}
// CHECK: st.put_in (action 3): block 3 (task.fc) at (0, 0, 0, 0), (0, 1, axon) reads block 1 (task.weight) at (0, 0, 0, 0), (0, 0, memory); a compute block shares core, step and phase with its input storage

// -----

// Seed: take_out at the memory stage takes a storage block.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_in 3 at (0, 0, 0, 0), (0, 1, axon)
  st.take_out 3 at (0, 0, 0, 0), (0, 1, memory)
}
// CHECK: st.take_out (action 2): block 3 (task.fc) at (0, 0, 0, 0), (0, 1, memory): not a storage block, so never at the memory stage

// -----

// Seed: the end coordinate of a take_out of every storage block.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_in 1 at (0, 0, 0, 0), (0, 0, memory)
  st.take_out at (0, 0, 0, 0), (0, 1, memory) to (0, 0, 0, 0), (0, 0, memory)
}
// CHECK: st.take_out (action 2): storage at (0, 0, 0, 0), (0, 1, memory) to (0, 0, 0, 0), (0, 0, memory): the end phase 0 comes before the start phase 1

// -----

// Seed: ky and kx are never split (a Shape's nky and nkx are 1).
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.split_task 3 by [1, 1, 1, 1, 2, 1]
}
// CHECK: st.split_task (action 1): task.fc 3: ky and kx are never split, got nky=2 nkx=1

// -----

// Seed: only compute blocks are split.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.split_task 1 by [1, 1, 2, 1]
}
// CHECK: st.split_task (action 1): block 1 (task.weight) is a storage block; only compute blocks are split

// -----

// split_group names each block once.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.split_group [3, 3] by [1, 1, 2, 1]
}
// CHECK: st.split_group (action 1): block 3 is named twice

// -----

// Storage needs local memory: an aie-ml shim tile has none.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "aie-ml" {
  st.put_in 1 at (0, 0, 0, 0), (0, 0, memory)
}
// CHECK: st.put_in (action 1): block 1 (task.weight) at (0, 0, 0, 0), (0, 0, memory): core (0, 0, 0, 0) is a shim_tile, which has no local memory

// -----

// Unknown block.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_in 42 at (0, 0, 0, 0), (0, 0, memory)
}
// CHECK: st.put_in (action 1): task.graph @fc has no block 42

// -----

// A block whose input storage is placed is not split either.
task.graph @big {
  %x = task.input 0 "x" : tensor<1x64x64x32xi8>
  %in = task.buffer 1 sic %x : tensor<1x64x64x32xi8>
  %w = task.weight 2 #task.random<1> : tensor<32x3x3x32xi8>
  %c = task.conv 3 %in, %w pad [1, 1, 1, 1] shift 9 : tensor<1x64x64x32xi8>
  %r_in = task.buffer 4 si %c : tensor<1x64x64x32xi8>
  %r = task.relu 5 %r_in : tensor<1x64x64x32xi8>
  %out = task.buffer 6 so %r : tensor<1x64x64x32xi8>
  task.output 7 "y" %out
}
st.mapping @big target "tianjicx" {
  st.put_in 2 at (0, 0, 0, 0), (0, 0, memory)
  st.split_task 3 by [2, 1, 1, 1]
}
// CHECK: st.split_task (action 2): block 2 (task.weight) is placed at (0, 0, 0, 0), (0, 0, memory); take it out before splitting 3

// -----

// task-split's own checks, named after the action.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.split_group [3] by [1, 1, 64, 1]
}
// CHECK: st.split_group (action 1): task.fc 3: cannot split f (32 channels) into 64 pieces

// -----

// Area groups: an unknown tile type.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.area_group "g" [3] {aie_tile columns 0 to 1 rows 0 to 1}
}
// CHECK: st.area_group (action 1): area group 'g': tianjicx has no tile type 'aie_tile'; it has core

// -----

// Area groups: a rectangle outside its tile type (aie-ml has 8 rows of aie tiles).
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "aie-ml" {
  st.area_group "g" [3] {aie_tile columns 0 to 1 rows 0 to 8}
}
// CHECK: st.area_group (action 1): area group 'g': aie_tile columns 0 to 1 rows 0 to 8 is outside the 38 columns x 8 rows of aie_tile tiles

// -----

// Area groups: an unknown member.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.area_group "g" [3, 9] {core columns 0 to 1 rows 0 to 1}
}
// CHECK: st.area_group (action 1): task.graph @fc has no block 9

// -----

// Area groups: a name is declared once.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.area_group "g" [3] {core columns 0 to 1 rows 0 to 1}
  st.area_group "g" [1] {core columns 0 to 1 rows 0 to 1}
}
// CHECK: st.area_group (action 2): area group 'g' is declared twice

// -----

// Area groups: blocks placed before the group is declared obey it too.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_in 3 at (0, 0, 5, 5), (0, 0, axon)
  st.area_group "g" [3] {core columns 0 to 1 rows 0 to 1}
}
// CHECK: st.area_group (action 2): block 3 (task.fc) at (0, 0, 5, 5), (0, 0, axon): a node of area group 'g' must be placed inside it

// -----

// Area groups: a member's input storage is a node of the group and must be inside.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.area_group "g" [3] {core columns 0 to 1 rows 0 to 1}
  st.put_in 1 at (0, 0, 4, 4), (0, 0, memory)
}
// CHECK: st.put_in (action 2): block 1 (task.weight) at (0, 0, 4, 4), (0, 0, memory): a node of area group 'g' must be placed inside it

// -----

// Area groups: a member that a split removes is replaced by the blocks the split creates.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.area_group "g" [3] {core columns 0 to 1 rows 0 to 1}
  st.split_task 3 by [1, 1, 2, 1]
  st.put_in 10 at (0, 0, 4, 4), (0, 0, axon)
}
// CHECK: st.put_in (action 3): block 10 (task.fc) at (0, 0, 4, 4), (0, 0, axon): a node of area group 'g' must be placed inside it

// -----

// share_data: the blocks' data blocks hold the same box of the same tensor (the pieces of a
// split along f hold different output channels of the weight).
task.graph @conv {
  %x = task.input 0 "x" : tensor<2x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<2x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %b = task.bias 3 #task.random<8> : tensor<32xi32>
  %c = task.conv 4 %in, %w bias %b pad [1, 1, 1, 1] shift 9 : tensor<2x8x8x32xi8>
  %out = task.buffer 5 so %c : tensor<2x8x8x32xi8>
  task.output 6 "y" %out
}
st.mapping @conv target "set-8x8" {
  st.split_task 4 by [1, 1, 1, 2, 1]
  st.share_data [10, 14]
}
// CHECK: st.share_data (action 2): block 12 (task.weight) of block 14 does not hold what block 10 reads in its place

// -----

// share_data erases the others' data blocks, so they must not be placed.
task.graph @conv {
  %x = task.input 0 "x" : tensor<2x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<2x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %b = task.bias 3 #task.random<8> : tensor<32xi32>
  %c = task.conv 4 %in, %w bias %b pad [1, 1, 1, 1] shift 9 : tensor<2x8x8x32xi8>
  %out = task.buffer 5 so %c : tensor<2x8x8x32xi8>
  task.output 6 "y" %out
}
st.mapping @conv target "set-8x8" {
  st.split_task 4 by [2, 1, 1, 1, 1]
  st.put_in 12 at (0, 0, 0, 0), (0, 1, memory)
  st.share_data [10, 14]
}
// CHECK: st.share_data (action 3): block 12 (task.weight) is placed at (0, 0, 0, 0), (0, 1, memory); take it out before sharing

// -----

// store_late marks compute blocks: a storage block has no result to store.
task.graph @conv {
  %x = task.input 0 "x" : tensor<2x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<2x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %c = task.conv 4 %in, %w pad [1, 1, 1, 1] shift 9 : tensor<2x8x8x32xi8>
  %out = task.buffer 5 so %c : tensor<2x8x8x32xi8>
  task.output 6 "y" %out
}
st.mapping @conv target "set-8x8" {
  st.store_late [4, 5]
}
// CHECK: st.store_late (action 1): block 5 (task.buffer) is a storage block; only a compute block stores late

// -----

task.graph @conv {
  %x = task.input 0 "x" : tensor<2x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<2x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %c = task.conv 4 %in, %w pad [1, 1, 1, 1] shift 9 : tensor<2x8x8x32xi8>
  %out = task.buffer 5 so %c : tensor<2x8x8x32xi8>
  task.output 6 "y" %out
}
st.mapping @conv target "set-8x8" {
  st.store_late [4, 4]
}
// CHECK: st.store_late (action 1): block 4 is named twice

// -----

// keep marks compute blocks: a storage block holds no result of its own to keep.
task.graph @conv {
  %x = task.input 0 "x" : tensor<2x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<2x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %c = task.conv 4 %in, %w pad [1, 1, 1, 1] shift 9 : tensor<2x8x8x32xi8>
  %out = task.buffer 5 so %c : tensor<2x8x8x32xi8>
  task.output 6 "y" %out
}
st.mapping @conv target "set-8x8" {
  st.keep [4, 5]
}
// CHECK: st.keep (action 1): block 5 (task.buffer) is a storage block; only a compute block keeps its result

// -----

task.graph @conv {
  %x = task.input 0 "x" : tensor<2x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<2x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %c = task.conv 4 %in, %w pad [1, 1, 1, 1] shift 9 : tensor<2x8x8x32xi8>
  %out = task.buffer 5 so %c : tensor<2x8x8x32xi8>
  task.output 6 "y" %out
}
st.mapping @conv target "set-8x8" {
  st.keep [4, 4]
}
// CHECK: st.keep (action 1): block 4 is named twice

// -----

task.graph @conv {
  %x = task.input 0 "x" : tensor<2x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<2x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %c = task.conv 4 %in, %w pad [1, 1, 1, 1] shift 9 : tensor<2x8x8x32xi8>
  %out = task.buffer 5 so %c : tensor<2x8x8x32xi8>
  task.output 6 "y" %out
}
st.mapping @conv target "set-8x8" {
  st.keep [9]
}
// CHECK: st.keep (action 1): task.graph @conv has no block 9
