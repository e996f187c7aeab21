// Every verifier rule of the isa dialect, one program each.
// RUN: stc-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Tiles

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.relu -16 : tensor<1x4x4x16xi8> -> 256 : tensor<1x4x4x16xi8>
    isa.sync 0
  }
}

// CHECK: tile address -16 is negative

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.relu 0 : tensor<1x4x4x16xi16> -> 256 : tensor<1x4x4x16xi8>
    isa.sync 0
  }
}

// CHECK: tiles hold i8 or i32 elements, got tensor<1x4x4x16xi16>

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.relu 0 : tensor<1x0x4x16xi8> -> 256 : tensor<1x0x4x16xi8>
    isa.sync 0
  }
}

// CHECK: tiles have a static non-empty shape, got tensor<1x0x4x16xi8>

// -----

// Programs: their contents, target, declarations and cores

isa.program @p target "tianjicx" {
  task.graph @g {
  }
}

// CHECK: isa.program @p holds declarations and cores, not task.graph

// -----

isa.program @p target "tianjicx-2" {

}

// CHECK: isa.program @p: unknown target 'tianjicx-2'; available: aie-ml, set-8x8, tianjicx, tpu-like

// -----

isa.program @p target "tianjicx" {
  isa.input "x" : tensor<1x4x2x2xi8> at 0 as nhwc
  isa.input "x" : tensor<1x4x2x2xi8> at 64 as nhwc
}

// CHECK: input name 'x' is declared twice

// -----

isa.program @p target "tianjicx" {
  isa.output "y" : tensor<1x4x2x2xi8> at 1073741820 as nhwc
}

// CHECK: output "y" occupies global bytes [1073741820, 1073741836), beyond the 1073741824 bytes of tianjicx's global memory

// -----

isa.program @p target "tianjicx" {
  isa.input "x" : tensor<1x4x2x2xi8> at 0 as nhwc
  isa.data #task.random<1> : tensor<8xi32> at 8
}

// CHECK: input "x" at global bytes [0, 16) overlaps data at 8

// -----

isa.program @p target "tianjicx" {
  isa.core (10, 0) {
  }
}

// CHECK: core (10, 0) does not exist on tianjicx (10 rows x 16 columns)

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 1) {
  }
  isa.core (0, 1) {
  }
}

// CHECK: core (0, 1) has two programs

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.sync 0
    isa.sync 1
    isa.sync 2
    isa.sync 3
    isa.sync 4
    isa.sync 5
    isa.sync 6
    isa.sync 7
    isa.sync 8
    isa.sync 9
    isa.sync 10
    isa.sync 11
    isa.sync 12
    isa.sync 13
    isa.sync 14
    isa.sync 15
    isa.sync 16
    isa.sync 17
    isa.sync 18
    isa.sync 19
    isa.sync 20
    isa.sync 21
    isa.sync 22
    isa.sync 23
    isa.sync 24
    isa.sync 25
    isa.sync 26
    isa.sync 27
    isa.sync 28
    isa.sync 29
    isa.sync 30
    isa.sync 31
    isa.sync 32
  }
}

// CHECK: core (0, 0) runs 33 phases, more than tianjicx's 32

// -----

// Memory accesses against the target

isa.program @p target "aie-ml" {
  isa.core (0, 0) {
    isa.relu 0 : tensor<1x4x4x16xi8> -> 256 : tensor<1x4x4x16xi8>
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.relu: shim_tile tiles do not compute (aie-ml has no MAC array or vector unit there)

// -----

isa.program @p target "aie-ml" {
  isa.core (1, 0) {
    isa.dma_load sizes [512] from global 0 to local 0
    isa.vec_trans_scatter dst 4096 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] src 0 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] repeat 1 strides [0, 0] : i8
    isa.sync 0
  }
}

// CHECK: core (1, 0), phase 0, #1 isa.vec_trans_scatter: memory_tile tiles do not compute (aie-ml has no MAC array or vector unit there)

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.sync 0
    isa.dma_load sizes [256] from global 0 to local 143300
    isa.sync 1
  }
}

// CHECK: core (0, 0), phase 1, #1 isa.dma_load: local box bytes [143300, 143556) are outside local memory [0, 143360)

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.relu 0 : tensor<1x4x4x16xi8> -> 264 : tensor<1x4x4x16xi8>
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.relu: output address 264 is not a multiple of 16 (tianjicx activation alignment)

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.relu 64 : tensor<1x4x4x16xi32> -> 2048 : tensor<1x4x4x16xi8>
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.relu: input address 64 is not a multiple of 128 (tianjicx partial_sum alignment)

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.dma_store sizes [64] from local 0 to global 1073741800
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.dma_store: global box bytes [1073741800, 1073741864) are outside global memory [0, 1073741824)

