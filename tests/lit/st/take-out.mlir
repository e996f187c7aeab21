// take_out forms: every storage block of a core and phase (no id), over a phase range,
// and the block at a compute stage. Taking a weight out of the middle of its range and
// putting it back keeps one contiguous range.

// RUN: stc-opt %s -p st-apply | filecheck %s

task.graph @fc {
  %x = task.input 5 "x" : tensor<1x1x1x32xi8>
  %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
  %b = task.bias 2 #task.random<2> : tensor<32xi32>
  %f = task.fc 3 %in, %w bias %b shift 10 : tensor<1x1x1x32xi8>
  %out = task.buffer 4 so %f : tensor<1x1x1x32xi8>
  task.output 6 "y" %out
}
st.mapping @fc target "tianjicx" {
  st.put_group_in 3 at (0, 0, 1, 2), (0, 2, axon)
  st.take_out at (0, 0, 1, 2), (0, 2, memory)
  st.take_out 3 at (0, 0, 1, 2), (0, 2, axon)
  st.put_in 1 at (0, 0, 1, 2), (0, 0, memory) to (0, 0, 1, 2), (0, 3, memory)
  st.take_out 1 at (0, 0, 1, 2), (0, 1, memory) to (0, 0, 1, 2), (0, 2, memory)
  st.put_in 1 at (0, 0, 1, 2), (0, 1, memory) to (0, 0, 1, 2), (0, 2, memory)
  st.put_in 3 at (0, 0, 1, 2), (0, 3, axon)
}

// CHECK:      %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8>{{$}}
// CHECK-NEXT: %w = task.weight 1 {{.*}} {st.coord = #st.coord<(0, 0, 1, 2), (0, 0 to 3, memory)>}
// CHECK-NEXT: %b = task.bias 2 #task.random<2> : tensor<32xi32>{{$}}
// CHECK-NEXT: %f = task.fc 3 {{.*}} {st.coord = #st.coord<(0, 0, 1, 2), (0, 3, axon)>}
