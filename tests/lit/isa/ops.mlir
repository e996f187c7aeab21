// Every isa op and attribute, round-tripped through the generic form.
// RUN: STC_ROUNDTRIP

isa.program @declarations target "tianjicx" {
  isa.input "x" : tensor<1x16x8x8xi8> at 0 as nhwc
  isa.output "y" : tensor<1x32x8x8xi8> at 1024 as nchw
  isa.data #task.random<7> : tensor<32x3x3x16xi8>[0:16, 0:3, 0:3, 0:16] at 4096
  isa.data #task.random<8> : tensor<32xi32> at 8704
  isa.data dense<[1, 2, 3, 4]> : tensor<4xi32> at 8832
  isa.data #task.npz<"w.npz", "conv1"> : tensor<8x1x1x16xi8> at 8896
  isa.core (0, 0) {
  }
}

// CHECK:      isa.program @declarations target "tianjicx" {
// CHECK-NEXT:   isa.input "x" : tensor<1x16x8x8xi8> at 0 as nhwc
// CHECK-NEXT:   isa.output "y" : tensor<1x32x8x8xi8> at 1024 as nchw
// CHECK-NEXT:   isa.data #task.random<7> : tensor<32x3x3x16xi8>[0:16, 0:3, 0:3, 0:16] at 4096
// CHECK-NEXT:   isa.data #task.random<8> : tensor<32xi32> at 8704
// CHECK-NEXT:   isa.data dense<[1, 2, 3, 4]> : tensor<4xi32> at 8832
// CHECK-NEXT:   isa.data #task.npz<"w.npz", "conv1"> : tensor<8x1x1x16xi8> at 8896
// CHECK-NEXT:   isa.core (0, 0) {
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

isa.program @movement target "tianjicx" {
  isa.core (0, 0) {
    isa.dma_load sizes [256] from global 0 to local 0
    isa.dma_load sizes [10, 8, 16] from global 1024 strides [256, 16, 1] to local 512 strides [128, 16, 1]
    isa.send 128 bytes from 512 to (1, 2) tag 3
    isa.send sizes [4, 8, 16] from 512 strides [512, 32, 1] to (1, 2) tag 4
    isa.send sizes [2, 64] from 0 strides [64, 1] to (1, 2) tag 5
    isa.send sizes [2, 64] from 0 strides [128, 1] to (1, 2), (0, 1) tag 6
    isa.copy sizes [4, 8, 16] from 0 strides [512, 32, 1] to 4096
    isa.copy sizes [2, 16] from 64 to 128 strides [32, 1]
    isa.sync 0
    isa.dma_store sizes [4, 128] from local 0 strides [256, 1] to global 8192 strides [512, 1]
    isa.sync 1
  }
  isa.core (1, 2) {
    isa.recv 128 bytes to 0 from (0, 0) tag 3
    isa.recv sizes [4, 8, 16] to 1024 strides [256, 32, 1] from (0, 0) tag 4
    isa.recv 128 bytes to 2048 from (0, 0) tag 5
    isa.recv 128 bytes to 4096 from (0, 0) tag 6
    isa.sync 0
  }
  isa.core (0, 1) {
    isa.recv sizes [2, 64] to 0 strides [256, 1] from (0, 0) tag 6
    isa.sync 0
  }
}

// CHECK:      isa.program @movement target "tianjicx" {
// CHECK-NEXT:   isa.core (0, 0) {
// CHECK-NEXT:     isa.dma_load sizes [256] from global 0 to local 0
// CHECK-NEXT:     isa.dma_load sizes [10, 8, 16] from global 1024 strides [256, 16, 1] to local 512
// CHECK-NEXT:     isa.send 128 bytes from 512 to (1, 2) tag 3
// CHECK-NEXT:     isa.send sizes [4, 8, 16] from 512 strides [512, 32, 1] to (1, 2) tag 4
// CHECK-NEXT:     isa.send sizes [2, 64] from 0 to (1, 2) tag 5
// CHECK-NEXT:     isa.send sizes [2, 64] from 0 strides [128, 1] to (1, 2), (0, 1) tag 6
// CHECK-NEXT:     isa.copy sizes [4, 8, 16] from 0 strides [512, 32, 1] to 4096
// CHECK-NEXT:     isa.copy sizes [2, 16] from 64 to 128 strides [32, 1]
// CHECK-NEXT:     isa.sync 0
// CHECK-NEXT:     isa.dma_store sizes [4, 128] from local 0 strides [256, 1] to global 8192 strides [512, 1]
// CHECK-NEXT:     isa.sync 1
// CHECK-NEXT:   }
// CHECK-NEXT:   isa.core (1, 2) {
// CHECK-NEXT:     isa.recv 128 bytes to 0 from (0, 0) tag 3
// CHECK-NEXT:     isa.recv sizes [4, 8, 16] to 1024 strides [256, 32, 1] from (0, 0) tag 4
// CHECK-NEXT:     isa.recv 128 bytes to 2048 from (0, 0) tag 5
// CHECK-NEXT:     isa.recv 128 bytes to 4096 from (0, 0) tag 6
// CHECK-NEXT:     isa.sync 0
// CHECK-NEXT:   }
// CHECK-NEXT:   isa.core (0, 1) {
// CHECK-NEXT:     isa.recv sizes [2, 64] to 0 strides [256, 1] from (0, 0) tag 6
// CHECK-NEXT:     isa.sync 0
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

