// On set-8x8 (compute.fused_activation) a conv applies the relu or lut that alone reads its
// result on the outputs' way out of the array: tiny's conv 4 and conv 10 carry `relu 0`,
// conv 16 its lut's table, and no isa.lut is left; the relu after the add (a vector block)
// stays an instruction of its own. The machine runs it bit-identically. On tianjicx, whose
// convs apply none, every relu and lut stays an instruction.
// RUN: stc-zoo tiny -o %t.mlir
// RUN: stc-opt %t.mlir -p 'stc-pipeline{target=set-8x8}' -o %t.set.mlir
// RUN: filecheck %s --check-prefix=RELU < %t.set.mlir
// RUN: filecheck %s --check-prefix=LUT < %t.set.mlir
// RUN: filecheck %s --check-prefix=ADD < %t.set.mlir
// RUN: stc-run %t.mlir --compare %t.set.mlir | filecheck %s --check-prefix=SAME
// RUN: stc-opt %t.mlir -p 'stc-pipeline{target=tianjicx iterations=500}' | filecheck %s --check-prefix=TIANJICX

// RELU: isa.conv {{.*}} shift 10 {{.*}}relu 0

// LUT-NOT: isa.lut
// LUT:     isa.conv {{.*}} shift 10 {{.*}}lut {{[0-9]+}} : tensor<256xi8>
// LUT-NOT: isa.lut

// ADD:      isa.add
// ADD-NEXT: isa.relu

// SAME: 1 outputs bit-identical

// TIANJICX-DAG: isa.relu
// TIANJICX-DAG: isa.lut
// TIANJICX-NOT: relu 0
