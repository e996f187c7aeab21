// The whole mapping pipeline through the command line: ResNet-18 split to fit tianjicx's
// cores, placed and routed, still computes bit-identical outputs.

// RUN: stc-zoo resnet18 -o %t.mlir
// RUN: stc-opt %t.mlir -p 'task-split{fit=tianjicx},st-place{target=tianjicx},st-route' -o %t.placed.mlir
// RUN: stc-run %t.mlir --compare %t.placed.mlir | filecheck %s

// CHECK: 1 outputs bit-identical
