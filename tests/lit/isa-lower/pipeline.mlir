// The whole path on a small network: stc-pipeline makes per-core programs that the
// machine runs bit-identically to the task graph, on an HWC and an NC1HWC0 target.
// RUN: stc-zoo tiny -o %t.mlir
// RUN: stc-opt %t.mlir -p 'stc-pipeline{target=tianjicx iterations=500}' -o %t.tj.mlir
// RUN: stc-run %t.mlir --compare %t.tj.mlir | filecheck %s
// RUN: stc-opt %t.mlir -p 'stc-pipeline{target=tpu-like}' | filecheck %s --check-prefix=TPU
// RUN: stc-opt %t.mlir -p 'stc-pipeline{target=tpu-like}' -o %t.tpu.mlir
// RUN: stc-run %t.mlir --compare %t.tpu.mlir | filecheck %s
// RUN: not stc-opt %t.mlir -p 'isa-lower' 2>&1 | filecheck %s --check-prefix=UNMAPPED
// RUN: stc-opt %t.mlir -p 'task-split{fit=tianjicx},st-place{target=tianjicx},st-route' -o %t.placed.mlir
// RUN: not stc-opt %t.placed.mlir -p 'isa-lower' 2>&1 | filecheck %s --check-prefix=UNALLOCATED

// CHECK: 1 outputs bit-identical

// TPU:      isa.program @tiny target "tpu-like" {
// TPU-NEXT:   isa.input "image" : tensor<1x3x16x16xi8> at 0 as nchw
// TPU-NEXT:   isa.output "logits" : tensor<1x10x1x1xi8> at 768 as nchw
// TPU:        isa.core (0, 0) {
// TPU:          isa.dma_load sizes [1, 16, 16, 3] from global 0 strides [768, 16, 1, 256] to local {{[0-9]+}} strides [8192, 16, 1, 256]
// TPU-NEXT:     isa.vec_trans_scatter
// TPU:          isa.copy sizes [1, 16, 16, 3] from {{[0-9]+}} strides [8192, 512, 32, 1] to {{[0-9]+}}
// TPU:          isa.conv

// UNMAPPED: stc-opt: error: isa-lower: task.graph @tiny has no st.mapping; run st-place first
// UNALLOCATED: stc-opt: error: isa-lower: block 1 (task.buffer) of task.graph @tiny has no st.addr; run st-lmem-alloc first