isa.program @layout target "tpu-like" {
  isa.core (0, 0) {
    isa.vec_trans_scatter dst 4096 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] src 0 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] high repeat 3 strides [16, 16] : i8
    isa.vec_trans_scatter dst 8192 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] high src 0 [0, 16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240] repeat 1 strides [0, 0] : f16
    isa.vec_trans_scatter dst 0 [0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120] src 4096 [0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120] repeat 0 strides [0, 0] : ui32
    isa.sync 0
  }
}

// CHECK:      isa.program @layout target "tpu-like" {
// CHECK-NEXT:   isa.core (0, 0) {
// CHECK-NEXT:     isa.vec_trans_scatter dst 4096 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] src 0 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] high repeat 3 strides [16, 16] : i8
// CHECK-NEXT:     isa.vec_trans_scatter dst 8192 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] high src 0 [0, 16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240] repeat 1 strides [0, 0] : f16
// CHECK-NEXT:     isa.vec_trans_scatter dst 0 [0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120] src 4096 [0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120] repeat 0 strides [0, 0] : ui32
// CHECK-NEXT:     isa.sync 0
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

isa.program @compute target "tianjicx" {
  isa.core (0, 0) {
    isa.conv 0 : tensor<1x6x8x16xi8>, 1024 : tensor<32x3x3x16xi8> bias 5632 : tensor<32xi32> -> 5760 : tensor<1x4x8x32xi8> pad [0, 0, 1, 1] shift 9
    isa.conv 0 : tensor<1x6x8x16xi8>, 1024 : tensor<32x3x3x16xi8> -> 6144 : tensor<1x1x2x32xi32> stride [2, 2] dilation [2, 2]
    isa.fc 0 : tensor<1x4x4x16xi8>, 256 : tensor<10x4x4x16xi8> bias 2816 : tensor<10xi32> -> 2880 : tensor<1x1x1x10xi8> shift 7
    isa.avgpool 0 : tensor<1x8x8x16xi8> bias 1024 : tensor<16xi32> -> 1088 : tensor<1x4x4x16xi8> window [2, 2] stride [2, 2] shift 2
    isa.maxpool 0 : tensor<1x8x8x16xi8> -> 1024 : tensor<1x4x4x16xi8> window [3, 3] stride [2, 2] pad [1, 0, 1, 0] cmp -100 shift 1
    isa.relu 0 : tensor<1x8x8x16xi32> -> 4096 : tensor<1x8x8x16xi8> cmp -5 shift 8
    isa.lut 0 : tensor<1x4x4x16xi8>, 256 : tensor<256xi8> -> 512 : tensor<1x4x4x16xi8>
    isa.add 0 : tensor<1x4x4x16xi8>, 256 : tensor<1x4x4x16xi8>, 512 : tensor<1x4x4x16xi8> bias 768 : tensor<16xi32> -> 1024 : tensor<1x4x4x16xi8> shift 1
    isa.mul 0 : tensor<1x4x4x16xi8>, 256 : tensor<1x4x4x16xi8> bias 768 : tensor<16xi32> -> 1024 : tensor<1x4x4x16xi32>
    isa.sync 0
  }
}

// CHECK:      isa.program @compute target "tianjicx" {
// CHECK-NEXT:   isa.core (0, 0) {
// CHECK-NEXT:     isa.conv 0 : tensor<1x6x8x16xi8>, 1024 : tensor<32x3x3x16xi8> bias 5632 : tensor<32xi32> -> 5760 : tensor<1x4x8x32xi8> pad [0, 0, 1, 1] shift 9
// CHECK-NEXT:     isa.conv 0 : tensor<1x6x8x16xi8>, 1024 : tensor<32x3x3x16xi8> -> 6144 : tensor<1x1x2x32xi32> stride [2, 2] dilation [2, 2]
// CHECK-NEXT:     isa.fc 0 : tensor<1x4x4x16xi8>, 256 : tensor<10x4x4x16xi8> bias 2816 : tensor<10xi32> -> 2880 : tensor<1x1x1x10xi8> shift 7
// CHECK-NEXT:     isa.avgpool 0 : tensor<1x8x8x16xi8> bias 1024 : tensor<16xi32> -> 1088 : tensor<1x4x4x16xi8> window [2, 2] stride [2, 2] shift 2
// CHECK-NEXT:     isa.maxpool 0 : tensor<1x8x8x16xi8> -> 1024 : tensor<1x4x4x16xi8> window [3, 3] stride [2, 2] pad [1, 0, 1, 0] cmp -100 shift 1
// CHECK-NEXT:     isa.relu 0 : tensor<1x8x8x16xi32> -> 4096 : tensor<1x8x8x16xi8> cmp -5 shift 8
// CHECK-NEXT:     isa.lut 0 : tensor<1x4x4x16xi8>, 256 : tensor<256xi8> -> 512 : tensor<1x4x4x16xi8>
// CHECK-NEXT:     isa.add 0 : tensor<1x4x4x16xi8>, 256 : tensor<1x4x4x16xi8>, 512 : tensor<1x4x4x16xi8> bias 768 : tensor<16xi32> -> 1024 : tensor<1x4x4x16xi8> shift 1
// CHECK-NEXT:     isa.mul 0 : tensor<1x4x4x16xi8>, 256 : tensor<1x4x4x16xi8> bias 768 : tensor<16xi32> -> 1024 : tensor<1x4x4x16xi32>
// CHECK-NEXT:     isa.sync 0
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// A conv or fc that applies its relu or lut on the outputs' way out (set-8x8's fused_activation).

