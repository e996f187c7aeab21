// RUN: stc-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// Parse errors of the custom syntax point at the offending text.

task.graph @g {
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
}
// CHECK: %x is used before it is defined (a task graph lists every block after its producers)

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x[0:1, 4:4, 0:8, 0:16] : tensor<1x8x8x16xi8>
}
// CHECK: box interval 4:4 is empty or negative

// -----

task.graph @g {
  %x = task.input 0 "x" : i8
}
// CHECK: expected a tensor type

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sx %x : tensor<1x8x8x16xi8>
}
// CHECK: Expected one of 'si', 'sic', 'sifc', 'so' as the storage kind

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %r = task.relu 2 %in, %in : tensor<1x8x8x16xi8>
}
// CHECK: task.relu takes 1 operands (input), got 2

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %p = task.maxpool 2 %in : tensor<1x8x8x16xi8>
}
// CHECK: task.maxpool needs the clause `window`

// -----

task.graph @g {
  %w = task.weight 1 "weights.bin" : tensor<1x1x1x1xi8>
}
// CHECK: expected #task.random<seed>, #task.npz<path, key> or dense<...>

// -----

task.graph @g {
  %w = task.weight 1 #task.random<-1> : tensor<1x1x1x1xi8>
}
// CHECK: random seed must be in [0, 2^63), got -1

// -----

task.graph @g {
  %w = task.weight 1 #task.npz<"", "w"> : tensor<1x1x1x1xi8>
}
// CHECK: npz path and key must not be empty

// -----

task.graph @g {
  %w = task.weight 1 #task.npz<"w.npz", w> : tensor<1x1x1x1xi8>
}
// CHECK: string literal expected for the npz key

// -----

task.graph @g {
  %w = task.weight 1 #task.npz<w.npz, "w"> : tensor<1x1x1x1xi8>
}
// CHECK: string literal expected for the npz file path

// -----

task.graph @g {
  %x = task.input 0 x : tensor<1x8x8x16xi8>
}
// CHECK: string literal expected for the input name

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 so %x : tensor<1x8x8x16xi8>
  task.output 2 y %in
}
// CHECK: string literal expected for the output name

// -----

task.graph @g {
  %x = task.input 99999999999999999999 "x" : tensor<1x8x8x16xi8>
}
// CHECK: block id 99999999999999999999 does not fit in a 64-bit integer

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %r = task.relu 2 %in shift -9223372036854775809 : tensor<1x8x8x16xi8>
}
// CHECK: shift -9223372036854775809 does not fit in a 64-bit integer

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %p = task.maxpool 2 %in window [1, 1] stride [99999999999999999999, 1] : tensor<1x1x8x16xi8>
}
// CHECK: stride 99999999999999999999 does not fit in a 64-bit integer

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x at [0, 9223372036854775808, 0, 0] : tensor<1x8x8x16xi8>
}
// CHECK: offset 9223372036854775808 does not fit in a 64-bit integer

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %r = task.relu 2 %in shift 3 shift 0 : tensor<1x8x8x16xi8>
}
// CHECK: clause `shift` is given twice

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x?x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
}
// CHECK: a source without a box is read whole, which needs static, positive dimensions, got tensor<1x?x8x16xi8>

// -----

task.graph @g {
  %w = task.weight 1 dense<1> : vector<1x1x1x1xi8>
}
// CHECK: data must be a tensor

// -----

// The attributes' own verifiers, in generic form.

task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = "task.buffer"(%x) <{id = 1 : i64, kind = #task<kind si>, boxes = [#task.box<1>], offsets = [array<i64: 0, 0, 0, 0>]}> : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
}
// CHECK: expected a box `[lo:hi, ...]`

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = "task.buffer"(%x) <{id = 1 : i64, kind = #task<kind si>, boxes = [#task.box<[0:1, 0:8, 8:0, 0:16]>], offsets = [array<i64: 0, 0, 0, 0>]}> : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
}
// CHECK: box interval 8:0 is empty or negative

// -----

task.graph @g {
  %w = "task.weight"() <{id = 1 : i64, data = #task.random<9223372036854775808>, full_type = tensor<1x1x1x1xi8>}> : () -> tensor<1x1x1x1xi8>
}
// CHECK: random seed must be in [0, 2^63), got 9223372036854775808

// -----

task.graph @g {
  %w = "task.weight"() <{id = 1 : i64, data = #task.npz<"w.npz", "">, full_type = tensor<1x1x1x1xi8>}> : () -> tensor<1x1x1x1xi8>
}
// CHECK: npz path and key must not be empty
