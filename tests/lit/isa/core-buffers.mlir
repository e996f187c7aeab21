// The accesses to set-8x8's core buffers of one conv, by hand (docs/cost-model.md, "Inside a
// core"): 2x2 positions (P = 4) of 8 filters (F = 8, one lane group), 3x3 taps of 16 channels
// (V = 9 x 2 = 18 vectors per filter; WL1 holds 512, so one chunk), from a 4x4x16 input (I = 256).
// RUN: stc-run %s --stats | filecheck %s

isa.program @one_conv target "set-8x8" {
  isa.core (0, 0) {
    isa.conv 0 : tensor<1x4x4x16xi8>, 256 : tensor<8x3x3x16xi8> -> 1408 : tensor<1x2x2x8xi32>
    isa.sync 0
  }
}

// MACs 4 x 8 x 9 x 16 = 4,608. AL1: P·V·8 = 576 reads, I = 256 writes. WL1: V·8·8 = 1,152
// reads (one tile of 256 positions), 9·16·8 = 1,152 writes. OL1: 576 updates written, read
// with the 32 outputs drained (608). OL2: 32 written and read.
// Energy: 576 x 0.3885 + 256 x 0.3293 + 1152 x (0.3053 + 0.2471) + 608 x 0.6416 + 576 x 0.5672
// + 32 x (0.61185 + 0.7919) = 1,706.1616 pJ.
// CHECK: "macs": 4608
// CHECK-SAME: "core_buffers": {"al1_reads": 576, "al1_writes": 256, "wl1_reads": 1152, "wl1_writes": 1152, "ol1_reads": 608, "ol1_writes": 576, "ol2_reads": 32, "ol2_writes": 32}
// CHECK-SAME: "energy_pj": {"mac": 82.94{{[0-9]*}}, "core_buffers": 1706.1616,
