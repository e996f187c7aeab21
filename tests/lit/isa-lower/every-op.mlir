// Every op kind lowered on tianjicx, with a concatenation: st-place without annealing puts
// the graph on cores (0, 0) and (0, 1), one block per phase, so each result waits in global
// memory for the buffer of a later phase. Network inputs are loaded from NCHW into HWC
// tiles by strided DMA (NCHW -> HWC), outputs stored back to NCHW; the concatenation's two
// pieces land in one buffer at channel offsets 0 and 16: they wait in one region laid out as
// the concatenated tensor (`spill_frames`, each stored strided to its channels), which the
// buffer loads with one DMA, and the other buffers that take one of them by strided DMA.
//
// The ALLOC lines check st-lmem-alloc's addresses. On TianjicX (MEM0 and MEM1 of 64 KB at 0 and 65536,
// MEM2 from 131072 with 12 KB usable) each compute block's input tiles and its result are
// in different banks: the inputs in MEM2, the results in MEM0.

// RUN: stc-opt %s -p 'st-place{target=tianjicx iterations=0},st-route,st-lmem-alloc' | filecheck %s --check-prefix=ALLOC
// RUN: stc-opt %s -p 'st-place{target=tianjicx iterations=0},st-route,st-lmem-alloc,isa-lower' | filecheck %s
// RUN: stc-opt %s -p 'st-place{target=tianjicx iterations=0},st-route,st-lmem-alloc,isa-lower' -o %t && stc-run %s --compare %t | filecheck %s --check-prefix=SAME

task.graph @every_op {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %relu_in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %relu = task.relu 2 %relu_in : tensor<1x8x8x16xi8>
  %max_in = task.buffer 3 si %relu : tensor<1x8x8x16xi8>
  %max = task.maxpool 4 %max_in window [2, 2] stride [2, 2] : tensor<1x4x4x16xi8>
  %lut_in = task.buffer 5 si %max : tensor<1x4x4x16xi8>
  %table = task.table 6 #task.random<11> : tensor<256xi8>
  %lut = task.lut 7 %lut_in, %table : tensor<1x4x4x16xi8>
  %avg_in = task.buffer 8 si %x : tensor<1x8x8x16xi8>
  %avg_bias = task.bias 9 #task.random<12> : tensor<16xi32>
  %avg = task.avgpool 10 %avg_in bias %avg_bias window [2, 2] stride [2, 2] shift 2 : tensor<1x4x4x16xi8>
  %mul_lhs = task.buffer 11 si %avg : tensor<1x4x4x16xi8>
  %mul_rhs = task.buffer 12 si %lut : tensor<1x4x4x16xi8>
  %mul = task.mul 13 %mul_lhs, %mul_rhs shift 6 : tensor<1x4x4x16xi8>
  %add_avg = task.buffer 14 si %avg : tensor<1x4x4x16xi8>
  %add_mul = task.buffer 15 si %mul : tensor<1x4x4x16xi8>
  %add_lut = task.buffer 16 si %lut : tensor<1x4x4x16xi8>
  %add_bias = task.bias 17 #task.random<12> : tensor<16xi32>
  %add = task.add 18 %add_avg, %add_mul, %add_lut bias %add_bias shift 1 : tensor<1x4x4x16xi8>
  %fc_in = task.buffer 19 sifc %add : tensor<1x4x4x16xi8>
  %fc_w = task.weight 20 #task.random<13> : tensor<10x4x4x16xi8>
  %fc_b = task.bias 21 #task.random<14> : tensor<10xi32>
  %fc = task.fc 22 %fc_in, %fc_w bias %fc_b shift 9 : tensor<1x1x1x10xi8>
  %y = task.buffer 23 so %fc : tensor<1x1x1x10xi8>
  task.output 24 "y" %y
  %conv_in = task.buffer 25 sic %x : tensor<1x8x8x16xi8>
  %conv_w = task.weight 26 #task.random<15> : tensor<8x1x1x16xi8>
  %conv = task.conv 27 %conv_in, %conv_w : tensor<1x8x8x8xi32>
  %z_in = task.buffer 28 si %conv : tensor<1x8x8x8xi32>
  %z_relu = task.relu 29 %z_in shift 8 : tensor<1x8x8x8xi8>
  %z = task.buffer 30 so %z_relu : tensor<1x8x8x8xi8>
  task.output 31 "z" %z
  %cat_in = task.buffer 32 si %avg, %mul at [0, 0, 0, 16] : tensor<1x4x4x32xi8>
  %cat = task.relu 33 %cat_in : tensor<1x4x4x32xi8>
  %c = task.buffer 34 so %cat : tensor<1x4x4x32xi8>
  task.output 35 "c" %c
}

