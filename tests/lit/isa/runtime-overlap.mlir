// A vec_trans_scatter whose source and destination blocks overlap other than block for
// block, which the vendor does not support: the machine refuses it at run time.
// RUN: not stc-run %s 2>&1 | filecheck %s

isa.program @overlap target "tpu-like" {
  isa.core (0, 0) {
    isa.vec_trans_scatter dst 0 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] src 32 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] repeat 1 strides [0, 0] : i8
    isa.sync 0
  }
}

// CHECK: stc-run: error: core (0, 0), phase 0, #0 isa.vec_trans_scatter: at repeat 0 bytes [32, 48) are both read and written, but dst_list and src_list do not overlap block for block; partial overlap is not supported
