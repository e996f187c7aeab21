// Every st op and attribute in custom syntax, through the generic form and back.

// RUN: STC_ROUNDTRIP
// RUN: stc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 0, router_recv)>}
  %in = task.buffer 1 si %x : tensor<1x4x4x32xi8> {st.coord = #st.coord<(0, 0, 0, 1), (2, 3 to 5, memory)>, st.routes = [#st.route<from 0, 512 bytes, [(0, 0, 0, 0), (0, 0, 0, 1)]>]}
  %r = task.relu 2 %in : tensor<1x4x4x32xi8> {st.coord = #st.coord<(0, 0, 0, 1), (2, 4, soma2)>, st.area_groups = ["left"]}
  %out = task.buffer 3 so %r : tensor<1x4x4x32xi8>
  task.output 4 "y" %out
}
st.mapping @g target "tianjicx" {
  st.split_task 2 by [2, 1, 1, 1]
  st.split_task 2 by [1, 2, 1, 1, 1, 1]
  st.split_group [2, 7] by [1, 1, 2, 1]
  st.split_group [2, 7] by [[2, 1, 1, 1], [1, 1, 2, 1]]
  st.share_data [2, 7]
  st.store_late [2]
  st.store_late [7] by 3
  st.keep [2, 7]
  st.put_in 2 at (0, 0, 9, 15), (0, 31, soma1)
  st.put_in 1 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1, memory)
  st.put_group_in 2 at (0, 0, 0, 0), (0, 1, soma2)
  st.take_out at (0, 0, 0, 0), (0, 1, memory)
  st.take_out 1 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1, memory)
  st.take_out 2 at (0, 0, 0, 0), (0, 1, soma2)
  st.area_group "left" [2] {core columns 0 to 1 rows 0 to 9}
  st.area_group "right" [3, 4] {core columns 8 to 15 rows 0 to 9} contain_routing exclusive_routing exclusive_placement
}
st.mapping @g target "aie-ml" applied {
}

// CHECK:      %x = task.input 0 "x" : tensor<1x4x4x32xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 0, router_recv)>}
// CHECK-NEXT: %in = task.buffer 1 si %x : tensor<1x4x4x32xi8> {st.coord = #st.coord<(0, 0, 0, 1), (2, 3 to 5, memory)>, st.routes = [#st.route<from 0, 512 bytes, [(0, 0, 0, 0), (0, 0, 0, 1)]>]}
// CHECK-NEXT: %r = task.relu 2 %in : tensor<1x4x4x32xi8> {st.coord = #st.coord<(0, 0, 0, 1), (2, 4, soma2)>, st.area_groups = ["left"]}
// CHECK:      st.mapping @g target "tianjicx" {
// CHECK-NEXT:   st.split_task 2 by [2, 1, 1, 1]
// CHECK-NEXT:   st.split_task 2 by [1, 2, 1, 1, 1, 1]
// CHECK-NEXT:   st.split_group [2, 7] by [1, 1, 2, 1]
// CHECK-NEXT:   st.split_group [2, 7] by [[2, 1, 1, 1], [1, 1, 2, 1]]
// CHECK-NEXT:   st.share_data [2, 7]
// CHECK-NEXT:   st.store_late [2]
// CHECK-NEXT:   st.store_late [7] by 3
// CHECK-NEXT:   st.keep [2, 7]
// CHECK-NEXT:   st.put_in 2 at (0, 0, 9, 15), (0, 31, soma1)
// CHECK-NEXT:   st.put_in 1 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1, memory)
// CHECK-NEXT:   st.put_group_in 2 at (0, 0, 0, 0), (0, 1, soma2)
// CHECK-NEXT:   st.take_out at (0, 0, 0, 0), (0, 1, memory)
// CHECK-NEXT:   st.take_out 1 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1, memory)
// CHECK-NEXT:   st.take_out 2 at (0, 0, 0, 0), (0, 1, soma2)
// CHECK-NEXT:   st.area_group "left" [2] {core columns 0 to 1 rows 0 to 9}
// CHECK-NEXT:   st.area_group "right" [3, 4] {core columns 8 to 15 rows 0 to 9} contain_routing exclusive_routing exclusive_placement
// CHECK-NEXT: }
// CHECK-NEXT: st.mapping @g target "aie-ml" applied {
// CHECK-NEXT: }

// GENERIC: "st.mapping"() <{graph = "g", target = "tianjicx"}> ({
// GENERIC: "st.keep"() <{tasks = array<i64: 2, 7>}> : () -> ()
// GENERIC: "st.put_in"() <{task = 1 : i64, at = #st.coord<(0, 0, 0, 0), (0, 0, memory)>, end = #st.coord<(0, 0, 0, 0), (0, 1, memory)>}> : () -> ()
// GENERIC: "st.area_group"() <{name = "right", members = array<i64: 3, 4>, rects = [#st.rect<core columns 8 to 15 rows 0 to 9>], contain_routing, exclusive_routing, exclusive_placement}> : () -> ()
// GENERIC: "st.mapping"() <{graph = "g", target = "aie-ml", applied}> ({