// -----

// Races on global memory: cores run in no defined order within a phase

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.dma_store sizes [256] from local 0 to global 512
    isa.sync 0
  }
  isa.core (0, 1) {
    isa.dma_load sizes [256] from global 512 to local 0
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.dma_store writes global bytes [512, 768) and core (0, 1), phase 0, #0 isa.dma_load reads global bytes [512, 768): both touch bytes [512, 768) in phase 0, where cores run in no defined order

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 1) {
    isa.sync 0
    isa.dma_load sizes [64] from global 0 to local 0
    isa.dma_store sizes [64] from local 0 to global 1000
    isa.sync 1
  }
  isa.core (3, 2) {
    isa.sync 0
    isa.dma_store sizes [4, 16] from local 0 to global 960 strides [32, 1]
    isa.sync 1
  }
}

// CHECK: core (3, 2), phase 1, #1 isa.dma_store writes global bytes [960, 1072) and core (0, 1), phase 1, #2 isa.dma_store writes global bytes [1000, 1064): both touch bytes [1000, 1008) in phase 1, where cores run in no defined order

// -----

// NoC transfers

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.send 16 bytes from 0 to (0, 1) tag 1
    isa.send 16 bytes from 0 to (0, 1) tag 1
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #1 isa.send: tag 1 is already used by core (0, 0), phase 0, #0 isa.send

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.send 16 bytes from 0 to (0, 0) tag 1
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.send: a core does not send to itself

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.send 16 bytes from 0 to (0, 16) tag 1
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.send: peer (0, 16) is not a core of tianjicx

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.send 16 bytes from 0 to (0, 1) tag 1
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.send: no isa.recv takes tag 1

// -----

isa.program @p target "set-8x8" {
  isa.core (0, 0) {
    isa.dma_multicast sizes [16] from global 0 to local 0 and (0, 1) tag 1
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.dma_multicast: no isa.recv takes tag 1

// -----

isa.program @p target "set-8x8" {
  isa.core (0, 0) {
    isa.dma_multicast sizes [16] from global 0 to local 0 and (0, 1), (0, 1) tag 1
    isa.sync 0
  }
}

// CHECK: destination (0, 1) is listed twice

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.recv 16 bytes to 0 from (0, 1) tag 1
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.recv: no isa.send gives tag 1

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.send 16 bytes from 0 to (0, 1) tag 1
    isa.sync 0
  }
  isa.core (0, 1) {
    isa.recv 16 bytes to 0 from (0, 2) tag 1
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.send: tag 1 goes to (0, 1), but its receive (core (0, 1), phase 0, #0 isa.recv) expects it from (0, 2)

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.send 16 bytes from 0 to (0, 1) tag 1
    isa.sync 0
    isa.sync 1
  }
  isa.core (0, 1) {
    isa.sync 0
    isa.recv 16 bytes to 0 from (0, 0) tag 1
    isa.sync 1
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.send: tag 1 is received in phase 1 (core (0, 1), phase 1, #1 isa.recv)

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.send 16 bytes from 0 to (0, 1) tag 1
    isa.sync 0
  }
  isa.core (0, 1) {
    isa.recv 32 bytes to 0 from (0, 0) tag 1
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.send: sends 16 bytes with tag 1, but core (0, 1), phase 0, #0 isa.recv receives 32

// -----

// Multicast sends

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.send 16 bytes from 0 to (0, 1), (1, 1), (0, 1) tag 1
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.send: destination (0, 1) is listed twice

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.send 16 bytes from 0 to (0, 1), (0, 0) tag 1
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.send: a core does not send to itself

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.send 16 bytes from 0 to (0, 1), (1, 1) tag 1
    isa.sync 0
  }
  isa.core (0, 1) {
    isa.recv 16 bytes to 0 from (0, 0) tag 1
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.send: tag 1 goes to (1, 1), where no isa.recv takes it

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.send 16 bytes from 0 to (0, 1), (1, 1) tag 1
    isa.sync 0
  }
  isa.core (0, 1) {
    isa.recv 16 bytes to 0 from (0, 0) tag 1
    isa.sync 0
  }
  isa.core (1, 1) {
    isa.recv 16 bytes to 0 from (0, 0) tag 1
    isa.sync 0
  }
  isa.core (1, 0) {
    isa.recv 16 bytes to 0 from (0, 0) tag 1
    isa.sync 0
  }
}

// CHECK: core (1, 0), phase 0, #0 isa.recv: tag 1 goes to (0, 1), (1, 1) (core (0, 0), phase 0, #0 isa.send)

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.send 16 bytes from 0 to (0, 1), (1, 1) tag 1
    isa.sync 0
  }
  isa.core (0, 1) {
    isa.recv 16 bytes to 0 from (0, 0) tag 1
    isa.recv 16 bytes to 16 from (0, 0) tag 1
    isa.sync 0
  }
}

