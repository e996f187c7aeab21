// RUN: stc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect | filecheck %s

// One case per verifier message of the task dialect.

// Input rank.
task.graph @g {
  %x = task.input 0 "x" : tensor<8x8x16xi8>
}
// CHECK: task.input 0: an input must have rank 4, got tensor<8x8x16xi8>

// -----

// Input precision.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi32>
}
// CHECK: task.input 0: an input must have i8 elements, got tensor<1x8x8x16xi32>

// -----

// A tensor larger than any target's memory (its element count overflows 64 bits).
task.graph @g {
  %x = task.input 0 "x" : tensor<4294967296x4294967296x1x1xi8>
}
// CHECK: task.input 0: an input holds 18446744073709551616 bytes, more than any target holds (8589934592 bytes), in tensor<4294967296x4294967296x1x1xi8>

// -----

// Just past the bound, in a weight of i8 (8 GiB + 1 byte is 2^33 + 1 elements).
task.graph @g {
  %w = task.weight 1 #task.random<1> : tensor<8589934593x1x1x1xi8>
}
// CHECK: task.weight 1: data holds 8589934593 bytes, more than any target holds (8589934592 bytes), in tensor<8589934593x1x1x1xi8>
// -----

// Input signedness: i8 means signless.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xui8>
}
// CHECK: task.input 0: an input must have i8 elements, got tensor<1x8x8x16xui8>

// -----

// Input with a dynamic dimension.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x?x8x16xi8>
}
// CHECK: task.input 0: an input must have static, positive dimensions, got tensor<1x?x8x16xi8>

// -----

// Input with an empty dimension.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x0x8x16xi8>
}
// CHECK: task.input 0: an input must have static, positive dimensions, got tensor<1x0x8x16xi8>

// -----

// Input with an encoding.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8, "nchw">
}
// CHECK: task.input 0: an input must have no encoding, got tensor<1x8x8x16xi8, "nchw">

// -----

// Output of a non-buffer.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  task.output 1 "y" %x
}
// CHECK: task.output 1: an output reads an activation buffer (task.buffer)

// -----

// Buffer rank.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = "task.buffer"(%x) <{id = 1 : i64, kind = #task<kind si>, boxes = [#task.box<[0:1, 0:8, 0:8, 0:16]>], offsets = [array<i64: 0, 0, 0, 0>]}> : (tensor<1x8x8x16xi8>) -> tensor<8x8x16xi8>
}
// CHECK: task.buffer 1: a buffer must have rank 4, got tensor<8x8x16xi8>

// -----

// Buffer precision.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = "task.buffer"(%x) <{id = 1 : i64, kind = #task<kind si>, boxes = [#task.box<[0:1, 0:8, 0:8, 0:16]>], offsets = [array<i64: 0, 0, 0, 0>]}> : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi16>
}
// CHECK: task.buffer 1: a buffer must have i8 or i32 elements, got tensor<1x8x8x16xi16>
// -----

// Buffer signedness.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xsi8>
}
// CHECK: task.buffer 1: a buffer must have i8 or i32 elements, got tensor<1x8x8x16xsi8>

// -----

// Boxes per source.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = "task.buffer"(%x) <{id = 1 : i64, kind = #task<kind si>, boxes = [], offsets = [array<i64: 0, 0, 0, 0>]}> : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
}
// CHECK: task.buffer 1: 1 sources need as many boxes and offsets, got 0 and 1

// -----

// Source of a buffer.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %in2 = task.buffer 3 si %w : tensor<32x3x3x16xi8>
}
// CHECK: task.buffer 3: source #0 must be the result of a compute block or an input, got task.weight
// -----

