// RUN: stc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect | filecheck %s

// One case per verifier message of the task dialect.

// Input rank.
task.graph @g {
  %x = task.input 0 "x" : tensor<8x8x16xi8>
}
// CHECK: task.input 0: inputs are NHWC tensors of rank 4, got tensor<8x8x16xi8>

// -----

// Input precision.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi32>
}
// CHECK: task.input 0: an input must have i8 elements, got tensor<1x8x8x16xi32>

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
// CHECK: task.buffer 1: buffers are NHWC tensors of rank 4, got tensor<8x8x16xi8>

// -----

// Buffer precision.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = "task.buffer"(%x) <{id = 1 : i64, kind = #task<kind si>, boxes = [#task.box<[0:1, 0:8, 0:8, 0:16]>], offsets = [array<i64: 0, 0, 0, 0>]}> : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi16>
}
// CHECK: task.buffer 1: a buffer must have i8 or i32 elements, got tensor<1x8x8x16xi16>

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
// CHECK: task.buffer 1: a buffer feeds at most one compute block, this one feeds 2, 3

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
// CHECK: task.bias 2: result tensor<8xi32> must have the box's shape [4]

// -----

// Data result element type.
task.graph @g {
  %b = "task.bias"() <{id = 2 : i64, data = #task.random<7>, full_type = tensor<8xi32>}> : () -> tensor<8xi8>
}
// CHECK: task.bias 2: result and data element types differ

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
// CHECK: task.relu 2: results are NHWC tensors of rank 4, got tensor<8x8x16xi8>

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

// An activation that is not a buffer.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<1x8x8x16xi8>
  %r = task.relu 3 %w : tensor<1x8x8x16xi8>
}
// CHECK: task.relu 3: operand `input` must be an activation buffer (task.buffer)

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

// Stride.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %c = task.conv 3 %in, %w stride [0, 1] : tensor<1x8x8x32xi8>
}
// CHECK: task.conv 3: stride must be two integers >= 1, got [0, 1]

// -----

// Pad.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %c = task.conv 3 %in, %w pad [1, 1] : tensor<1x8x8x32xi8>
}
// CHECK: task.conv 3: pad must be four integers >= 0 [top, bottom, left, right], got [1, 1]

// -----

// Dilation.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %c = task.conv 3 %in, %w dilation [1, 0] : tensor<1x8x8x32xi8>
}
// CHECK: task.conv 3: dilation must be two integers >= 1, got [1, 0]

// -----

// Window.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %p = task.maxpool 2 %in window [2] : tensor<1x7x7x16xi8>
}
// CHECK: task.maxpool 2: window must be two integers >= 1, got [2]

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

// A window larger than the input.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %p = task.maxpool 2 %in window [9, 1] : tensor<1x1x8x16xi8>
}
// CHECK: task.maxpool 2: window extent [9, 1] does not fit the padded 8x8 input

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

// Duplicate output names.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 so %x : tensor<1x8x8x16xi8>
  task.output 2 "y" %in
  task.output 3 "y" %in
}
// CHECK: task.graph @g: output name 'y' is used twice
