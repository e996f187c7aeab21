// An fc whose weights spread over set-8x8's 64 cores would take more than half of each
// core's 1 MB (4x4x4096 -> 1024: 67,108,864 B, 1,048,576 B a core): st-search splits its
// reduction first (task-split's `1,1,1,1,nr`, int32 partial sums joined by an add), so that
// its pieces run in turn, and the searched program computes the network bit-identically.
// RUN: stc-opt %s -p 'stc-pipeline{target=set-8x8}' -o %t.isa.mlir
// RUN: filecheck %s < %t.isa.mlir
// RUN: stc-run %s --compare %t.isa.mlir | filecheck %s --check-prefix=SAME

task.graph @wide {
  %x = task.input 0 "x" : tensor<1x4x4x4096xi8>
  %in = task.buffer 1 sifc %x : tensor<1x4x4x4096xi8>
  %w = task.weight 2 #task.random<1> : tensor<1024x4x4x4096xi8>
  %f = task.fc 3 %in, %w shift 12 : tensor<1x1x1x1024xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x1024xi8>
  task.output 5 "y" %out
}
// CHECK: isa.fc {{.*}} -> {{[0-9]+}} : tensor<{{[0-9x]+}}xi32>
// CHECK: isa.add
// SAME: 1 outputs bit-identical