// ALLOC: task.buffer 1 {{.*}} st.addr = 131072 : i64
// ALLOC: task.relu 2 {{.*}} st.addr = 0 : i64
// ALLOC: task.buffer 3 {{.*}} st.addr = 131072 : i64
// ALLOC: task.maxpool 4 {{.*}} st.addr = 0 : i64
// ALLOC: task.buffer 5 {{.*}} st.addr = 131072 : i64
// ALLOC: task.table 6 {{.*}} st.addr = 131328 : i64
// ALLOC: task.lut 7 {{.*}} st.addr = 0 : i64
// ALLOC: task.buffer 8 {{.*}} st.addr = 132096 : i64
// ALLOC: task.bias 9 {{.*}} st.addr = 133120 : i64
// ALLOC: task.avgpool 10 {{.*}} st.addr = 1024 : i64
// ALLOC: task.buffer 11 {{.*}} st.addr = 131072 : i64
// ALLOC: task.buffer 12 {{.*}} st.addr = 131328 : i64
// ALLOC: task.mul 13 {{.*}} st.addr = 0 : i64
// ALLOC: task.buffer 14 {{.*}} st.addr = 131584 : i64
// ALLOC: task.buffer 15 {{.*}} st.addr = 131840 : i64
// ALLOC: task.buffer 16 {{.*}} st.addr = 132096 : i64
// ALLOC: task.bias 17 {{.*}} st.addr = 132352 : i64
// ALLOC: task.add 18 {{.*}} st.addr = 512 : i64
// ALLOC: task.buffer 19 {{.*}} st.addr = 133632 : i64
// ALLOC: task.weight 20 {{.*}} st.addr = 131072 : i64
// ALLOC: task.bias 21 {{.*}} st.addr = 133888 : i64
// ALLOC: task.fc 22 {{.*}} st.addr = 0 : i64
// ALLOC: task.buffer 23 {{.*}} st.addr = 0 : i64
// ALLOC: task.buffer 25 {{.*}} st.addr = 0 : i64
// ALLOC: task.weight 26 {{.*}} st.addr = 1024 : i64
// ALLOC: task.conv 27 {{.*}} st.addr = 131072 : i64
// ALLOC: task.buffer 28 {{.*}} st.addr = 131072 : i64
// ALLOC: task.relu 29 {{.*}} st.addr = 0 : i64
// ALLOC: task.buffer 30 {{.*}} st.addr = 0 : i64
// ALLOC: task.buffer 32 {{.*}} st.addr = 131072 : i64
// ALLOC: task.relu 33 {{.*}} st.addr = 0 : i64
// ALLOC: task.buffer 34 {{.*}} st.addr = 0 : i64

