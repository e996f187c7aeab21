// A multicast send priced by hand (tianjicx: DMA 16 B/cycle, links 8 B/cycle, 1 cycle
// per hop; 5.6 pJ per hop byte): one injection, each link of the XY multicast tree once.
// RUN: stc-run %s --stats | filecheck %s

isa.program @multicast target "tianjicx" {
  isa.input "x" : tensor<1x16x4x4xi8> at 0 as nhwc
  isa.output "y" : tensor<1x16x4x4xi8> at 256 as nhwc
  isa.core (0, 0) {
    isa.dma_load sizes [256] from global 0 to local 0
    isa.send 256 bytes from 0 to (0, 2), (1, 2), (1, 3) tag 0
    isa.sync 0
  }
  isa.core (0, 2) {
    isa.recv 256 bytes to 0 from (0, 0) tag 0
    isa.sync 0
  }
  isa.core (1, 2) {
    isa.recv 256 bytes to 512 from (0, 0) tag 0
    isa.sync 0
  }
  isa.core (1, 3) {
    isa.recv 256 bytes to 0 from (0, 0) tag 0
    isa.dma_store sizes [256] from local 0 to global 256
    isa.sync 0
  }
}

// The load takes 16 cycles; the send injects 256 B once (32 cycles, busy 16 to 48).
// The tree: (0,0)→(0,1)→(0,2) (2 links, shared by all three routes), (0,2)→(1,2) and
// (0,2)→(0,3)→(1,3): 5 links, 1,280 hop-bytes (three unicasts: 2 + 3 + 4 links, 2,304).
// Arrivals 48 + hops: (0,2) at 50, (1,2) at 51, (1,3) at 52; (1,3) then stores 256 B
// (16 cycles) over the 3 links to its port at (1,0): 768 hop-bytes more.
// CHECK: "target": "tianjicx", "phases": 1, "cycles": 68, "phase_cycles": [68]
// CHECK-SAME: "core_cycles": {"0,0": 48, "0,2": 0, "1,2": 0, "1,3": 16}
// CHECK-SAME: "local_read_bytes": 512, "local_write_bytes": 1024
// CHECK-SAME: "noc_bytes": 256, "noc_hop_bytes": 2048, "noc_max_link_bytes": 256
// CHECK-SAME: "outputs": {"y": [1, 16, 4, 4]}