// A buffer reading an argument of the graph's body.
"task.graph"() <{sym_name = "g"}> ({
^bb0(%arg: tensor<1x8x8x16xi8>):
  %in = "task.buffer"(%arg) <{id = 1 : i64, kind = #task<kind si>, boxes = [#task.box<[0:1, 0:8, 0:8, 0:16]>], offsets = [array<i64: 0, 0, 0, 0>]}> : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
}) : () -> ()
// CHECK: task.buffer 1: source #0 must be the result of a compute block or an input, got a block argument

// -----

// A source defined after its buffer, and not what an input may be.
"task.graph"() <{sym_name = "g"}> ({
  %in = "task.buffer"(%x) <{id = 1 : i64, kind = #task<kind si>, boxes = [#task.box<[0:8, 0:8, 0:16]>], offsets = [array<i64: 0, 0, 0>]}> : (tensor<8x8x16xi8>) -> tensor<1x8x8x16xi8>
  %x = "task.input"() <{id = 0 : i64, name = "x"}> : () -> tensor<8x8x16xi8>
}) : () -> ()
// CHECK: task.buffer 1: source #0 must have rank 4, got tensor<8x8x16xi8>

// -----

// Buffer element type.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi32>
}
// CHECK: task.buffer 1: source #0 has i8 elements, the buffer i32

// -----

// Box outside the source.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x[0:1, 0:9, 0:8, 0:16] : tensor<1x9x8x16xi8>
}
// CHECK: task.buffer 1: box [0:1, 0:9, 0:8, 0:16] of source #0 is not inside its [1, 8, 8, 16] result

// -----

// Offset rank.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x at [0, 0, 0] : tensor<1x8x8x16xi8>
}
// CHECK: task.buffer 1: offset [0, 0, 0] of source #0 needs rank 4
// -----

// An empty offset is not offset zero.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x at [] : tensor<1x8x8x16xi8>
}
// CHECK: task.buffer 1: offset [] of source #0 needs rank 4

// -----

// Box placed outside the buffer.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x at [0, 1, 0, 0] : tensor<1x8x8x16xi8>
}
// CHECK: task.buffer 1: sources do not tile the buffer: box at [0, 1, 0, 0] of shape [1, 8, 8, 16] lies outside [1, 8, 8, 16]

// -----

// Overlapping boxes.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x[0:1, 0:5, 0:8, 0:16], %x[0:1, 3:8, 0:8, 0:16] at [0, 3, 0, 0] : tensor<1x8x8x16xi8>
}
// CHECK: task.buffer 1: sources do not tile the buffer: boxes hold 1280 elements but the buffer has 1024: they overlap

// -----

// A hole in a buffer.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x[0:1, 0:4, 0:8, 0:16] : tensor<1x8x8x16xi8>
}
// CHECK: task.buffer 1: sources do not tile the buffer: element [0, 4, 0, 0] of the buffer is written by no source

// -----

// Overlap hiding a hole.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x[0:1, 0:5, 0:8, 0:16], %x[0:1, 0:3, 0:8, 0:16] at [0, 4, 0, 0] : tensor<1x8x8x16xi8>
}
// CHECK: task.buffer 1: sources do not tile the buffer: element [0, 7, 0, 0] of the buffer is written by no source

// -----

// A buffer feeding two blocks.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %a = task.relu 2 %in : tensor<1x8x8x16xi8>
  %b = task.relu 3 %in : tensor<1x8x8x16xi8>
}
// CHECK: task.buffer 1: a buffer feeds one operand of at most one compute block, this one feeds operand #0 of task.relu 2, operand #0 of task.relu 3
// -----

// A buffer feeding both operands of one block.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %m = task.mul 2 %in, %in : tensor<1x8x8x16xi8>
}
// CHECK: task.buffer 1: a buffer feeds one operand of at most one compute block, this one feeds operand #0 of task.mul 2, operand #1 of task.mul 2

// -----

// An so buffer feeding a block.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 so %x : tensor<1x8x8x16xi8>
  %a = task.relu 2 %in : tensor<1x8x8x16xi8>
}
// CHECK: task.buffer 1: an `so` buffer is read only by outputs

// -----

// Weight rank.
task.graph @g {
  %w = task.weight 2 #task.random<7> : tensor<32x16xi8>
}
// CHECK: task.weight 2: data must have rank 4, got tensor<32x16xi8>

// -----

// Bias precision.
task.graph @g {
  %b = task.bias 2 #task.random<7> : tensor<32xi8>
}
// CHECK: task.bias 2: data must have i32 elements, got tensor<32xi8>
// -----

// Bias signedness.
task.graph @g {
  %b = task.bias 2 #task.random<7> : tensor<32xsi32>
}
// CHECK: task.bias 2: data must have i32 elements, got tensor<32xsi32>

// -----

// Weight precision.
task.graph @g {
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi32>
}
// CHECK: task.weight 2: data must have i8 elements, got tensor<32x3x3x16xi32>

