// st-place: a network input (router_recv) and output (router_send) use different stages,
// so both may sit on the core of the one relu, in its phase.

// RUN: stc-opt %s -p 'st-place{target="tianjicx"}' | filecheck %s

task.graph @one {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %in = task.buffer 1 si %x : tensor<1x4x4x32xi8>
  %r = task.relu 2 %in : tensor<1x4x4x32xi8>
  %out = task.buffer 3 so %r : tensor<1x4x4x32xi8>
  task.output 4 "y" %out
}

// CHECK:      task.input 0 "x" : tensor<1x4x4x32xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 0, router_recv)>}
// CHECK-NEXT: task.buffer 1 {{.*}} {st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
// CHECK-NEXT: task.relu 2 {{.*}} {st.coord = #st.coord<(0, 0, 0, 0), (0, 0, soma1)>}
// CHECK-NEXT: task.buffer 3 {{.*}} {st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
// CHECK-NEXT: task.output 4 "y" %out {st.coord = #st.coord<(0, 0, 0, 0), (0, 0, router_send)>}
