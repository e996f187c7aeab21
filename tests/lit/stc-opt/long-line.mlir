// RUN: python %S/Inputs/long_lines.py > %t.mlir
// RUN: stc-opt %t.mlir --split-input-file --parsing-diagnostics | filecheck %s
// RUN: not stc-opt %t.mlir --split-input-file 2>&1 | filecheck %s --check-prefix=EXIT

// A parse error in a line of 20,000 characters shows 120 of them around the error, with
// `...` where the line is cut (compiler/xdsl_fixes.py, docs/tools.md "Security and limits").

// CHECK:      {{.*}}.mlir:1:19{{$}}
// CHECK-NEXT: {{^}}"test.op"() {v = [@, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, ...{{$}}
// CHECK-NEXT: {{^ {18}\^\^$}}
// CHECK-NEXT: {{^ {18}@}} identifier expected to start with letter, '_', or '"'.{{$}}

// CHECK:      {{.*}}.mlir:3:20017{{$}}
// CHECK-NEXT: {{^}}... 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, @, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,...{{$}}
// CHECK-NEXT: {{^ {43}\^\^$}}

// CHECK:      {{.*}}.mlir:5:20017{{$}}
// CHECK-NEXT: {{^}}... 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, @]} : () -> (){{$}}
// CHECK-NEXT: {{^ {109}\^\^$}}

// EXIT:       stc-opt: error: {{.*}}.mlir:1:19
// EXIT-NEXT:  "test.op"() {v = [@, 1,
// EXIT-NOT:   Traceback