// -----

// Table precision.
task.graph @g {
  %t = task.table 2 #task.random<7> : tensor<256xi32>
}
// CHECK: task.table 2: data must have i8 elements, got tensor<256xi32>

// -----

// Data with a dynamic dimension.
task.graph @g {
  %w = task.weight 2 #task.random<7> : tensor<32x3x?x16xi8>
}
// CHECK: task.weight 2: data must have static, positive dimensions, got tensor<32x3x?x16xi8>

// -----

// Dense data of another type.
task.graph @g {
  %b = "task.bias"() <{id = 2 : i64, data = dense<[1, 2]> : tensor<2xi32>, full_type = tensor<3xi32>}> : () -> tensor<3xi32>
}
// CHECK: task.bias 2: dense data of type tensor<2xi32> does not match tensor<3xi32>

// -----

// Data box outside the data.
task.graph @g {
  %b = task.bias 2 #task.random<7> : tensor<8xi32>[4:9]
}
// CHECK: task.bias 2: box [4:9] is not inside the data's [8]

// -----

// Data result shape.
task.graph @g {
  %b = "task.bias"() <{id = 2 : i64, data = #task.random<7>, full_type = tensor<8xi32>, box = #task.box<[0:4]>}> : () -> tensor<8xi32>
}
// CHECK: task.bias 2: result tensor<8xi32> must be tensor<4xi32>, the type of box [0:4] of the data

// -----

// Data result element type.
task.graph @g {
  %b = "task.bias"() <{id = 2 : i64, data = #task.random<7>, full_type = tensor<8xi32>}> : () -> tensor<8xi8>
}
// CHECK: task.bias 2: result tensor<8xi8> must be tensor<8xi32>, the type of box [0:8] of the data

// -----

// Table size.
task.graph @g {
  %t = task.table 2 #task.random<7> : tensor<128xi8>
}
// CHECK: task.table 2: a lookup table holds exactly 256 entries, got tensor<128xi8>

// -----

// Result precision.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %r = task.relu 2 %in : tensor<1x8x8x16xi16>
}
// CHECK: task.relu 2: the result must have i8 or i32 elements, got tensor<1x8x8x16xi16>

// -----

// Result rank.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %r = task.relu 2 %in : tensor<8x8x16xi8>
}
// CHECK: task.relu 2: the result must have rank 4, got tensor<8x8x16xi8>
// -----

// Result signedness.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %r = task.relu 2 %in : tensor<1x8x8x16xui8>
}
// CHECK: task.relu 2: the result must have i8 or i32 elements, got tensor<1x8x8x16xui8>

// -----

// Result with an encoding.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %r = task.relu 2 %in : tensor<1x8x8x16xi8, "nchw">
}
// CHECK: task.relu 2: the result must have no encoding, got tensor<1x8x8x16xi8, "nchw">

// -----

// Shift range.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %r = task.relu 2 %in shift 32 : tensor<1x8x8x16xi8>
}
// CHECK: task.relu 2: shift must be in [0, 31], got 32

// -----

// A compute result read by an output.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %r = task.relu 2 %in : tensor<1x8x8x16xi8>
  task.output 3 "y" %r
}
// CHECK: task.relu 2: a compute result is read only by buffers, not by task.output

// -----

// Storage kind of an input.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %c = task.conv 3 %in, %w pad [1, 1, 1, 1] : tensor<1x8x8x32xi8>
}
// CHECK: task.conv 3: reads buffer 1 of kind si, expected sic
// -----

// Storage kind of an fc input.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<10x8x8x16xi8>
  %f = task.fc 3 %in, %w : tensor<1x1x1x10xi8>
}
// CHECK: task.fc 3: reads buffer 1 of kind sic, expected sifc

// -----

// Storage kind of a vector block's input.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sifc %x : tensor<1x8x8x16xi8>
  %r = task.relu 2 %in : tensor<1x8x8x16xi8>
}
// CHECK: task.relu 2: reads buffer 1 of kind sifc, expected si

// -----

// An activation that is not a buffer.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<1x8x8x16xi8>
  %r = task.relu 3 %w : tensor<1x8x8x16xi8>
}
// CHECK: task.relu 3: operand `input` must come from task.buffer

