// On input that holds no op of stc's dialects, stc-opt prints what xdsl-opt prints and
// exits as it does, also when an op fails while it is parsed: a verifier error under
// --verify-diagnostics, or a bare ValueError (xDSL's traceback and exit code 1).

// RUN: not stc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect > %t.stc 2> %t.stc.err
// RUN: not xdsl-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect > %t.xdsl 2> %t.xdsl.err
// RUN: diff %t.xdsl %t.stc
// RUN: filecheck %s < %t.stc
// RUN: filecheck %s --check-prefix=ERR < %t.stc.err

// Byte for byte on the vendored upstream tests whose ops fail while they are parsed (the
// excerpt of an op of stc's would show the CHECK lines after it, which FileCheck matches):
// RUN: stc-opt %S/../xdsl-0.74.0/tests/filecheck/dialects/arith/arith_invalid.mlir --split-input-file --parsing-diagnostics --verify-diagnostics > %t.arith-arith_invalid.stc
// RUN: xdsl-opt %S/../xdsl-0.74.0/tests/filecheck/dialects/arith/arith_invalid.mlir --split-input-file --parsing-diagnostics --verify-diagnostics > %t.arith-arith_invalid.xdsl
// RUN: diff %t.arith-arith_invalid.xdsl %t.arith-arith_invalid.stc
// RUN: stc-opt %S/../xdsl-0.74.0/tests/filecheck/dialects/asm/asm_ops_invalid.mlir --split-input-file --parsing-diagnostics --verify-diagnostics > %t.asm-asm_ops_invalid.stc
// RUN: xdsl-opt %S/../xdsl-0.74.0/tests/filecheck/dialects/asm/asm_ops_invalid.mlir --split-input-file --parsing-diagnostics --verify-diagnostics > %t.asm-asm_ops_invalid.xdsl
// RUN: diff %t.asm-asm_ops_invalid.xdsl %t.asm-asm_ops_invalid.stc
// RUN: stc-opt %S/../xdsl-0.74.0/tests/filecheck/dialects/csl/ops_invalid.mlir --split-input-file --parsing-diagnostics --verify-diagnostics > %t.csl-ops_invalid.stc
// RUN: xdsl-opt %S/../xdsl-0.74.0/tests/filecheck/dialects/csl/ops_invalid.mlir --split-input-file --parsing-diagnostics --verify-diagnostics > %t.csl-ops_invalid.xdsl
// RUN: diff %t.csl-ops_invalid.xdsl %t.csl-ops_invalid.stc
// RUN: stc-opt %S/../xdsl-0.74.0/tests/filecheck/dialects/dlti/attrs_invalid.mlir --split-input-file --parsing-diagnostics --verify-diagnostics > %t.dlti-attrs_invalid.stc
// RUN: xdsl-opt %S/../xdsl-0.74.0/tests/filecheck/dialects/dlti/attrs_invalid.mlir --split-input-file --parsing-diagnostics --verify-diagnostics > %t.dlti-attrs_invalid.xdsl
// RUN: diff %t.dlti-attrs_invalid.xdsl %t.dlti-attrs_invalid.stc
// RUN: stc-opt %S/../xdsl-0.74.0/tests/filecheck/dialects/memref/invalid_ops.mlir --split-input-file --parsing-diagnostics --verify-diagnostics > %t.memref-invalid_ops.stc
// RUN: xdsl-opt %S/../xdsl-0.74.0/tests/filecheck/dialects/memref/invalid_ops.mlir --split-input-file --parsing-diagnostics --verify-diagnostics > %t.memref-invalid_ops.xdsl
// RUN: diff %t.memref-invalid_ops.xdsl %t.memref-invalid_ops.stc
// RUN: stc-opt %S/../xdsl-0.74.0/tests/filecheck/dialects/tensor/invalid_ops.mlir --split-input-file --parsing-diagnostics --verify-diagnostics > %t.tensor-invalid_ops.stc
// RUN: xdsl-opt %S/../xdsl-0.74.0/tests/filecheck/dialects/tensor/invalid_ops.mlir --split-input-file --parsing-diagnostics --verify-diagnostics > %t.tensor-invalid_ops.xdsl
// RUN: diff %t.tensor-invalid_ops.xdsl %t.tensor-invalid_ops.stc

%c = arith.constant 1 : si32
// CHECK:      Expected attribute #builtin.signedness<signless> but got #builtin.signedness<signed>
// CHECK-NEXT: //{{ }}-----

// -----

%d = arith.constant 300 : i8
// CHECK-NEXT: Integer value 300 is out of range for type i8
// CHECK-NEXT: //{{ }}-----

// -----

"test.op"() {v = dense<300> : tensor<1xi8>} : () -> ()
// CHECK-NOT:  {{.}}
// ERR:        ValueError: Integer value 300 is out of range for type i8