// CHECK:      isa.program @every_op target "tianjicx" {
// CHECK-NEXT: isa.input "x" : tensor<1x16x8x8xi8> at 0 as nchw
// CHECK-NEXT: isa.output "y" : tensor<1x10x1x1xi8> at 1024 as nchw
// CHECK-NEXT: isa.output "z" : tensor<1x8x8x8xi8> at 1088 as nchw
// CHECK-NEXT: isa.output "c" : tensor<1x32x4x4xi8> at 1600 as nchw
// CHECK:      isa.core (0, 0) {
// CHECK-NEXT: isa.dma_load sizes [1, 8, 8, 16] from global 0 strides [1024, 8, 1, 64] to local 131072
// CHECK-NEXT: isa.relu 131072 : tensor<1x8x8x16xi8> -> 0 : tensor<1x8x8x16xi8>
// CHECK-NEXT: isa.dma_store sizes [1024] from local 0 to global 2112
// CHECK-NEXT: isa.dma_load sizes [1, 8, 8, 16] from global 0 strides [1024, 8, 1, 64] to local 132096
// CHECK-NEXT: isa.dma_load sizes [64] from global 3904 to local 133120
// CHECK-NEXT: isa.avgpool 132096 : tensor<1x8x8x16xi8> bias 133120 : tensor<16xi32> -> 1024 : tensor<1x4x4x16xi8> window [2, 2] stride [2, 2] shift 2
// CHECK-NEXT: isa.dma_store sizes [1, 4, 4, 16] from local 1024 to global 3968 strides [512, 128, 32, 1]
// CHECK-NEXT: isa.sync 0
// CHECK-NEXT: isa.dma_load sizes [1, 8, 8, 16] from global 2112 to local 131072
// CHECK-NEXT: isa.maxpool 131072 : tensor<1x8x8x16xi8> -> 0 : tensor<1x4x4x16xi8> window [2, 2] stride [2, 2]
// CHECK-NEXT: isa.dma_store sizes [256] from local 0 to global 3136
// CHECK-NEXT: isa.sync 1
// CHECK-NEXT: isa.dma_load sizes [1, 4, 4, 16] from global 3136 to local 131072
// CHECK-NEXT: isa.dma_load sizes [256] from global 3392 to local 131328
// CHECK-NEXT: isa.lut 131072 : tensor<1x4x4x16xi8>, 131328 : tensor<256xi8> -> 0 : tensor<1x4x4x16xi8>
// CHECK-NEXT: isa.dma_store sizes [256] from local 0 to global 3648
// CHECK-NEXT: isa.sync 2
// CHECK-NEXT: isa.dma_load sizes [1, 4, 4, 16] from global 3648 to local 131328
// CHECK-NEXT: isa.dma_load sizes [1, 4, 4, 16] from global 3968 strides [512, 128, 32, 1] to local 131072
// CHECK-NEXT: isa.mul 131072 : tensor<1x4x4x16xi8>, 131328 : tensor<1x4x4x16xi8> -> 0 : tensor<1x4x4x16xi8> shift 6
// CHECK-NEXT: isa.dma_store sizes [1, 4, 4, 16] from local 0 to global 3984 strides [512, 128, 32, 1]
// CHECK-NEXT: isa.sync 3
// CHECK-NEXT: isa.dma_load sizes [1, 4, 4, 16] from global 3648 to local 132096
// CHECK-NEXT: isa.dma_load sizes [1, 4, 4, 16] from global 3968 strides [512, 128, 32, 1] to local 131584
// CHECK-NEXT: isa.dma_load sizes [1, 4, 4, 32] from global 3968 to local 131072
// CHECK-NEXT: isa.dma_load sizes [1, 4, 4, 16] from global 3984 strides [512, 128, 32, 1] to local 131840
// CHECK-NEXT: isa.dma_load sizes [64] from global 3904 to local 132352
// CHECK-NEXT: isa.add 131584 : tensor<1x4x4x16xi8>, 131840 : tensor<1x4x4x16xi8>, 132096 : tensor<1x4x4x16xi8> bias 132352 : tensor<16xi32> -> 512 : tensor<1x4x4x16xi8> shift 1
// CHECK-NEXT: isa.dma_store sizes [256] from local 512 to global 4480
// CHECK-NEXT: isa.relu 131072 : tensor<1x4x4x32xi8> -> 0 : tensor<1x4x4x32xi8>
// CHECK-NEXT: isa.dma_store sizes [1, 4, 4, 32] from local 0 to global 1600 strides [512, 4, 1, 16]
// CHECK-NEXT: isa.sync 4
// CHECK-NEXT: isa.dma_load sizes [1, 4, 4, 16] from global 4480 to local 133632
// CHECK-NEXT: isa.dma_load sizes [2560] from global 4736 to local 131072
// CHECK-NEXT: isa.dma_load sizes [40] from global 7296 to local 133888
// CHECK-NEXT: isa.fc 133632 : tensor<1x4x4x16xi8>, 131072 : tensor<10x4x4x16xi8> bias 133888 : tensor<10xi32> -> 0 : tensor<1x1x1x10xi8> shift 9
// CHECK-NEXT: isa.dma_store sizes [1, 1, 1, 10] from local 0 to global 1024 strides [10, 1, 1, 1]
// CHECK-NEXT: isa.sync 5
// CHECK:      isa.core (0, 1) {
// CHECK-NEXT: isa.dma_load sizes [1, 8, 8, 16] from global 0 strides [1024, 8, 1, 64] to local 0
// CHECK-NEXT: isa.dma_load sizes [128] from global 7360 to local 1024
// CHECK-NEXT: isa.conv 0 : tensor<1x8x8x16xi8>, 1024 : tensor<8x1x1x16xi8> -> 131072 : tensor<1x8x8x8xi32>
// CHECK-NEXT: isa.dma_store sizes [2048] from local 131072 to global 7488
// CHECK-NEXT: isa.sync 0
// CHECK-NEXT: isa.dma_load sizes [1, 8, 8, 32] from global 7488 to local 131072
// CHECK-NEXT: isa.relu 131072 : tensor<1x8x8x8xi32> -> 0 : tensor<1x8x8x8xi8> shift 8
// CHECK-NEXT: isa.dma_store sizes [1, 8, 8, 8] from local 0 to global 1088 strides [512, 8, 1, 64]
// CHECK-NEXT: isa.sync 1

// SAME: 3 outputs bit-identical
