// RUN: stc-opt %s | filecheck %s
// RUN: STC_ROUNDTRIP
// RUN: stc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every op of the task dialect, in custom syntax; defaults are not printed.

task.graph @every_op {
  %x = task.input 0 "image" : tensor<1x9x9x4xi8>
  %x_in = task.buffer 1 sic %x : tensor<1x9x9x4xi8>
  %w = task.weight 2 #task.random<7> : tensor<8x3x3x4xi8>
  %b = task.bias 3 #task.random<8> : tensor<8xi32>
  %c = task.conv 4 %x_in, %w bias %b stride [2, 1] pad [1, 0, 2, 1] dilation [1, 2] shift 9 : tensor<1x4x8x8xi8>
  %p_in = task.buffer 5 si %c : tensor<1x4x8x8xi8>
  %p = task.maxpool 6 %p_in window [2, 2] stride [2, 2] pad [0, 0, 0, 0] cmp -5 shift 1 : tensor<1x2x4x8xi8>
  %r_in = task.buffer 7 si %p : tensor<1x2x4x8xi8>
  %r = task.relu 8 %r_in cmp 3 : tensor<1x2x4x8xi8>
  %t = task.table 9 #task.random<10> : tensor<256xi8>
  %l_in = task.buffer 10 si %r : tensor<1x2x4x8xi8>
  %l = task.lut 11 %l_in, %t : tensor<1x2x4x8xi8>
  %a_in0 = task.buffer 12 si %l : tensor<1x2x4x8xi8>
  %a_in1 = task.buffer 13 si %p[0:1, 0:1, 0:4, 0:8], %p[0:1, 1:2, 0:4, 0:8] at [0, 1, 0, 0] : tensor<1x2x4x8xi8>
  %ab = task.bias 14 dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi32>
  %a = task.add 15 %a_in0, %a_in1 bias %ab shift 1 : tensor<1x2x4x8xi8>
  %m_in0 = task.buffer 16 si %a : tensor<1x2x4x8xi8>
  %m_in1 = task.buffer 17 si %l : tensor<1x2x4x8xi8>
  %m = task.mul 18 %m_in0, %m_in1 shift 6 : tensor<1x2x4x8xi8>
  %v_in = task.buffer 19 si %m[0:1, 0:2, 0:4, 0:4], %a[0:1, 0:2, 0:4, 4:8] at [0, 0, 0, 4] : tensor<1x2x4x8xi8>
  %vb = task.bias 20 #task.npz<"avg.npz", "bias"> : tensor<8xi32>
  %v = task.avgpool 21 %v_in bias %vb window [2, 4] shift 2 : tensor<1x1x1x8xi8>
  %f_in = task.buffer 22 sifc %v : tensor<1x1x1x8xi8>
  %fw = task.weight 23 #task.random<11> : tensor<10x1x1x8xi8>[0:5, 0:1, 0:1, 0:8]
  %f = task.fc 24 %f_in, %fw : tensor<1x1x1x5xi32>
  %out = task.buffer 25 so %f : tensor<1x1x1x5xi32>
  task.output 26 "logits" %out
}