// CHECK: core (0, 1), phase 0, #1 isa.recv: tag 1 is already used by core (0, 1), phase 0, #0 isa.recv

// -----

// Declarations

isa.program @p target "tianjicx" {
  isa.input "x" : tensor<1x4x2x2xi32> at 0 as nhwc
}

// CHECK: input "x": network inputs are NCHW i8 tensors of rank 4, got tensor<1x4x2x2xi32>

// -----

isa.program @p target "tianjicx" {
  isa.output "y" : tensor<4x2x2xi8> at 0 as nchw
}

// CHECK: output "y": network outputs are NCHW i8 or i32 tensors of rank 4, got tensor<4x2x2xi8>

// -----

isa.program @p target "tianjicx" {
  isa.input "x" : tensor<1x4x2x2xi8> at -64 as nhwc
}

// CHECK: input "x": global address -64 is negative

// -----

isa.program @p target "tianjicx" {
  isa.data #task.random<1> : tensor<4x4xi8> at 0
}

// CHECK: data at 0: data is a weight (rank 4, i8), a bias (rank 1, i32) or a table (rank 1, i8), got tensor<4x4xi8>

// -----

"isa.program"() <{sym_name = "p", target = "tianjicx"}> ({
  "isa.data"() <{data = dense<[1, 2]> : tensor<2xi32>, full_type = tensor<4xi32>, address = 0 : i64}> : () -> ()
}) : () -> ()

// CHECK: data at 0: dense data of type tensor<2xi32> is not tensor<4xi32>

// -----

isa.program @p target "tianjicx" {
  isa.data #task.random<1> : tensor<4xi32>[2:6] at 0
}

// CHECK: data at 0: box [2:6] is not inside tensor<4xi32>

// -----

isa.program @p target "tianjicx" {
  isa.data #task.random<1> : tensor<4xi32> at -4
}

// CHECK: data at -4: global address -4 is negative

// -----

// List-valued properties are i64 arrays (a float array would break printing and execution)

"isa.program"() <{sym_name = "p", target = "tianjicx"}> ({
  "isa.core"() <{coord = array<f32: 0.0, 1.0>}> ({
    "isa.sync"() <{phase = 0 : i64}> : () -> ()
  }) : () -> ()
}) : () -> ()

// CHECK: coord must be an array<i64: ...>, got array<f32: 0.000000e+00, 1.000000e+00>

// -----

"isa.program"() <{sym_name = "p", target = "tianjicx"}> ({
  "isa.core"() <{coord = array<i64: 0, 0>}> ({
    "isa.dma_load"() <{sizes = array<f32: 16.0>, global_address = 0 : i64, global_strides = array<i64: 1>, local_address = 0 : i64, local_strides = array<i64: 1>}> : () -> ()
    "isa.sync"() <{phase = 0 : i64}> : () -> ()
  }) : () -> ()
}) : () -> ()

// CHECK: sizes must be an array<i64: ...>, got array<f32: 1.600000e+01>

// -----

"isa.program"() <{sym_name = "p", target = "tianjicx"}> ({
  "isa.core"() <{coord = array<i64: 0, 0>}> ({
    "isa.dma_store"() <{sizes = array<i64: 16>, global_address = 0 : i64, global_strides = array<i64: 1>, local_address = 0 : i64, local_strides = array<i32: 1>}> : () -> ()
    "isa.sync"() <{phase = 0 : i64}> : () -> ()
  }) : () -> ()
}) : () -> ()

// CHECK: local_strides must be an array<i64: ...>, got array<i32: 1>

// -----

