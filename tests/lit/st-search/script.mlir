// st-search on a two-conv network at batch 2: the searched tree, kept on the mapping, and
// the action script that runs it. On tpu-like (one core) the root T-cut of one subbatch
// makes each layer a segment, so conv10's input passes through global memory.

// RUN: stc-opt %s -p 'st-search{target=tpu-like rounds=5 chains=1}' | filecheck %s
// RUN: stc-opt %s -p 'st-search{target=set-8x8 rounds=5 chains=1}' | filecheck %s --check-prefix=MESH
// RUN: stc-opt %s -p 'stc-pipeline{target=set-8x8 search=true rounds=5}' -o %t.isa.mlir
// RUN: stc-run %s --compare %t.isa.mlir | filecheck %s --check-prefix=SAME

builtin.module {
  task.graph @small {
    %0 = task.input 0 "x" : tensor<2x4x4x8xi8>
    %1 = task.buffer 1 sic %0 : tensor<2x4x4x8xi8>
    %2 = task.weight 2 #task.random<1> : tensor<8x3x3x8xi8>
    %3 = task.bias 3 #task.random<2> : tensor<8xi32>
    %4 = task.conv 4 %1, %2 bias %3 pad [1, 1, 1, 1] shift 8 : tensor<2x4x4x8xi8>
    %5 = task.buffer 5 si %4 : tensor<2x4x4x8xi8>
    %6 = task.relu 6 %5 : tensor<2x4x4x8xi8>
    %7 = task.buffer 7 sic %6 : tensor<2x4x4x8xi8>
    %8 = task.weight 8 #task.random<3> : tensor<8x1x1x8xi8>
    %9 = task.bias 9 #task.random<4> : tensor<8xi32>
    %10 = task.conv 10 %7, %8 bias %9 shift 8 : tensor<2x4x4x8xi8>
    %11 = task.buffer 11 so %10 : tensor<2x4x4x8xi8>
    task.output 12 "y" %11
  }
}

// CHECK:      %4 = task.conv 4 %1, %2 bias %3 pad [1, 1, 1, 1] shift 8 : tensor<2x4x4x8xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 0, axon)>}
// CHECK:      %7 = task.buffer 7 sic %6 : tensor<2x4x4x8xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 1, memory)>}
// CHECK:      st.mapping @small target "tpu-like" applied attributes {st.search = {tree = "T 2/1\0A\09conv4 2\0A\09conv10 2", latency_cycles = 28 : i64, energy_pj = 109644.416 : f64, dram_bytes = 1728 : i64, noc_hop_bytes = 0 : i64}} {
// CHECK-NEXT:   st.put_group_in 4 at (0, 0, 0, 0), (0, 0, axon)
// CHECK-NEXT:   st.put_group_in 6 at (0, 0, 0, 0), (0, 0, soma1)
// CHECK-NEXT:   st.put_group_in 10 at (0, 0, 0, 0), (0, 1, axon)
// CHECK-NEXT:   st.put_in 11 at (0, 0, 0, 0), (0, 1, memory)
// CHECK-NEXT:   st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
// CHECK-NEXT:   st.put_in 12 at (0, 0, 0, 0), (0, 1, router_send)
// CHECK-NEXT: }

// On set-8x8 an S-cut runs both layers side by side: conv4 (with its fused relu) split
// over 2 images × 3 rows × 8 channel groups in phase 0, conv10 over 4 columns in phase 1,
// its inputs held on its cores from phase 0, where the relu pieces send them.
// MESH:      st.mapping @small target "set-8x8" applied attributes {st.search = {tree = "T 2/1\0A\09S 2/1\0A\09\09conv4 2\0A\09\09conv10 2"
// MESH-NEXT:   st.split_group [4, 6] by [2, 1, 3, 8, 1]
// MESH-NEXT:   st.split_group [10] by [1, 1, 4, 1, 1]
// MESH-NEXT:   st.put_group_in {{[0-9]+}} at (0, 0, 0, 0), (0, 0, axon)
// MESH-NEXT:   st.put_group_in {{[0-9]+}} at (0, 0, 0, 0), (0, 0, soma1)
// MESH-COUNT-94: st.put_group_in {{[0-9]+}} at (0, 0, {{[0-9]}}, {{[0-9]}}), (0, 0, {{axon|soma1}})
// MESH-NEXT:   st.put_group_in 304 at (0, 0, 7, 4), (0, 1, axon)
// MESH-NEXT:   st.put_group_in 308 at (0, 0, 7, 3), (0, 1, axon)
// MESH-NEXT:   st.put_group_in 312 at (0, 0, 7, 2), (0, 1, axon)
// MESH-NEXT:   st.put_group_in 316 at (0, 0, 7, 1), (0, 1, axon)
// MESH-NEXT:   st.put_in 11 at (0, 0, 7, 4), (0, 1, memory)
// MESH-NEXT:   st.put_in 301 at (0, 0, 7, 4), (0, 0, memory)
// MESH-NEXT:   st.put_in 305 at (0, 0, 7, 3), (0, 0, memory)
// MESH-NEXT:   st.put_in 309 at (0, 0, 7, 2), (0, 0, memory)
// MESH-NEXT:   st.put_in 313 at (0, 0, 7, 1), (0, 0, memory)
// MESH-NEXT:   st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
// MESH-NEXT:   st.put_in 12 at (0, 0, 7, 4), (0, 1, router_send)
// MESH-NEXT: }

// SAME: 1 outputs bit-identical
