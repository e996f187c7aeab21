// st-route: an XY route (x first, then y) for every edge into a buffer or an output,
// kept on the receiver with the bytes sent. Unplaced blocks, edge ends or not, are an error.

// RUN: stc-opt %s --split-input-file -p st-apply,st-route --verify-diagnostics | filecheck %s

task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %f = task.fc 3 %in, %w shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_in 5 at (0, 0, 0, 0), (0, 0, router_recv)
  st.put_group_in 3 at (0, 0, 2, 3), (0, 0, axon)
  st.put_in 4 at (0, 0, 4, 1), (0, 0, memory)
  st.put_in 6 at (0, 0, 4, 1), (0, 0, router_send)
}

// CHECK:      %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8> {st.coord = #st.coord<(0, 0, 2, 3), (0, 0, memory)>, st.routes = [#st.route<from 5, 32 bytes, [(0, 0, 0, 0), (0, 0, 0, 1), (0, 0, 0, 2), (0, 0, 0, 3), (0, 0, 1, 3), (0, 0, 2, 3)]>]}
// CHECK:      %out = task.buffer 4 so %f : tensor<1x1x1x32xi8> {st.coord = #st.coord<(0, 0, 4, 1), (0, 0, memory)>, st.routes = [#st.route<from 3, 32 bytes, [(0, 0, 2, 3), (0, 0, 2, 2), (0, 0, 2, 1), (0, 0, 3, 1), (0, 0, 4, 1)]>]}
// CHECK-NEXT: task.output 6 "y" %out {st.coord = #st.coord<(0, 0, 4, 1), (0, 0, router_send)>, st.routes = [#st.route<from 4, 32 bytes, [(0, 0, 4, 1)]>]}

// -----

task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %f = task.fc 3 %in, %w shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_group_in 3 at (0, 0, 2, 3), (0, 0, axon)
}

// CHECK: st-route: 3 of 6 blocks of task.graph @fc are not placed: 5 (task.input), 4 (task.buffer), 6 (task.output); run st-place first

// -----

// Every edge has both ends placed, but the weight is not: that is an error too.
task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %f = task.fc 3 %in, %w shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_in 5 at (0, 0, 0, 0), (0, 0, router_recv)
  st.put_in 0 at (0, 0, 2, 3), (0, 0, memory)
  st.put_in 3 at (0, 0, 2, 3), (0, 0, axon)
  st.put_in 4 at (0, 0, 4, 1), (0, 0, memory)
  st.put_in 6 at (0, 0, 4, 1), (0, 0, router_send)
}

// CHECK: st-route: 1 of 6 blocks of task.graph @fc are not placed: 1 (task.weight); run st-place first