// -----

// Weights that are not weights.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.bias 2 #task.random<7> : tensor<32xi32>
  %c = task.conv 3 %in, %w : tensor<1x8x8x32xi8>
}
// CHECK: task.conv 3: operand `weight` must come from task.weight
// -----

// A weight defined after its conv, and not what a weight may be.
"task.graph"() <{sym_name = "g"}> ({
  %x = "task.input"() <{id = 0 : i64, name = "x"}> : () -> tensor<1x8x8x16xi8>
  %in = "task.buffer"(%x) <{id = 1 : i64, kind = #task<kind sic>, boxes = [#task.box<[0:1, 0:8, 0:8, 0:16]>], offsets = [array<i64: 0, 0, 0, 0>]}> : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
  %c = "task.conv"(%in, %w) <{id = 3 : i64}> : (tensor<1x8x8x16xi8>, tensor<32x16xi8>) -> tensor<1x8x8x32xi8>
  %w = "task.weight"() <{id = 2 : i64, data = #task.random<7>, full_type = tensor<32x16xi8>}> : () -> tensor<32x16xi8>
}) : () -> ()
// CHECK: task.conv 3: operand `weight` must have rank 4, got tensor<32x16xi8>

// -----

// Bias that is not a bias.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %c = task.conv 3 %in, %w bias %w pad [1, 1, 1, 1] : tensor<1x8x8x32xi8>
}
// CHECK: task.conv 3: operand `bias` must come from task.bias

// -----

// Bias size.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %b = task.bias 3 #task.random<8> : tensor<16xi32>
  %c = task.conv 4 %in, %w bias %b pad [1, 1, 1, 1] : tensor<1x8x8x32xi8>
}
// CHECK: task.conv 4: bias tensor<16xi32> must hold 32 channels
// -----

// Fc bias size.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sifc %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<10x8x8x16xi8>
  %b = task.bias 3 #task.random<8> : tensor<16xi32>
  %f = task.fc 4 %in, %w bias %b : tensor<1x1x1x10xi8>
}
// CHECK: task.fc 4: bias tensor<16xi32> must hold 10 channels

// -----

// Add bias size.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %b = task.bias 2 #task.random<8> : tensor<8xi32>
  %s = task.add 3 %in bias %b : tensor<1x8x8x16xi8>
}
// CHECK: task.add 3: bias tensor<8xi32> must hold 16 channels

// -----

// Mul bias size.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %a = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %c = task.buffer 2 si %x : tensor<1x8x8x16xi8>
  %b = task.bias 3 #task.random<8> : tensor<8xi32>
  %m = task.mul 4 %a, %c bias %b : tensor<1x8x8x16xi8>
}
// CHECK: task.mul 4: bias tensor<8xi32> must hold 16 channels

// -----

// Avgpool bias size.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %b = task.bias 2 #task.random<8> : tensor<8xi32>
  %p = task.avgpool 3 %in bias %b window [8, 8] : tensor<1x1x1x16xi8>
}
// CHECK: task.avgpool 3: bias tensor<8xi32> must hold 16 channels

// -----

// A bias defined after its block, and not what a bias may be.
"task.graph"() <{sym_name = "g"}> ({
  %x = "task.input"() <{id = 0 : i64, name = "x"}> : () -> tensor<1x8x8x16xi8>
  %in = "task.buffer"(%x) <{id = 1 : i64, kind = #task<kind si>, boxes = [#task.box<[0:1, 0:8, 0:8, 0:16]>], offsets = [array<i64: 0, 0, 0, 0>]}> : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
  %s = "task.add"(%in, %b) <{id = 3 : i64, shift = 0 : i64, operandSegmentSizes = array<i32: 1, 1>}> : (tensor<1x8x8x16xi8>, tensor<16xi8>) -> tensor<1x8x8x16xi8>
  %b = "task.bias"() <{id = 2 : i64, data = #task.random<7>, full_type = tensor<16xi8>}> : () -> tensor<16xi8>
}) : () -> ()
// CHECK: task.add 3: operand `bias` must have i32 elements, got tensor<16xi8>

// -----

// Stride.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %c = task.conv 3 %in, %w stride [0, 1] : tensor<1x8x8x32xi8>
}
// CHECK: task.conv 3: stride must be two integers in [1, 65535], got [0, 1]

// -----

// Pad.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %c = task.conv 3 %in, %w pad [1, 1] : tensor<1x8x8x32xi8>
}
// CHECK: task.conv 3: pad must be four integers in [0, 65535] (top, bottom, left, right), got [1, 1]

