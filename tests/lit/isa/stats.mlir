// The machine's counters on a program small enough to price by hand (tianjicx: DMA
// 16 B/cycle, local memory 32 B/cycle, links 8 B/cycle, 1 cycle per hop; energies
// 1.054 / 1.872 pJ per local byte read / written, 5.6 pJ per hop byte, 60 pJ per DRAM byte).
// RUN: stc-run %s --stats | filecheck %s

isa.program @priced target "tianjicx" {
  isa.input "x" : tensor<1x16x4x4xi8> at 0 as nhwc
  isa.output "y" : tensor<1x16x4x4xi8> at 256 as nhwc
  isa.core (0, 0) {
    isa.dma_load sizes [256] from global 0 to local 0
    isa.relu 0 : tensor<1x4x4x16xi8> -> 256 : tensor<1x4x4x16xi8>
    isa.dma_store sizes [256] from local 256 to global 256
    isa.sync 0
    isa.send 100 bytes from 0 to (1, 2) tag 0
    isa.sync 1
  }
  isa.core (1, 2) {
    isa.sync 0
    isa.recv 100 bytes to 0 from (0, 0) tag 0
    isa.sync 1
  }
}

// Phase 0: load 256 B (16 cycles), relu reads 256 B and writes 256 B (16), store 256 B (16).
// Phase 1: the send injects 100 B (13 cycles); the data arrives 13 + 3 hops = 16 cycles in.
// Local memory: 256 + 256 + 100 B read (645.048 pJ), 256 + 256 + 100 B written (1145.664 pJ).
// CHECK: "target": "tianjicx", "phases": 2, "cycles": 64, "phase_cycles": [48, 16]
// CHECK-SAME: "core_cycles": {"0,0": 61, "1,2": 0}
// CHECK-SAME: "macs": 0, "local_read_bytes": 612, "local_write_bytes": 612
// CHECK-SAME: "dram_bytes": 512, "dram_read_bytes": 256, "dram_write_bytes": 256
// CHECK-SAME: "noc_bytes": 100, "noc_hop_bytes": 300, "noc_max_link_bytes": 100
// CHECK-SAME: "energy_pj": {"mac": 0.0, "core_buffers": 0.0, "local_memory": 1790.712, "noc": 1680.0, "dram": 30720.0, "total": 34190.712
// CHECK-SAME: "outputs": {"y": [1, 16, 4, 4]}
