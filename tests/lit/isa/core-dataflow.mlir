// A conv's dataflow through set-8x8's core buffers, written on the instruction and counted by
// the machine as written, by hand (docs/cost-model.md, "Inside a core"). Both convs also run
// without the clause (SET's dataflow), which costs more.
// RUN: stc-run %s --stats | filecheck %s

// 3 input channels packed with the 3x3 taps into the activation vectors (im2col): P = 16
// positions of F = 8 filters (one lane group), 27 elements per position in V = 4 vectors of 8
// (9 unpacked), from a 6x6x3 input.
isa.program @packed target "set-8x8" {
  isa.core (0, 0) {
    isa.conv 0 : tensor<1x6x6x3xi8>, 128 : tensor<8x3x3x3xi8> -> 384 : tensor<1x4x4x8xi32> dataflow [1, 1, 1, 256]
    isa.sync 0
  }
}

// AL1: P·V·8 = 512 reads; the im2col rows P·27 = 432 written. WL1: V·8·8 = 256 reads, 9·3·8 =
// 216 writes. OL1: 512 updates written, read with the 128 outputs drained (640). OL2: 128 and
// 128. Energy: 512 x 0.3885 + 432 x 0.3293 + 256 x 0.3053 + 216 x 0.2471 + 640 x 0.6416
// + 512 x 0.5672 + 128 x (0.61185 + 0.7919) = 1,353.4104 pJ (SET's: 2,366.666).
// CHECK: "macs": 3456
// CHECK-SAME: "core_buffers": {"al1_reads": 512, "al1_writes": 432, "wl1_reads": 256, "wl1_writes": 216, "ol1_reads": 640, "ol1_writes": 512, "ol2_reads": 128, "ol2_writes": 128}
// CHECK-SAME: "energy_pj": {"mac": 62.2{{[0-9]*}}, "core_buffers": 1353.4104{{0*[0-9]?}},
