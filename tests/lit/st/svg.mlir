// The st-svg target draws one panel per phase: blocks on cores, memory bars, routes and
// area groups.

// RUN: stc-opt %s --split-input-file --verify-diagnostics -p st-apply,st-place,st-route -t st-svg | filecheck %s
// RUN: stc-opt %s --split-input-file --verify-diagnostics -p st-apply,st-place,st-route -t 'st-svg{phase=1}' | filecheck %s --check-prefix=ONE
// RUN: stc-opt %s -t st-svg --split-input-file --verify-diagnostics | filecheck %s --check-prefix=NONE

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
  st.area_group "g" [2, 4] {aie_tile columns 4 to 5 rows 0 to 1} exclusive_placement
}

// CHECK:     <svg xmlns="http://www.w3.org/2000/svg"
// CHECK:     @ag on aie-ml: 7 blocks placed
// CHECK:     phase 0
// CHECK:     >S 2</text>
// CHECK:     <title>{{[0-9]+}} of 65536 B</title>
// CHECK:     stroke-dasharray
// CHECK:     >g</text>
// CHECK:     <polyline points=
// CHECK:     phase 1
// CHECK:     >S 4</text>
// CHECK:     </svg>

// ONE-NOT:   phase 0
// ONE:       phase 1
// ONE-NOT:   phase 0

// -----

task.graph @bare {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
}
// NONE: st-svg: expected one st.mapping of a graph, found 0; use graph=NAME
