// Seed 000, put_group_in: the fc and all its input storage on core 0 in phase 1; the
// static weight and bias are then taken out of phase 1 (a storage block cannot be put
// twice at one coordinate) and put back over phases 0 to 1. The result equals the
// put_in example's.

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
  st.put_group_in 3 at (0, 0, 0, 0), (0, 1, axon)
  st.take_out 1 at (0, 0, 0, 0), (0, 1, memory)
  st.take_out 2 at (0, 0, 0, 0), (0, 1, memory)
  st.put_in 1 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1, memory)
  st.put_in 2 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1, memory)
  st.put_in 4 at (0, 0, 0, 0), (0, 1, memory)
}

// CHECK:      %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 1, memory)>}
// CHECK-NEXT: %w = task.weight 1 {{.*}} {st.coord = #st.coord<(0, 0, 0, 0), (0, 0 to 1, memory)>}
// CHECK-NEXT: %b = task.bias 2 {{.*}} {st.coord = #st.coord<(0, 0, 0, 0), (0, 0 to 1, memory)>}
// CHECK-NEXT: %f = task.fc 3 {{.*}} {st.coord = #st.coord<(0, 0, 0, 0), (0, 1, axon)>}
// CHECK-NEXT: %out = task.buffer 4 so %f : tensor<1x1x1x32xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 1, memory)>}