// -----

// Dilation.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %c = task.conv 3 %in, %w dilation [1, 0] : tensor<1x8x8x32xi8>
}
// CHECK: task.conv 3: dilation must be two integers in [1, 65535], got [1, 0]

// -----

// Window.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %p = task.maxpool 2 %in window [2] : tensor<1x7x7x16xi8>
}
// CHECK: task.maxpool 2: window must be two integers in [1, 65535], got [2]
// -----

// A dilation beyond the limit, even on a 1x1 kernel that ignores it.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x1x1x16xi8>
  %c = task.conv 3 %in, %w dilation [9223372036854775807, 1] : tensor<1x8x8x32xi8>
}
// CHECK: task.conv 3: dilation must be two integers in [1, 65535], got [9223372036854775807, 1]

// -----

// A stride beyond the limit, even on a single window.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %p = task.maxpool 2 %in window [8, 8] stride [65536, 1] : tensor<1x1x1x16xi8>
}
// CHECK: task.maxpool 2: stride must be two integers in [1, 65535], got [65536, 1]

// -----

// Window parameters of another element type.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %p = "task.maxpool"(%in) <{id = 2 : i64, window = array<i64: 1, 1>, stride = array<f32: 1.0, 1.0>, pad = array<i64: 0, 0, 0, 0>, cmp = -128 : i64, shift = 0 : i64}> : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
}
// CHECK: Expected attribute i64 but got f32

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %p = "task.avgpool"(%in) <{id = 2 : i64, window = array<i64: 1, 1>, stride = array<i64: 1, 1>, pad = array<f64: 0.0, 0.0, 0.0, 0.0>, shift = 0 : i64, operandSegmentSizes = array<i32: 1, 0>}> : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
}
// CHECK: Expected attribute i64 but got f64

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %p = "task.maxpool"(%in) <{id = 2 : i64, window = array<i8: 1, 1>, cmp = -128 : i64, shift = 0 : i64}> : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
}
// CHECK: Expected attribute i64 but got i8

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = "task.buffer"(%x) <{id = 1 : i64, kind = #task<kind si>, boxes = [#task.box<[0:1, 0:8, 0:8, 0:16]>], offsets = [array<f32: 0.0, 0.0, 0.0, 0.0>]}> : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
}
// CHECK: Expected attribute i64 but got f32

// -----

// Pad as large as the window.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %c = task.conv 3 %in, %w pad [3, 0, 0, 0] : tensor<1x9x6x32xi8>
}
// CHECK: task.conv 3: pad [3, 0] must be smaller than the window extent 3
// -----

// Avgpool pad as large as the window.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %p = task.avgpool 2 %in window [2, 2] pad [0, 0, 0, 2] : tensor<1x7x9x16xi8>
}
// CHECK: task.avgpool 2: pad [0, 2] must be smaller than the window extent 2

// -----

// A window larger than the input.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %p = task.maxpool 2 %in window [9, 1] : tensor<1x1x8x16xi8>
}
// CHECK: task.maxpool 2: window extent [9, 1] does not fit the padded 8x8 input
// -----

// An avgpool window larger than the padded input.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %p = task.avgpool 2 %in window [4, 11] pad [0, 0, 1, 1] : tensor<1x5x1x16xi8>
}
// CHECK: task.avgpool 2: window extent [4, 11] does not fit the padded 8x8 input

// -----

// Avgpool result shape.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %p = task.avgpool 2 %in window [2, 2] stride [2, 2] : tensor<1x8x8x16xi8>
}
// CHECK: task.avgpool 2: result must be [1, 4, 4, 16] for these operands, got [1, 8, 8, 16]

// -----

// Maxpool result shape.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %p = task.maxpool 2 %in window [3, 3] stride [2, 2] pad [1, 1, 1, 1] : tensor<1x5x5x16xi8>
}
// CHECK: task.maxpool 2: result must be [1, 4, 4, 16] for these operands, got [1, 5, 5, 16]

// -----