// CHECK:      task.graph @every_op {
// CHECK-NEXT:   %x = task.input 0 "image" : tensor<1x9x9x4xi8>
// CHECK-NEXT:   %x_in = task.buffer 1 sic %x : tensor<1x9x9x4xi8>
// CHECK-NEXT:   %w = task.weight 2 #task.random<7> : tensor<8x3x3x4xi8>
// CHECK-NEXT:   %b = task.bias 3 #task.random<8> : tensor<8xi32>
// CHECK-NEXT:   %c = task.conv 4 %x_in, %w bias %b stride [2, 1] pad [1, 0, 2, 1] dilation [1, 2] shift 9 : tensor<1x4x8x8xi8>
// CHECK-NEXT:   %p_in = task.buffer 5 si %c : tensor<1x4x8x8xi8>
// CHECK-NEXT:   %p = task.maxpool 6 %p_in window [2, 2] stride [2, 2] cmp -5 shift 1 : tensor<1x2x4x8xi8>
// CHECK-NEXT:   %r_in = task.buffer 7 si %p : tensor<1x2x4x8xi8>
// CHECK-NEXT:   %r = task.relu 8 %r_in cmp 3 : tensor<1x2x4x8xi8>
// CHECK-NEXT:   %t = task.table 9 #task.random<10> : tensor<256xi8>
// CHECK-NEXT:   %l_in = task.buffer 10 si %r : tensor<1x2x4x8xi8>
// CHECK-NEXT:   %l = task.lut 11 %l_in, %t : tensor<1x2x4x8xi8>
// CHECK-NEXT:   %a_in0 = task.buffer 12 si %l : tensor<1x2x4x8xi8>
// CHECK-NEXT:   %a_in1 = task.buffer 13 si %p[0:1, 0:1, 0:4, 0:8], %p[0:1, 1:2, 0:4, 0:8] at [0, 1, 0, 0] : tensor<1x2x4x8xi8>
// CHECK-NEXT:   %ab = task.bias 14 dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi32>
// CHECK-NEXT:   %a = task.add 15 %a_in0, %a_in1 bias %ab shift 1 : tensor<1x2x4x8xi8>
// CHECK-NEXT:   %m_in0 = task.buffer 16 si %a : tensor<1x2x4x8xi8>
// CHECK-NEXT:   %m_in1 = task.buffer 17 si %l : tensor<1x2x4x8xi8>
// CHECK-NEXT:   %m = task.mul 18 %m_in0, %m_in1 shift 6 : tensor<1x2x4x8xi8>
// CHECK-NEXT:   %v_in = task.buffer 19 si %m[0:1, 0:2, 0:4, 0:4], %a[0:1, 0:2, 0:4, 4:8] at [0, 0, 0, 4] : tensor<1x2x4x8xi8>
// CHECK-NEXT:   %vb = task.bias 20 #task.npz<"avg.npz", "bias"> : tensor<8xi32>
// CHECK-NEXT:   %v = task.avgpool 21 %v_in bias %vb window [2, 4] shift 2 : tensor<1x1x1x8xi8>
// CHECK-NEXT:   %f_in = task.buffer 22 sifc %v : tensor<1x1x1x8xi8>
// CHECK-NEXT:   %fw = task.weight 23 #task.random<11> : tensor<10x1x1x8xi8>[0:5, 0:1, 0:1, 0:8]
// CHECK-NEXT:   %f = task.fc 24 %f_in, %fw : tensor<1x1x1x5xi32>
// CHECK-NEXT:   %out = task.buffer 25 so %f : tensor<1x1x1x5xi32>
// CHECK-NEXT:   task.output 26 "logits" %out
// CHECK-NEXT: }

// GENERIC:      "task.graph"() <{sym_name = "every_op"}> ({
// GENERIC-NEXT:   %x = "task.input"() <{id = 0 : i64, name = "image"}> : () -> tensor<1x9x9x4xi8>
// GENERIC-NEXT:   %x_in = "task.buffer"(%x) <{id = 1 : i64, kind = #task<kind sic>, boxes = [#task.box<[0:1, 0:9, 0:9, 0:4]>], offsets = [array<i64: 0, 0, 0, 0>]}>
// GENERIC:        "task.conv"(%x_in, %w, %b) <{id = 4 : i64, stride = array<i64: 2, 1>, pad = array<i64: 1, 0, 2, 1>, dilation = array<i64: 1, 2>, shift = 9 : i64}>
// GENERIC:        "task.add"(%a_in0, %a_in1, %ab) <{id = 15 : i64, shift = 1 : i64, operandSegmentSizes = array<i32: 2, 1>}>
// GENERIC:        "task.weight"() <{id = 23 : i64, data = #task.random<11>, full_type = tensor<10x1x1x8xi8>, box = #task.box<[0:5, 0:1, 0:1, 0:8]>}> : () -> tensor<5x1x1x8xi8>
// GENERIC:        "task.output"(%out) <{id = 26 : i64, name = "logits"}> : (tensor<1x1x1x5xi32>) -> ()

// -----

// An empty graph, and attributes on blocks, survive the round trip.
task.graph @empty {
}
task.graph @attributes {
  %x = task.input 0 "x" : tensor<2x1x1x3xi8> {note = "batch of two"}
  %in = task.buffer 1 so %x : tensor<2x1x1x3xi8> {split = array<i64: 1, 1, 1, 1>}
  task.output 2 "y" %in {note = "identity"}
}

// CHECK:      task.graph @empty {
// CHECK-NEXT: }
// CHECK:      %x = task.input 0 "x" : tensor<2x1x1x3xi8> {note = "batch of two"}
// CHECK-NEXT: %in = task.buffer 1 so %x : tensor<2x1x1x3xi8> {split = array<i64: 1, 1, 1, 1>}
// CHECK-NEXT: task.output 2 "y" %in {note = "identity"}
