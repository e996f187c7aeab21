// UG1079 area-group table, row 1: contain_routing=false, exclusive_routing=false,
// exclusive_placement=false. Members must be placed inside; non-members inside:
// allowed; routes among members: allowed; routes across the boundary:
// allowed; routes among non-members through the area: allowed. The nodes of "g" are
// the input 0 and the relus 2 and 4 with their input buffers 1 and 3.

// RUN: stc-opt %s --split-input-file -p st-apply,st-route --verify-diagnostics | filecheck %s

// 1. Members inside, others outside; routes among members inside, across the boundary, and among others outside the area: allowed.
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
  st.area_group "g" [0, 2, 4] {aie_tile columns 1 to 2 rows 0 to 1, memory_tile columns 1 to 2 rows 0 to 1, shim_tile columns 1 to 2 rows 0 to 0}
  st.put_in 0 at (0, 0, 0, 1), (0, 0, router_recv)
  st.put_group_in 2 at (0, 0, 3, 1), (0, 0, soma1)
  st.put_group_in 4 at (0, 0, 3, 2), (0, 1, soma1)
  st.put_in 5 at (0, 0, 5, 0), (0, 1, memory)
  st.put_in 6 at (0, 0, 5, 3), (0, 1, router_send)
}

// -----

// 2. A member (relu 4) placed outside: always rejected.
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
  st.area_group "g" [0, 2, 4] {aie_tile columns 1 to 2 rows 0 to 1, memory_tile columns 1 to 2 rows 0 to 1, shim_tile columns 1 to 2 rows 0 to 0}
  st.put_in 0 at (0, 0, 0, 1), (0, 0, router_recv)
  st.put_group_in 2 at (0, 0, 3, 1), (0, 0, soma1)
  st.put_group_in 4 at (0, 0, 3, 4), (0, 1, soma1)
  st.put_in 5 at (0, 0, 5, 0), (0, 1, memory)
  st.put_in 6 at (0, 0, 5, 3), (0, 1, router_send)
}

// -----

// 3. A non-member (buffer 5) placed inside: allowed.
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
  st.area_group "g" [0, 2, 4] {aie_tile columns 1 to 2 rows 0 to 1, memory_tile columns 1 to 2 rows 0 to 1, shim_tile columns 1 to 2 rows 0 to 0}
  st.put_in 0 at (0, 0, 0, 1), (0, 0, router_recv)
  st.put_group_in 2 at (0, 0, 3, 1), (0, 0, soma1)
  st.put_group_in 4 at (0, 0, 3, 2), (0, 1, soma1)
  st.put_in 5 at (0, 0, 4, 1), (0, 1, memory)
  st.put_in 6 at (0, 0, 5, 1), (0, 1, router_send)
}

// -----

// 4. Seed-style area (no memory tiles): the route between members 0 and 1 crosses the memory tiles outside it: allowed.
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
  st.area_group "g" [0, 2, 4] {aie_tile columns 1 to 2 rows 0 to 1, shim_tile columns 1 to 2 rows 0 to 0}
  st.put_in 0 at (0, 0, 0, 1), (0, 0, router_recv)
  st.put_group_in 2 at (0, 0, 3, 1), (0, 0, soma1)
  st.put_group_in 4 at (0, 0, 3, 2), (0, 1, soma1)
  st.put_in 5 at (0, 0, 5, 0), (0, 1, memory)
  st.put_in 6 at (0, 0, 5, 3), (0, 1, router_send)
}

// -----

// 5. The route between non-members 5 and 6 passes through the area: allowed.
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
  st.area_group "g" [0, 2, 4] {aie_tile columns 1 to 2 rows 0 to 1, memory_tile columns 1 to 2 rows 0 to 1, shim_tile columns 1 to 2 rows 0 to 0}
  st.put_in 0 at (0, 0, 0, 1), (0, 0, router_recv)
  st.put_group_in 2 at (0, 0, 3, 1), (0, 0, soma1)
  st.put_group_in 4 at (0, 0, 3, 2), (0, 1, soma1)
  st.put_in 5 at (0, 0, 3, 0), (0, 1, memory)
  st.put_in 6 at (0, 0, 3, 3), (0, 1, router_send)
}

// CHECK: task.output 6 "y" %out {st.coord = #st.coord<(0, 0, 5, 3), (0, 1, router_send)>, st.routes = [#st.route<from 5, 512 bytes, [(0, 0, 5, 0), (0, 0, 5, 1), (0, 0, 5, 2), (0, 0, 5, 3)]>]}
// CHECK: st.mapping @ag target "aie-ml" applied {
// CHECK: // {{-----}}
// CHECK-NEXT: st.put_group_in (action 4): block 4 (task.relu) at (0, 0, 3, 4), (0, 1, soma1): a node of area group 'g' must be placed inside it
// CHECK: // {{-----}}
// CHECK: task.output 6 "y" %out {st.coord = #st.coord<(0, 0, 5, 1), (0, 1, router_send)>, st.routes = [#st.route<from 5, 512 bytes, [(0, 0, 4, 1), (0, 0, 5, 1)]>]}
// CHECK: st.mapping @ag target "aie-ml" applied {
// CHECK: // {{-----}}
// CHECK: task.output 6 "y" %out {st.coord = #st.coord<(0, 0, 5, 3), (0, 1, router_send)>, st.routes = [#st.route<from 5, 512 bytes, [(0, 0, 5, 0), (0, 0, 5, 1), (0, 0, 5, 2), (0, 0, 5, 3)]>]}
// CHECK: st.mapping @ag target "aie-ml" applied {
// CHECK: // {{-----}}
// CHECK: task.output 6 "y" %out {st.coord = #st.coord<(0, 0, 3, 3), (0, 1, router_send)>, st.routes = [#st.route<from 5, 512 bytes, [(0, 0, 3, 0), (0, 0, 3, 1), (0, 0, 3, 2), (0, 0, 3, 3)]>]}
// CHECK: st.mapping @ag target "aie-ml" applied {
