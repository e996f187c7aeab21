// The st-svg target draws one panel per step and phase that holds a block: the ids at every
// stage of every core (storage too), memory bars, routes, area groups, and a legend of the
// tile types and groups; phase=N draws that phase only.

// RUN: stc-opt %s --split-input-file --verify-diagnostics -p st-apply,st-place,st-route -t st-svg | filecheck %s
// RUN: stc-opt %s --split-input-file --verify-diagnostics -p st-apply,st-place,st-route -t 'st-svg{phase=1}' | filecheck %s --check-prefix=ONE
// RUN: not stc-opt %s --split-input-file -p st-apply,st-place,st-route -t 'st-svg{phase=-3}' 2>&1 | filecheck %s --check-prefix=NEGATIVE
// RUN: not stc-opt %s --split-input-file -p st-apply,st-place,st-route -t 'st-svg{phase=7}' 2>&1 | filecheck %s --check-prefix=EMPTY
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
// CHECK:     @ag on aie-ml: 7 blocks placed; 2 phases in step 0
// CHECK:     >shim_tile</text>
// CHECK:     >memory_tile</text>
// CHECK:     >aie_tile</text>
// CHECK:     stroke-dasharray="4 2"/>
// CHECK-NEXT: >area group g (exclusive_placement)</text>
// CHECK:     step 0, phase 0
// CHECK:     <title>core (0, 0, 0, 5) (shim_tile), step 0, phase 0: task.input 0</title>
// CHECK:     <title>core (0, 0, 3, 5) (aie_tile), step 0, phase 0: task.relu 2, task.buffer 1 (512 B); 512 of 65536 B of local memory</title>
// CHECK:     <polyline points=
// CHECK:     >S 2</text>
// CHECK:     >M 1</text>
// CHECK:     <title>512 of 65536 B</title>
// CHECK:     step 0, phase 1
// CHECK:     <title>core (0, 0, 2, 5) (memory_tile), step 0, phase 1: task.buffer 5 (512 B); 512 of 524288 B of local memory</title>
// CHECK:     >M 5</text>
// CHECK:     >S 4</text>
// CHECK:     >M 3</text>
// CHECK:     </svg>

// ONE-NOT:   phase 0
// ONE:       step 0, phase 1
// ONE-NOT:   phase 0

// NEGATIVE:  st-svg: phase=-3; phases count from 0
// EMPTY:     st-svg: no block of @ag is placed in phase 7; its blocks are in phases 0 to 1

// -----

// A block in step 1 gets a panel of its own.
task.graph @steps {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %a_in = task.buffer 1 si %x : tensor<1x4x4x32xi8>
  %a = task.relu 2 %a_in : tensor<1x4x4x32xi8>
  %out = task.buffer 3 so %a : tensor<1x4x4x32xi8>
  task.output 4 "y" %out
}
st.mapping @steps target "tianjicx" {
  st.put_group_in 2 at (0, 0, 1, 1), (1, 0, soma1)
}

// CHECK:     @steps on tianjicx: 5 blocks placed; 2 phases in steps 0, 1
// CHECK:     step 0, phase 0
// CHECK:     >IO 0 4</text>
// CHECK:     step 1, phase 0
// CHECK:     >S 2</text>
// CHECK:     >M 1</text>

// -----

task.graph @bare {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
}
// NONE: st-svg: expected one st.mapping of a graph, found 0; use graph=NAME
