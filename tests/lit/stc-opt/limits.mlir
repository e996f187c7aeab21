// RUN: stc-opt %s --split-input-file --parsing-diagnostics --allow-unregistered-dialect | filecheck %s
// RUN: not stc-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=EXIT

// What the parser accepts is bounded before xDSL computes with it (docs/tools.md,
// "Security and limits"): each bound is a parse error at the offending text.

"test.op"() {v = array<i99999999999: 1>} : () -> ()
// CHECK:      limits.mlir:7:24
// CHECK-NEXT: "test.op"() {{.}}v = array<i99999999999: 1>{{.}} : () -> ()
// CHECK-NEXT: {{^}}                       ^^^^^^^^^^^^{{$}}
// CHECK-NEXT: integer type of 99999999999 bits; at most 16777215 are allowed
// EXIT:       stc-opt: error: {{.*}}limits.mlir:7:24
// EXIT-NOT:   Traceback

// -----

"test.op"() {v = array<i18446744073709551616: 1>} : () -> ()
// CHECK: integer type of 18446744073709551616 bits; at most 16777215 are allowed

// -----

"test.op"() {v = array<i128: 1>} : () -> ()
// CHECK: dense literal of i128: xDSL stores integers and floats up to 64 bits only

// -----

"test.op"() {v = dense<1.0> : tensor<2xf80>} : () -> ()
// CHECK: dense literal of f80: xDSL stores integers and floats up to 64 bits only

// -----

"test.op"() {v = dense<1> : tensor<10000000000xi8>} : () -> ()
// CHECK:      "test.op"() {{.}}v = dense<1> : tensor<10000000000xi8>{{.}} : () -> ()
// CHECK-NEXT: {{^}}                            ^^^^^^^^^^^^^^^^^^^^^^{{$}}
// CHECK-NEXT: dense literal of 10000000000 elements; at most 1048576 are allowed

// -----

"test.op"() {v = dense<"0x01"> : tensor<4294967296x4294967296xi8>} : () -> ()
// CHECK: dense literal of 18446744073709551616 elements; at most 1048576 are allowed

// -----

"test.op"() {v = 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff : i64} : () -> ()
// CHECK: integer literal of 1001 digits; at most 1000 are allowed

// -----

"test.op"() : () -> (tensor<999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999xi8>)
// CHECK: integer literal of 1200 digits; at most 1000 are allowed

// -----

builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {builtin.module {}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}
// CHECK: nested more than 64 deep (regions, attributes and types together)

// -----

builtin.module attributes {v = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]} {}
// CHECK: nested more than 64 deep (regions, attributes and types together)

// -----

"test.op"() : () -> (tensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xtensor<1xi8>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>)
// CHECK: nested more than 64 deep (regions, attributes and types together)
