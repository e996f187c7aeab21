// st-place with area groups on aie-ml: the nodes of "g" (the input, the two relus and
// their input buffers) go inside its rectangles: the input on a shim tile of columns
// 4-5, the relus on aie tiles there. "g" is exclusive_placement, so the output buffer
// and the output stay out of it, on the nearest tiles outside (the output on a shim
// tile, aie-ml's IO tiles); contain_routing holds for the routes among its nodes, which
// st-route checks.

// RUN: stc-opt %s -p st-apply,st-place,st-route | filecheck %s

task.graph @ag {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %a_in = task.buffer 1 si %x : tensor<1x4x4x32xi8>
  %a = task.relu 2 %a_in : tensor<1x4x4x32xi8>
  %b_in = task.buffer 3 si %a : tensor<1x4x4x32xi8>
  %b = task.relu 4 %b_in : tensor<1x4x4x32xi8>
  %out = task.buffer 5 so %b : tensor<1x4x4x32xi8>
  task.output 6 "y" %out
}
st.mapping @ag target "aie-ml" {
  st.area_group "g" [0, 2, 4] {aie_tile columns 4 to 5 rows 0 to 1, memory_tile columns 4 to 5 rows 0 to 1, shim_tile columns 4 to 5 rows 0 to 0} contain_routing exclusive_placement
}

// CHECK:      task.input 0 {{.*}} st.coord = #st.coord<(0, 0, 0, 5), (0, 0, router_recv)>}
// CHECK:      task.relu 2 {{.*}} st.coord = #st.coord<(0, 0, 3, 5), (0, 0, soma1)>}
// CHECK:      task.relu 4 {{.*}} st.coord = #st.coord<(0, 0, 3, 5), (0, 1, soma1)>}
// CHECK-NEXT: task.buffer 5 so {{.*}} {st.coord = #st.coord<(0, 0, 3, 6), (0, 1, memory)>
// CHECK-NEXT: task.output 6 "y" %out {st.coord = #st.coord<(0, 0, 0, 6), (0, 1, router_send)>
