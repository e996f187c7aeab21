// Global memory that cores may share within a phase: bytes they all only read, strided
// boxes that interleave without sharing a byte, and bytes one core writes and another
// reads in a later phase. The verifier accepts all of it.
// RUN: stc-opt %s | filecheck %s

isa.program @sharing target "tianjicx" {
  isa.input "x" : tensor<1x32x2x2xi8> at 0 as nhwc
  isa.output "y" : tensor<1x32x2x2xi8> at 128 as nhwc
  isa.core (0, 0) {
    isa.dma_load sizes [128] from global 0 to local 0
    isa.dma_store sizes [4, 16] from local 0 strides [32, 1] to global 128 strides [32, 1]
    isa.sync 0
    isa.dma_load sizes [128] from global 128 to local 128
    isa.sync 1
  }
  isa.core (0, 1) {
    isa.dma_load sizes [128] from global 0 to local 0
    isa.dma_store sizes [4, 16] from local 16 strides [32, 1] to global 144 strides [32, 1]
    isa.sync 0
    isa.sync 1
  }
}

// CHECK: isa.program @sharing
