// Malformed isa syntax, reported at its source position.
// RUN: stc-opt %s --split-input-file --parsing-diagnostics | filecheck %s

isa.program @p target "tianjicx" {
  isa.core (0, 1, 2) {
  }
}

// CHECK: a core coordinate is (y, x)

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.maxpool 0 : tensor<1x8x8x16xi8> -> 1024 : tensor<1x4x4x16xi8> stride [2, 2]
    isa.sync 0
  }
}

// CHECK: isa.maxpool needs the clause `window`

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.send 16 bytes from 0 to (0) tag 1
    isa.sync 0
  }
}

// CHECK: a core coordinate is (y, x)

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.vec_trans_scatter dst 0 [0] src 0 [0] repeat 1 strides [0] : i8
    isa.sync 0
  }
}

// CHECK: strides are [dst_rep_stride, src_rep_stride]

// -----

isa.program @p target "tianjicx" {
  isa.input "x" : tensor<1x4x2x2xi8> at 0 as nchwc
}

// CHECK: Expected one of 'nchw', 'nhwc' layout

// -----

isa.program @p target "tianjicx" {
  isa.data #task.box<[0:1]> at 0
}

// CHECK: expected #task.random<seed>, #task.npz<path, key> or dense<...>
