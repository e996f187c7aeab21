// An applied mapping's coordinates are checked against every rule again by isa-lower: a
// hand-edited coordinate that breaks one (here the relu's input buffer moved to another
// core) is an error, never a program that computes something else.
// RUN: not stc-opt %s -p isa-lower 2>&1 | filecheck %s

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x16xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 0, router_recv)>}
  %in = task.buffer 1 si %x : tensor<1x4x4x16xi8> {st.coord = #st.coord<(0, 0, 0, 1), (0, 0, memory)>, st.routes = [#st.route<from 0, 256 bytes, [(0, 0, 0, 0), (0, 0, 0, 1)]>], st.addr = 0 : i64}
  %r = task.relu 2 %in : tensor<1x4x4x16xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 0, soma1)>, st.addr = 256 : i64}
  %out = task.buffer 3 so %r : tensor<1x4x4x16xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>, st.routes = [#st.route<from 2, 256 bytes, [(0, 0, 0, 0)]>], st.addr = 256 : i64}
  task.output 4 "y" %out {st.coord = #st.coord<(0, 0, 0, 0), (0, 0, router_send)>, st.routes = [#st.route<from 3, 256 bytes, [(0, 0, 0, 0)]>]}
}
st.mapping @g target "set-8x8" applied {
}

// CHECK: stc-opt: error: the graph's st.coord annotations: block 2 (task.relu) at (0, 0, 0, 0), (0, 0, soma1) reads block 1 (task.buffer) at (0, 0, 0, 1), (0, 0, memory); a compute block shares core, step and phase with its input storage
// CHECK-NOT: Traceback
