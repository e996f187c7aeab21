// An integer out of its type's range is rejected while the op holding it is parsed: a
// verifier error that underlines the op (and its line, even in a later chunk of a split
// file), never a bare ValueError.

// RUN: stc-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: not stc-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=EXIT

task.graph @g {
  %w = task.weight 1 dense<300> : tensor<1x1x1x1xi8>
}

// CHECK:      out-of-range.mlir:9:3
// CHECK-NEXT:   %w = task.weight 1 dense<300> : tensor<1x1x1x1xi8>
// CHECK-NEXT: {{^}}  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^{{$}}
// CHECK-NEXT: Integer value 300 is out of range for type i8
// EXIT:       stc-opt: error: {{.*}}out-of-range.mlir:9:3
// EXIT-NOT:   Traceback

// -----

task.graph @g {
  %x = task.input 99999999999999999999 "x" : tensor<1x4x4x8xi8>
}

// CHECK:      out-of-range.mlir:22:3
// CHECK-NEXT:   %x = task.input 99999999999999999999 "x" : tensor<1x4x4x8xi8>
// CHECK-NEXT: {{^}}  ^^^^^
// CHECK-NEXT: Integer value 99999999999999999999 is out of range for type i64

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x8xi8>
  %in = task.buffer 1 si %x : tensor<1x4x4x8xi8>
  %r = task.relu 2 %in shift 99999999999999999999 : tensor<1x4x4x8xi8>
}

// CHECK:      out-of-range.mlir:35:3
// CHECK-NEXT:   %r = task.relu 2 %in shift 99999999999999999999 : tensor<1x4x4x8xi8>
// CHECK-NEXT: {{^}}  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^{{$}}
// CHECK-NEXT: Integer value 99999999999999999999 is out of range for type i64