"isa.program"() <{sym_name = "p", target = "tianjicx"}> ({
  "isa.core"() <{coord = array<i64: 0, 0>}> ({
    "isa.send"() <{tag = 1 : i64, dsts = array<f64: 0.0, 1.0>, address = 0 : i64, bytes = 16 : i64}> : () -> ()
    "isa.sync"() <{phase = 0 : i64}> : () -> ()
  }) : () -> ()
}) : () -> ()

// CHECK: dsts must be an array<i64: ...>, got array<f64: 0.000000e+00, 1.000000e+00>

// -----

"isa.program"() <{sym_name = "p", target = "tianjicx"}> ({
  "isa.core"() <{coord = array<i64: 0, 0>}> ({
    "isa.vec_trans_scatter"() <{element_type = i8, dst = 0 : i64, dst_list = array<f32: 0.0, 32.0, 64.0, 96.0, 128.0, 160.0, 192.0, 224.0, 256.0, 288.0, 320.0, 352.0, 384.0, 416.0, 448.0, 480.0>, src = 4096 : i64, src_list = array<i64: 0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480>, repeat_times = 1 : i64, dst_rep_stride = 0 : i64, src_rep_stride = 0 : i64}> : () -> ()
    "isa.sync"() <{phase = 0 : i64}> : () -> ()
  }) : () -> ()
}) : () -> ()

// CHECK: dst_list must be an array<i64: ...>, got array<f32: 0.000000e+00, 3.200000e+01

// -----

"isa.program"() <{sym_name = "p", target = "tianjicx"}> ({
  "isa.core"() <{coord = array<i64: 0, 0>}> ({
    "isa.maxpool"() <{inputs = [#isa.tile<0 : tensor<1x8x8x16xi8>>], output = #isa.tile<1024 : tensor<1x4x4x16xi8>>, window = array<f32: 2.0, 2.0>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, cmp = -128 : i64, shift = 0 : i64}> : () -> ()
    "isa.sync"() <{phase = 0 : i64}> : () -> ()
  }) : () -> ()
}) : () -> ()

// CHECK: window must be an array<i64: ...>, got array<f32: 2.000000e+00, 2.000000e+00>

// -----

"isa.program"() <{sym_name = "p", target = "tianjicx"}> ({
  "isa.core"() <{coord = array<i64: 0, 0>}> ({
    "isa.conv"() <{inputs = [#isa.tile<0 : tensor<1x4x4x16xi8>>, #isa.tile<256 : tensor<8x3x3x16xi8>>], output = #isa.tile<1536 : tensor<1x4x4x8xi8>>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, dilation = array<f16: 1.0, 1.0>, shift = 0 : i64}> : () -> ()
    "isa.sync"() <{phase = 0 : i64}> : () -> ()
  }) : () -> ()
}) : () -> ()

// CHECK: dilation must be an array<i64: ...>, got array<f16: 1.000000e+00, 1.000000e+00>

// -----

"isa.program"() <{sym_name = "p", target = "set-8x8"}> ({
  "isa.core"() <{coord = array<i64: 0, 0>}> ({
    "isa.conv"() <{inputs = [#isa.tile<0 : tensor<1x4x4x16xi8>>, #isa.tile<256 : tensor<8x3x3x16xi8>>], output = #isa.tile<1536 : tensor<1x4x4x8xi8>>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, dilation = array<i64: 1, 1>, shift = 0 : i64, relu = 0 : i64, table = #isa.tile<2048 : tensor<256xi8>>}> : () -> ()
    "isa.sync"() <{phase = 0 : i64}> : () -> ()
  }) : () -> ()
}) : () -> ()

// CHECK: core (0, 0), phase 0, #0 isa.conv: applies one fused activation, a relu or a lut, not both

// -----

"isa.program"() <{sym_name = "p", target = "set-8x8"}> ({
  "isa.core"() <{coord = array<i64: 0, 0>}> ({
    "isa.relu"() <{inputs = [#isa.tile<0 : tensor<1x4x4x16xi8>>], output = #isa.tile<1536 : tensor<1x4x4x16xi8>>, cmp = 0 : i64, shift = 0 : i64, relu = 0 : i64}> : () -> ()
    "isa.sync"() <{phase = 0 : i64}> : () -> ()
  }) : () -> ()
}) : () -> ()

// CHECK: core (0, 0), phase 0, #0 isa.relu: applies no fused activation (only conv and fc do)

// -----

// Cores and phases

isa.program @p target "tianjicx" {
  isa.core (0, -1) {
  }
}

// CHECK: isa.core: a coordinate is (y, x) with y, x >= 0, got [0, -1]

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    task.graph @g {
    }
  }
}

// CHECK: core (0, 0) holds instructions, not task.graph

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.sync 0
    isa.sync 2
  }
}

// CHECK: core (0, 0): isa.sync 2 ends phase 1; syncs count up from 0

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.sync 0
    isa.relu 0 : tensor<1x4x4x16xi8> -> 256 : tensor<1x4x4x16xi8>
  }
}

// CHECK: core (0, 0): phase 1 is not ended by isa.sync 1

// -----

isa.program @p target "tianjicx" {
  isa.sync 0
}

// CHECK: 'isa.sync' expects parent op 'isa.core'

// -----

// DMA

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.dma_load sizes [4, 0] from global 0 to local 0
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.dma_load: sizes must be integers >= 1, got [4, 0]

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.dma_load sizes [4, 16] from global 0 strides [16] to local 0
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.dma_load: global strides must be 2 integers >= 0, got [16]

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.dma_load sizes [4, 16] from global 0 to local 0 strides [-16, 1]
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.dma_load: local strides must be 2 integers >= 0, got [-16, 1]

// -----

isa.program @p target "tianjicx" {
  isa.core (2, 3) {
    isa.sync 0
    isa.dma_load sizes [16] from global 0 to local 0
    isa.dma_store sizes [16] from local -16 to global 0
    isa.sync 1
  }
}

// CHECK: core (2, 3), phase 1, #2 isa.dma_store: local address -16 is negative

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 1) {
    isa.sync 0
    isa.sync 1
    isa.dma_load sizes [16] from global -16 to local 0
    isa.sync 2
  }
}

