// Seed 000, take_out example 1: after the put_in example, the weight (block 1) is taken
// out of phases 0 to 1; it is unplaced again and loses its coordinate. The fc keeps its
// place: a compute block needs its placed inputs on its core, and unplaced ones are
// left to st-place.

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
  st.put_in 0 at (0, 0, 0, 0), (0, 1, memory)
  st.put_in 1 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1, memory)
  st.put_in 2 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1, memory)
  st.put_in 3 at (0, 0, 0, 0), (0, 1, axon)
  st.put_in 4 at (0, 0, 0, 0), (0, 1, memory)
  st.take_out 1 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1, memory)
}

// CHECK:      %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>{{$}}
// CHECK-NEXT: %b = task.bias 2 {{.*}} {st.coord = #st.coord<(0, 0, 0, 0), (0, 0 to 1, memory)>}
