// A conv's dataflow through set-8x8's core buffers with its reduction split over PEs,
// written on the instruction and counted by the machine as written, by hand
// (docs/cost-model.md, "Inside a core"; packed vectors: core-dataflow.mlir).
// RUN: stc-run %s --stats | filecheck %s

// The 256 input channels of 4 lane groups split over 4 PEs: P = 4 positions of F = 32 filters
// from a 4x4x256 input (I = 4,096). Unsplit, a lane holds 9 x 32 = 288 vectors per filter: one
// group of its 512, so the input is written 4 times; split, 9 x 8 = 72 per PE: all 4 groups,
// written once; each output's 4 partial sums are read.
isa.program @split target "set-8x8" {
  isa.core (0, 0) {
    isa.conv 0 : tensor<1x4x4x256xi8>, 4096 : tensor<32x3x3x256xi8> -> 77824 : tensor<1x2x2x32xi32> dataflow [0, 4, 4, 256]
    isa.sync 0
  }
}

// AL1: P·288·4·8 = 36,864 reads, I = 4,096 writes. WL1: 288·8·4·8 = 73,728 reads, 9·256·32 =
// 73,728 writes. OL1: 36,864 updates written, read with 4 partial sums of each of the 128
// outputs (37,376). OL2: 128 and 128. Energy 101,467.2064 pJ (SET's: 4 x 4,096 AL1 writes,
// 36,992 OL1 reads: 105,267.2704).
// CHECK: "macs": 294912
// CHECK-SAME: "core_buffers": {"al1_reads": 36864, "al1_writes": 4096, "wl1_reads": 73728, "wl1_writes": 73728, "ol1_reads": 37376, "ol1_writes": 36864, "ol2_reads": 128, "ol2_writes": 128}
// CHECK-SAME: "energy_pj": {"mac": 5308.4{{[0-9]*}}, "core_buffers": 101467.2064{{0*[0-9]?}},