// CHECK: core (0, 1), phase 2, #2 isa.dma_load: global address -16 is negative

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.dma_load sizes [4, 16] from global 0 to local 0 strides [8, 1]
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.dma_load: local strides [8, 1] write some bytes twice for sizes [4, 16]

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.dma_store sizes [4, 16] from local 0 strides [0, 1] to global 0 strides [16, 0]
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.dma_store: global strides [16, 0] write some bytes twice for sizes [4, 16]

// -----

// Send and receive

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.send 16 bytes from 0 to (-1, 0) tag 1
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.send: the destinations are cores (y, x) with y, x >= 0, got [-1, 0]

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.send 0 bytes from 0 to (0, 1) tag 1
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.send: transfers carry at least 1 byte, got 0

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.recv 16 bytes to -16 from (0, 1) tag 1
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.recv: local address -16 is negative

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.recv 16 bytes to 0 from (0, 1) tag -1
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.recv: tag -1 is negative

// -----

// vec_trans_scatter

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.vec_trans_scatter dst 0 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] src 4096 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] repeat 1 strides [0, 0] : i64
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.vec_trans_scatter: element type i64 is not one of i8, ui8, i16, ui16, f16, i32, ui32, f32

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.vec_trans_scatter dst 0 [0, 32] src 4096 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] repeat 1 strides [0, 0] : i8
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.vec_trans_scatter: dst_list must hold 16 element offsets, got shape (2,)

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.vec_trans_scatter dst 0 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] src 4096 [-32, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] repeat 1 strides [0, 0] : i8
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.vec_trans_scatter: src_list[0] = -32 is negative

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.vec_trans_scatter dst 0 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] src 4096 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 472] repeat 1 strides [0, 0] : i8
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.vec_trans_scatter: src_list[15] = 472 is byte address 4568, not a multiple of the 32-byte block

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.vec_trans_scatter dst 0 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] src 4096 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] repeat 256 strides [16, 16] : i8
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.vec_trans_scatter: repeat_times = 256 is outside [0, 255]

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.vec_trans_scatter dst 0 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] src 4096 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] repeat 2 strides [65536, 1] : i8
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.vec_trans_scatter: dst_rep_stride = 65536 is outside [0, 65535]

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.vec_trans_scatter dst 0 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] src 4096 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] repeat 1 strides [16, 0] : i8
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.vec_trans_scatter: repeat_times = 1 with dst_rep_stride = 16 and src_rep_stride = 0: vendor documents disagree on whether a single repeat adds the stride; pass strides 0

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.vec_trans_scatter dst 0 [0, 0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448] src 4096 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480] repeat 1 strides [0, 0] : i8
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.vec_trans_scatter: dst_list[0] and dst_list[1] both name byte address 0; the 16 destination blocks must be distinct

