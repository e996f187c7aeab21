// Seed 000, put_in: a fully connected layer (0 SIFC input, 1 SWFC weight, 2 SB bias,
// 3 CVM, 4 SO output) all on core 0; the fc runs in phase 1, the static weight and bias
// live in phases 0 to 1. A second st-apply leaves the applied mapping alone.

// RUN: stc-opt %s -p st-apply | filecheck %s
// RUN: stc-opt %s -p st-apply,st-apply | filecheck %s
// RUN: stc-opt %s -p st-apply -o %t && stc-run %s --compare %t

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
}

// CHECK:      %x = task.input 5 "x" : tensor<1x1x1x32xi8>{{$}}
// CHECK-NEXT: %in = task.buffer 0 sifc %x : tensor<1x1x1x32xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 1, memory)>}
// CHECK-NEXT: %w = task.weight 1 {{.*}} {st.coord = #st.coord<(0, 0, 0, 0), (0, 0 to 1, memory)>}
// CHECK-NEXT: %b = task.bias 2 {{.*}} {st.coord = #st.coord<(0, 0, 0, 0), (0, 0 to 1, memory)>}
// CHECK-NEXT: %f = task.fc 3 {{.*}} {st.coord = #st.coord<(0, 0, 0, 0), (0, 1, axon)>}
// CHECK-NEXT: %out = task.buffer 4 so %f : tensor<1x1x1x32xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 1, memory)>}
// CHECK-NEXT: task.output 6 "y" %out{{$}}
// CHECK:      st.mapping @fc target "tianjicx" applied {
// CHECK-NEXT:   st.put_in 0 at (0, 0, 0, 0), (0, 1, memory)
// CHECK-NEXT:   st.put_in 1 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1, memory)