// Maxpool compare value outside the input's i8 range.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %p = task.maxpool 2 %in window [2, 2] cmp 1000 : tensor<1x7x7x16xi8>
}
// CHECK: task.maxpool 2: cmp must be in [-128, 127], the range of the input's i8 elements, got 1000

// -----

// Relu compare value outside the input's i32 range.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %r_in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %r = task.relu 2 %r_in : tensor<1x8x8x16xi32>
  %in = task.buffer 3 si %r : tensor<1x8x8x16xi32>
  %q = task.relu 4 %in cmp -2147483649 : tensor<1x8x8x16xi8>
}
// CHECK: task.relu 4: cmp must be in [-2147483648, 2147483647], the range of the input's i32 elements, got -2147483649

// -----

// Conv result shape.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %c = task.conv 3 %in, %w : tensor<1x8x8x32xi8>
}
// CHECK: task.conv 3: result must be [1, 6, 6, 32] for these operands, got [1, 8, 8, 32]

// -----

// Conv input precision.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %r_in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %r = task.relu 2 %r_in : tensor<1x8x8x16xi32>
  %in = task.buffer 3 sic %r : tensor<1x8x8x16xi32>
  %w = task.weight 4 #task.random<7> : tensor<32x1x1x16xi8>
  %c = task.conv 5 %in, %w : tensor<1x8x8x32xi8>
}
// CHECK: task.conv 5: the input must have i8 elements, got tensor<1x8x8x16xi32>
// -----

// Fc input precision.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %r_in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %r = task.relu 2 %r_in : tensor<1x8x8x16xi32>
  %in = task.buffer 3 sifc %r : tensor<1x8x8x16xi32>
  %w = task.weight 4 #task.random<7> : tensor<10x8x8x16xi8>
  %f = task.fc 5 %in, %w : tensor<1x1x1x10xi8>
}
// CHECK: task.fc 5: the input must have i8 elements, got tensor<1x8x8x16xi32>

// -----

// Conv channels.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x8xi8>
  %c = task.conv 3 %in, %w pad [1, 1, 1, 1] : tensor<1x8x8x32xi8>
}
// CHECK: task.conv 3: weight tensor<32x3x3x8xi8> must reduce over the input's 16 channels

// -----

// Fc weight span.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sifc %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<10x1x1x16xi8>
  %f = task.fc 3 %in, %w : tensor<1x1x1x10xi8>
}
// CHECK: task.fc 3: weight tensor<10x1x1x16xi8> must span the whole input tensor<1x8x8x16xi8>

// -----

// Fc result shape.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sifc %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<10x8x8x16xi8>
  %f = task.fc 3 %in, %w : tensor<1x1x1x8xi8>
}
// CHECK: task.fc 3: result must be [1, 1, 1, 10] for these operands, got [1, 1, 1, 8]

// -----

// Lut table.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %t = task.weight 2 #task.random<7> : tensor<1x1x1x256xi8>
  %l = task.lut 3 %in, %t : tensor<1x8x8x16xi8>
}
// CHECK: task.lut 3: operand `table` must come from task.table

// -----

// Lut result precision.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %t = task.table 2 #task.random<7> : tensor<256xi8>
  %l = task.lut 3 %in, %t : tensor<1x8x8x16xi32>
}
// CHECK: task.lut 3: the result must have i8 elements, got tensor<1x8x8x16xi32>
// -----

// Lut input precision.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %r_in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %r = task.relu 2 %r_in : tensor<1x8x8x16xi32>
  %in = task.buffer 3 si %r : tensor<1x8x8x16xi32>
  %t = task.table 4 #task.random<7> : tensor<256xi8>
  %l = task.lut 5 %in, %t : tensor<1x8x8x16xi8>
}
// CHECK: task.lut 5: the input must have i8 elements, got tensor<1x8x8x16xi32>

// -----

// Lut shape.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %t = task.table 2 #task.random<7> : tensor<256xi8>
  %l = task.lut 3 %in, %t : tensor<1x4x8x16xi8>
}
// CHECK: task.lut 3: input tensor<1x8x8x16xi8> must have the result's shape [1, 4, 8, 16]

// -----

// Relu shape.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %r = task.relu 2 %in : tensor<1x8x8x8xi8>
}
// CHECK: task.relu 2: input tensor<1x8x8x16xi8> must have the result's shape [1, 8, 8, 8]

