// On input that holds no op of stc's dialects, stc-opt prints what xdsl-opt prints and
// exits as it does, also when an op fails while it is parsed: a verifier error under
// --verify-diagnostics, or a bare ValueError (xDSL's traceback and exit code 1).

// RUN: not stc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect > %t.stc 2> %t.stc.err
// RUN: not xdsl-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect > %t.xdsl 2> %t.xdsl.err
// RUN: diff %t.xdsl %t.stc
// RUN: filecheck %s < %t.stc
// RUN: filecheck %s --check-prefix=ERR < %t.stc.err

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
