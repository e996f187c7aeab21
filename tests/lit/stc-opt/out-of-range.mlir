// An integer out of its type's range in xDSL's generic syntax is rejected while the op
// holding it is parsed: a verifier error that underlines the op's own text (and its
// line, even in a later chunk of a split file), never a bare ValueError. The excerpt
// stops at the op: the comments after it (here the CHECK lines themselves) are not
// echoed. (The task dialect's own syntax reports such literals as parse errors:
// tests/lit/task/parse-errors.mlir; ops of other dialects fail as in xdsl-opt:
// upstream-verify.mlir.)

// RUN: stc-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: not stc-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=EXIT

task.graph @g {
  %w = task.weight 1 dense<300> : tensor<1x1x1x1xi8>
  // CHECK:      out-of-range.mlir:13:3
  // CHECK-NEXT: {{^}}  %w = task.weight 1 dense<300> : tensor<1x1x1x1xi8>{{$}}
  // CHECK-NEXT: {{^}}  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^{{$}}
  // CHECK-NEXT: {{^}}  Integer value 300 is out of range for type i8
  // CHECK-EMPTY:
  // CHECK-NEXT: //{{ }}-----
  // EXIT:       stc-opt: error: {{.*}}out-of-range.mlir:13:3
  // EXIT-NOT:   Traceback
}

// -----

task.graph @g {
  %x = "task.input"() <{id = 99999999999999999999 : i64, name = "x"}> : () -> tensor<1x4x4x8xi8>
  // CHECK-NEXT: out-of-range.mlir:27:3
  // CHECK-NEXT: {{^}}  %x = "task.input"() <{id = 99999999999999999999 : i64, name = "x"}> : () -> tensor<1x4x4x8xi8>{{$}}
  // CHECK-NEXT: {{^}}  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^{{$}}
  // CHECK-NEXT: {{^}}  Integer value 99999999999999999999 is out of range for type i64
  // CHECK-EMPTY:
}