// -----

// Add without branches.
task.graph @g {
  %a = "task.add"() <{id = 1 : i64, shift = 0 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> tensor<1x8x8x16xi8>
}
// CHECK: task.add 1: an add needs at least one branch

// -----

// Add branch shape.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %a_in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %b_in = task.buffer 2 si %x[0:1, 0:4, 0:8, 0:16] : tensor<1x4x8x16xi8>
  %s = task.add 3 %a_in, %b_in : tensor<1x8x8x16xi8>
}
// CHECK: task.add 3: branch #1 tensor<1x4x8x16xi8> must have the result's shape [1, 8, 8, 16]
// -----

// Mul shape.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %a = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %b = task.buffer 2 si %x[0:1, 0:8, 0:8, 0:8] : tensor<1x8x8x8xi8>
  %m = task.mul 3 %a, %b : tensor<1x8x8x16xi8>
}
// CHECK: task.mul 3: rhs tensor<1x8x8x8xi8> must have the result's shape [1, 8, 8, 16]

// -----

// Mul precision.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %r_in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %r = task.relu 2 %r_in : tensor<1x8x8x16xi32>
  %a = task.buffer 3 si %r : tensor<1x8x8x16xi32>
  %b = task.buffer 4 si %x : tensor<1x8x8x16xi8>
  %m = task.mul 5 %a, %b : tensor<1x8x8x16xi8>
}
// CHECK: task.mul 5: a product multiplies int8 operands, got tensor<1x8x8x16xi32>

// -----

// A foreign op in a graph.
task.graph @g {
  %c = "test.op"() : () -> i32
}
// CHECK: task.graph @g holds only task blocks, got test.op

// -----

// Duplicate ids.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 0 so %x : tensor<1x8x8x16xi8>
}
// CHECK: task.graph @g: id 0 is used by both task.input and task.buffer
// -----

// A negative id.
task.graph @g {
  %x = task.input -1 "x" : tensor<1x8x8x16xi8>
}
// CHECK: task.input -1: block ids must be >= 0

// -----

// Blocks outside a graph.
%x = task.input 0 "x" : tensor<1x8x8x16xi8>
%y = task.input 0 "y" : tensor<1x8x8x16xi8>
// CHECK: 'task.input' expects parent op 'task.graph'

// -----

// A graph body with arguments.
"task.graph"() <{sym_name = "g"}> ({
^bb0(%arg: tensor<1x8x8x16xi8>):
  %x = "task.input"() <{id = 0 : i64, name = "x"}> : () -> tensor<1x8x8x16xi8>
}) : () -> ()
// CHECK: task.graph @g: the body takes no arguments, got 1

// -----

// A use before its definition.
"task.graph"() <{sym_name = "g"}> ({
  %in = "task.buffer"(%x) <{id = 1 : i64, kind = #task<kind si>, boxes = [#task.box<[0:1, 0:8, 0:8, 0:16]>], offsets = [array<i64: 0, 0, 0, 0>]}> : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
  %x = "task.input"() <{id = 0 : i64, name = "x"}> : () -> tensor<1x8x8x16xi8>
}) : () -> ()
// CHECK: task.graph @g: task.buffer 1 reads task.input 0, which does not come before it (every block follows its producers)

// -----

// A cycle.
"task.graph"() <{sym_name = "g"}> ({
  %in = "task.buffer"(%r) <{id = 1 : i64, kind = #task<kind si>, boxes = [#task.box<[0:1, 0:8, 0:8, 0:16]>], offsets = [array<i64: 0, 0, 0, 0>]}> : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
  %r = "task.relu"(%in) <{id = 2 : i64, cmp = 0 : i64, shift = 0 : i64}> : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
}) : () -> ()
// CHECK: task.graph @g: task.buffer 1 reads task.relu 2, which does not come before it (every block follows its producers)

// -----

// Duplicate input names.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %y = task.input 1 "x" : tensor<1x8x8x16xi8>
}
// CHECK: task.graph @g: input name 'x' is used twice

// -----

// Duplicate output names.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 so %x : tensor<1x8x8x16xi8>
  task.output 2 "y" %in
  task.output 3 "y" %in
}
// CHECK: task.graph @g: output name 'y' is used twice
