// st.share_data: the two batch pieces of a conv read one weight and one bias block, held on
// core (0, 0, 0, 0) over both pieces' phases, so the machine loads them once (one dma_load
// of the weight in the whole program) and computes what the network does.

// RUN: stc-opt %s -p st-apply | filecheck %s
// RUN: stc-opt %s -p st-apply,st-route,st-lmem-alloc,isa-lower -o %t
// RUN: stc-run %s --compare %t
// RUN: filecheck %s --check-prefix=ISA < %t

task.graph @conv {
  %x = task.input 0 "x" : tensor<2x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<2x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %b = task.bias 3 #task.random<8> : tensor<32xi32>
  %c = task.conv 4 %in, %w bias %b pad [1, 1, 1, 1] shift 9 : tensor<2x8x8x32xi8>
  %out = task.buffer 5 so %c : tensor<2x8x8x32xi8>
  task.output 6 "y" %out
}
st.mapping @conv target "set-8x8" {
  st.split_task 4 by [2, 1, 1, 1, 1]
  st.share_data [10, 14]
  st.put_in 8 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1, memory)
  st.put_in 9 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1, memory)
  st.put_in 7 at (0, 0, 0, 0), (0, 0, memory)
  st.put_in 10 at (0, 0, 0, 0), (0, 0, axon)
  st.put_in 11 at (0, 0, 0, 0), (0, 1, memory)
  st.put_in 14 at (0, 0, 0, 0), (0, 1, axon)
  st.put_in 5 at (0, 0, 0, 0), (0, 1, memory)
  st.put_in 0 at (0, 0, 0, 0), (0, 0, router_recv)
  st.put_in 6 at (0, 0, 0, 0), (0, 1, router_send)
}

// CHECK:      %w = task.weight 8 #task.random<7> : tensor<32x3x3x16xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 0 to 1, memory)>}
// CHECK-NEXT: %b = task.bias 9 #task.random<8> : tensor<32xi32> {st.coord = #st.coord<(0, 0, 0, 0), (0, 0 to 1, memory)>}
// CHECK:      %c = task.conv 10 %in, %w bias %b
// CHECK-NOT:  task.weight
// CHECK-NOT:  task.bias
// CHECK:      %c_1 = task.conv 14 %in_1, %w bias %b
// CHECK:      st.share_data [10, 14]

// ISA:     isa.dma_load sizes [4608]
// ISA:     isa.conv
// ISA-NOT: isa.dma_load sizes [4608]
// ISA:     isa.conv
// ISA-NOT: isa.dma_load sizes [4608]
