// A constraint that xDSL's IRDL checks (a property of the wrong kind) is reported with
// the name and id of the op that breaks it, which the bare constraint message lacks.

// RUN: not stc-opt %s 2>&1 | filecheck %s

"task.graph"() <{sym_name = "g"}> ({
  %x = "task.input"() <{id = 0 : i64, name = "x"}> : () -> tensor<1x4x4x8xi8>
  %in = "task.buffer"(%x) <{id = 1 : i64, kind = 3 : i64, boxes = [#task.box<[0:1, 0:4, 0:4, 0:8]>], offsets = [array<i64: 0, 0, 0, 0>]}> : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
}) : () -> ()

// CHECK:      stc-opt: error: task.buffer 1: 3 : i64 should be of base attribute task.kind
// CHECK-NOT:  Traceback