// -----

// Compute instructions

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.conv 0 : tensor<1x6x8x16xi8> -> 5760 : tensor<1x4x8x32xi8>
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.conv: takes 2 input tiles (input, weight), got 1

// -----

"isa.program"() <{sym_name = "p", target = "tianjicx"}> ({
  "isa.core"() <{coord = array<i64: 0, 0>}> ({
    "isa.add"() <{inputs = [], output = #isa.tile<0 : tensor<1x4x4x16xi8>>, shift = 0 : i64}> : () -> ()
    "isa.sync"() <{phase = 0 : i64}> : () -> ()
  }) : () -> ()
}) : () -> ()

// CHECK: core (0, 0), phase 0, #0 isa.add: takes at least one input tile

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.relu 0 : tensor<16xi8> -> 256 : tensor<16xi8>
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.relu: the output is an NHWC tile of rank 4, got tensor<16xi8>

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.relu 0 : tensor<1x4x4x16xi8> -> 256 : tensor<1x4x4x16xi8> shift 32
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.relu: shift must be in [0, 31], got 32

// -----

"isa.program"() <{sym_name = "p", target = "tianjicx"}> ({
  "isa.core"() <{coord = array<i64: 0, 0>}> ({
    "isa.relu"() <{inputs = [#isa.tile<0 : tensor<1x4x4x16xi8>>], bias = #isa.tile<512 : tensor<16xi32>>, output = #isa.tile<256 : tensor<1x4x4x16xi8>>, cmp = 0 : i64, shift = 0 : i64}> : () -> ()
    "isa.sync"() <{phase = 0 : i64}> : () -> ()
  }) : () -> ()
}) : () -> ()

// CHECK: core (0, 0), phase 0, #0 isa.relu: takes no bias

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.add 0 : tensor<1x4x4x16xi8> bias 512 : tensor<8xi32> -> 256 : tensor<1x4x4x16xi8>
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.add: the bias must be tensor<16xi32>, got tensor<8xi32>

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.conv 0 : tensor<1x6x8x16xi32>, 2048 : tensor<32x3x3x16xi8> -> 8192 : tensor<1x4x6x32xi8>
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.conv: the input is an i8 tile of rank 4, got tensor<1x6x8x16xi32>

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.conv 0 : tensor<1x6x8x16xi8>, 2048 : tensor<32x3x3x16xi8> -> 8192 : tensor<1x4x6x32xi8> relu 0
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.conv: applies a fused relu, but tianjicx's convs apply none (compute.fused_activation = false)

// -----

isa.program @p target "set-8x8" {
  isa.core (0, 0) {
    isa.conv 0 : tensor<1x6x8x16xi8>, 2048 : tensor<32x3x3x16xi8> -> 8192 : tensor<1x4x6x32xi8> lut 16384 : tensor<128xi8>
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.conv: the fused lut's table is tensor<256xi8>, got tensor<128xi8>

// -----

isa.program @p target "set-8x8" {
  isa.core (0, 0) {
    isa.conv 0 : tensor<1x6x8x16xi8>, 2048 : tensor<32x3x3x16xi8> -> 8192 : tensor<1x4x6x32xi32> lut 16384 : tensor<256xi8>
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.conv: a fused lut writes i8, got tensor<1x4x6x32xi32>

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.conv 0 : tensor<1x6x8x16xi8>, 1024 : tensor<32x3x3x8xi8> -> 8192 : tensor<1x4x6x32xi8>
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.conv: the weight tensor<32x3x3x8xi8> must reduce over the input's 16 channels

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.conv 0 : tensor<1x6x8x16xi8>, 1024 : tensor<32x3x3x16xi8> -> 8192 : tensor<1x4x8x32xi8>
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.conv: the output must be [1, 4, 6, 32] for these inputs, got [1, 4, 8, 32]

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.maxpool 0 : tensor<1x8x8x16xi8> -> 1024 : tensor<1x4x4x16xi8> window [2, 2] stride [2]
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.maxpool: stride must be two integers in [1, 65535], got [2]

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.maxpool 0 : tensor<1x8x8x16xi8> -> 1024 : tensor<1x4x4x16xi8> window [2, 2] pad [0, 2, 0, 0]
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.maxpool: pad [0, 2] must be smaller than the window extent 2

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.avgpool 0 : tensor<1x2x2x16xi8> -> 1024 : tensor<1x4x4x16xi8> window [3, 3]
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.avgpool: window extent [3, 3] does not fit the padded 2x2 input

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.fc 0 : tensor<1x4x4x16xi8>, 256 : tensor<10x2x4x16xi8> -> 2816 : tensor<1x1x1x10xi8>
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.fc: the weight tensor<10x2x4x16xi8> must span the whole input tensor<1x4x4x16xi8>

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.lut 0 : tensor<1x4x4x16xi8>, 256 : tensor<128xi8> -> 512 : tensor<1x4x4x16xi8>
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.lut: the table is tensor<256xi8>, got tensor<128xi8>

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.lut 0 : tensor<1x4x4x16xi8>, 256 : tensor<256xi8> -> 512 : tensor<1x4x4x16xi32>
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.lut: the output is i8, got tensor<1x4x4x16xi32>

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.add 0 : tensor<1x4x4x16xi8>, 256 : tensor<1x4x2x16xi8> -> 512 : tensor<1x4x4x16xi8>
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.add: branch #1 tensor<1x4x2x16xi8> must have the output's shape [1, 4, 4, 16]

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.mul 0 : tensor<1x4x4x16xi8>, 256 : tensor<1x4x4x16xi32> -> 512 : tensor<1x4x4x16xi8>
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.mul: the rhs is an i8 tile of rank 4, got tensor<1x4x4x16xi32>

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.mul 0 : tensor<1x4x4x16xi8>, 256 : tensor<1x4x4x8xi8> -> 512 : tensor<1x4x4x16xi8>
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.mul: rhs tensor<1x4x4x8xi8> must have the output's shape [1, 4, 4, 16]

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.recv sizes [4, 16] to 0 strides [8, 1] from (0, 1) tag 1
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.recv: strides [8, 1] write some bytes twice for sizes [4, 16]

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.copy sizes [4, 16] from 0 to 256 strides [8, 1]
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.copy: destination strides [8, 1] write some bytes twice for sizes [4, 16]

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.copy sizes [4, 0] from 0 to 256
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.copy: sizes must be integers >= 1, got [4, 0]

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.copy sizes [16] from 0 to 143352
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.copy: destination bytes [143352, 143368) are outside local memory [0, 143360)

// -----

isa.program @p target "set-8x8" {
  isa.core (0, 0) {
    isa.conv 0 : tensor<1x4x4x16xi8>, 256 : tensor<8x3x3x16xi8> -> 1408 : tensor<1x2x2x8xi32> dataflow [2, 1, 1, 256]
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.conv: dataflow is [packed 0 or 1, split, groups, tile >= 1], got [2, 1, 1, 256]

// -----

isa.program @p target "set-8x8" {
  isa.core (0, 0) {
    isa.conv 0 : tensor<1x4x4x256xi8>, 4096 : tensor<32x3x3x256xi8> -> 77824 : tensor<1x2x2x32xi32> dataflow [0, 1, 2, 256]
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.conv: dataflow [0, 1, 2, 256]: 2 lane groups of 288 weight vectors do not fit a weight buffer of 512 vectors (at most 1)

// -----

isa.program @p target "set-8x8" {
  isa.core (0, 0) {
    isa.fc 0 : tensor<1x1x1x64xi8>, 64 : tensor<8x1x1x64xi8> -> 576 : tensor<1x1x1x8xi32> dataflow [0, 1, 1, 512]
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.fc: dataflow [0, 1, 1, 512]: a tile of 512 positions does not fit a partial-sum buffer of 256

// -----

isa.program @p target "set-8x8" {
  isa.core (0, 0) {
    isa.conv 0 : tensor<1x4x4x16xi8>, 256 : tensor<8x3x3x16xi8> -> 1408 : tensor<1x2x2x8xi32> dataflow [0, 8, 1, 256]
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.conv: dataflow [0, 8, 1, 256]: split 8 is not in [1, 4] PEs

// -----

isa.program @p target "tianjicx" {
  isa.core (0, 0) {
    isa.conv 0 : tensor<1x4x4x16xi8>, 256 : tensor<8x3x3x16xi8> -> 1408 : tensor<1x2x2x8xi32> dataflow [1, 1, 1, 256]
    isa.sync 0
  }
}

// CHECK: core (0, 0), phase 0, #0 isa.conv: dataflow [1, 1, 1, 256]: the target has no core buffers to choose a dataflow for