isa.program @activations target "set-8x8" {
  isa.core (0, 0) {
    isa.conv 0 : tensor<1x6x8x16xi8>, 1024 : tensor<32x3x3x16xi8> bias 5632 : tensor<32xi32> -> 5760 : tensor<1x4x8x32xi8> pad [0, 0, 1, 1] shift 9 relu -3
    isa.fc 0 : tensor<1x4x4x16xi8>, 256 : tensor<10x4x4x16xi8> -> 2880 : tensor<1x1x1x10xi8> shift 7 lut 3072 : tensor<256xi8>
    isa.sync 0
  }
}

// CHECK:      isa.program @activations target "set-8x8" {
// CHECK-NEXT:   isa.core (0, 0) {
// CHECK-NEXT:     isa.conv 0 : tensor<1x6x8x16xi8>, 1024 : tensor<32x3x3x16xi8> bias 5632 : tensor<32xi32> -> 5760 : tensor<1x4x8x32xi8> pad [0, 0, 1, 1] shift 9 relu -3
// CHECK-NEXT:     isa.fc 0 : tensor<1x4x4x16xi8>, 256 : tensor<10x4x4x16xi8> -> 2880 : tensor<1x1x1x10xi8> shift 7 lut 3072 : tensor<256xi8>
// CHECK-NEXT:     isa.sync 0
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// The attributes, in the generic form a pass or another tool may print.
"isa.program"() <{sym_name = "generic", target = "set-8x8"}> ({
  "isa.input"() <{name = "x", type = tensor<1x4x2x2xi8>, address = 0 : i64, layout = #isa<layout nchw>}> : () -> ()
  "isa.core"() <{coord = array<i64: 7, 7>}> ({
    "isa.relu"() <{inputs = [#isa.tile<0 : tensor<1x2x2x4xi8>>], output = #isa.tile<16 : tensor<1x2x2x4xi8>>, cmp = 0 : i64, shift = 0 : i64}> : () -> ()
    "isa.sync"() <{phase = 0 : i64}> : () -> ()
  }) : () -> ()
}) : () -> ()

// CHECK:      isa.program @generic target "set-8x8" {
// CHECK-NEXT:   isa.input "x" : tensor<1x4x2x2xi8> at 0 as nchw
// CHECK-NEXT:   isa.core (7, 7) {
// CHECK-NEXT:     isa.relu 0 : tensor<1x2x2x4xi8> -> 16 : tensor<1x2x2x4xi8>
// CHECK-NEXT:     isa.sync 0
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

isa.program @deep target "tianjicx" steps 2 {
  isa.output "y" : tensor<1x4x2x2xi32> at 0 as nchw
  isa.core (0, 0) {
  }
}

// CHECK:      isa.program @deep target "tianjicx" steps 2 {
// CHECK-NEXT:   isa.output "y" : tensor<1x4x2x2xi32> at 0 as nchw

// -----

isa.program @multicast_load target "set-8x8" {
  isa.core (0, 0) {
    isa.dma_multicast sizes [256] from global 0 to local 0 and (0, 1), (1, 1) tag 2
    isa.dma_multicast sizes [4, 16] from global 512 strides [32, 1] to local 256 and (0, 1) tag 3
    isa.sync 0
  }
  isa.core (0, 1) {
    isa.recv 256 bytes to 0 from (0, 0) tag 2
    isa.recv 64 bytes to 256 from (0, 0) tag 3
    isa.sync 0
  }
  isa.core (1, 1) {
    isa.recv 256 bytes to 0 from (0, 0) tag 2
    isa.sync 0
  }
}

// CHECK:      isa.program @multicast_load target "set-8x8" {
// CHECK-NEXT:   isa.core (0, 0) {
// CHECK-NEXT:     isa.dma_multicast sizes [256] from global 0 to local 0 and (0, 1), (1, 1) tag 2
// CHECK-NEXT:     isa.dma_multicast sizes [4, 16] from global 512 strides [32, 1] to local 256 and (0, 1) tag 3
