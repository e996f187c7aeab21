// A program that verifies but deadlocks when the machine runs it: each core waits for
// the other before sending. stc-run names the core, the phase and the instruction.
// RUN: not stc-run %s 2>&1 | filecheck %s

isa.program @deadlock target "tianjicx" {
  isa.core (0, 0) {
    isa.recv 16 bytes to 0 from (0, 1) tag 1
    isa.send 16 bytes from 0 to (0, 1) tag 2
    isa.sync 0
  }
  isa.core (0, 1) {
    isa.recv 16 bytes to 0 from (0, 0) tag 2
    isa.send 16 bytes from 0 to (0, 0) tag 1
    isa.sync 0
  }
}

// CHECK: stc-run: error: core (0, 0), phase 0, #0 isa.recv: waits for tag 1 from (0, 1), but no core sends it before waiting itself
