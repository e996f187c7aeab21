// st-search on a two-conv network at batch 2: the searched tree, kept on the mapping, and
// the action script that runs it. On tpu-like (one core) both layers form one segment
// (T 2/1 under the root), so conv10's input buffer 7 is held from phase 0, where the relu
// fills it, to phase 1, where conv10 reads it: it stays in local memory. The estimate of
// 45 cycles is what the machine counts (29 + 16: conv4 with its input staged through
// NC1HWC0, then conv10), and so is its 91,867.776 pJ (`stc-run --stats`; the relu's result
// lands in place in buffer 7, no copy read or written).

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
// CHECK:      %7 = task.buffer 7 sic %6 : tensor<2x4x4x8xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 0 to 1, memory)>}
// CHECK:      st.mapping @small target "tpu-like" applied attributes {st.search = {tree = "T 2/1\0A\09T 2/1\0A\09\09conv4 2\0A\09\09conv10 2", latency_cycles = 45 : i64, energy_pj = 91867.775999999998 : f64, dram_bytes = 1216 : i64, noc_hop_bytes = 0 : i64}} {
// CHECK-NEXT:   st.put_group_in 4 at (0, 0, 0, 0), (0, 0, axon)
// CHECK-NEXT:   st.put_group_in 6 at (0, 0, 0, 0), (0, 0, soma1)
// CHECK-NEXT:   st.put_group_in 10 at (0, 0, 0, 0), (0, 1, axon)
// CHECK-NEXT:   st.put_in 11 at (0, 0, 0, 0), (0, 1, memory)
// CHECK-NEXT:   st.put_in 7 at (0, 0, 0, 0), (0, 0, memory)
// CHECK-NEXT:   st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
// CHECK-NEXT:   st.put_in 12 at (0, 0, 0, 0), (0, 1, router_send)
// CHECK-NEXT: }

// On set-8x8 both layers are split over the mesh (the partitions and tree are the search's
// to choose), each piece put at its core and phase, the input on a router stage in phase 0
// and the output in the last phase.
// MESH:      st.mapping @small target "set-8x8" applied attributes {st.search = {tree = "T 2/
// MESH-NEXT:   st.split_group [4, 6] by [{{[0-9]+, [0-9]+, [0-9]+, [0-9]+}}, 1]
// MESH-NEXT:   st.split_group [10] by [{{[0-9]+, [0-9]+, [0-9]+, [0-9]+}}, 1]
// MESH-NEXT:   st.put_group_in {{[0-9]+}} at (0, 0, {{[0-9]}}, {{[0-9]}}), (0, 0, axon)
// MESH:        st.put_in 0 at (0, 0, {{[0-9]}}, {{[0-9]}}), (0, 0, router_recv)
// MESH-NEXT:   st.put_in 12 at (0, 0, {{[0-9]}}, {{[0-9]}}), (0, 1, router_send)
// MESH-NEXT: }

// SAME: 1 outputs bit-identical
