// st.split_task and st.split_group call task-split (the seed's split_task / split_group), then the
// pieces, whose ids task-split chose, are put with put_group_in. The area group named the
// conv before the split; its pieces (and their inputs) are nodes of it afterwards. The
// mapped graph computes what the original does.

// RUN: stc-opt %s -p st-apply | filecheck %s
// RUN: stc-opt %s -p st-apply,st-place,st-route -o %t && stc-run %s --compare %t

task.graph @tiny {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %b = task.bias 3 #task.random<8> : tensor<32xi32>
  %c = task.conv 4 %in, %w bias %b pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x32xi8>
  %r_in = task.buffer 5 si %c : tensor<1x8x8x32xi8>
  %r = task.relu 6 %r_in : tensor<1x8x8x32xi8>
  %p_in = task.buffer 7 si %r[0:1, 0:4, 0:8, 0:32], %r[0:1, 4:8, 0:8, 0:32] at [0, 4, 0, 0] : tensor<1x8x8x32xi8>
  %p = task.maxpool 8 %p_in window [2, 2] stride [2, 2] : tensor<1x4x4x32xi8>
  %f_in = task.buffer 9 sifc %p : tensor<1x4x4x32xi8>
  %fw = task.weight 10 #task.random<9> : tensor<10x4x4x32xi8>
  %f = task.fc 11 %f_in, %fw shift 10 : tensor<1x1x1x10xi8>
  %out = task.buffer 12 so %f : tensor<1x1x1x10xi8>
  task.output 13 "y" %out
}
st.mapping @tiny target "tianjicx" {
  st.area_group "conv" [4] {core columns 0 to 1 rows 0 to 0}
  st.split_task 4 by [2, 1, 1, 1]
  st.split_group [6, 11] by [[2, 1, 1, 1], [1, 1, 1, 2]]
  st.put_group_in 17 at (0, 0, 0, 0), (0, 0, axon)
  st.put_group_in 21 at (0, 0, 0, 1), (0, 0, axon)
  st.put_group_in 23 at (0, 0, 0, 0), (0, 1, soma1)
  st.put_group_in 25 at (0, 0, 0, 1), (0, 1, soma1)
  st.put_group_in 8 at (0, 0, 0, 0), (0, 2, soma1)
  st.put_group_in 28 at (0, 0, 0, 0), (0, 3, axon)
  st.put_group_in 31 at (0, 0, 0, 1), (0, 3, axon)
  st.put_group_in 34 at (0, 0, 0, 0), (0, 4, axon)
  st.put_in 12 at (0, 0, 0, 0), (0, 4, memory)
}

// CHECK:      %in = task.buffer 14 sic %x[0:1, 0:5, 0:8, 0:16] : tensor<1x5x8x16xi8> {st.area_groups = ["conv"], st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
// CHECK-NEXT: %w = task.weight 15 {{.*}} {st.area_groups = ["conv"], st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
// CHECK-NEXT: %b = task.bias 16 {{.*}} {st.area_groups = ["conv"], st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
// CHECK-NEXT: %c = task.conv 17 {{.*}} {st.area_groups = ["conv"], st.coord = #st.coord<(0, 0, 0, 0), (0, 0, axon)>}
// CHECK:      %c_1 = task.conv 21 {{.*}} {st.area_groups = ["conv"], st.coord = #st.coord<(0, 0, 0, 1), (0, 0, axon)>}
// CHECK:      %r_1 = task.relu 25 %r_in_1 : tensor<1x4x8x32xi8> {st.coord = #st.coord<(0, 0, 0, 1), (0, 1, soma1)>}
// CHECK:      %f_2 = task.add 34 %f_partial, %f_partial_1 shift 10 : tensor<1x1x1x10xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 4, axon)>}
// CHECK-NEXT: %out = task.buffer 12 so %f_2 : tensor<1x1x1x10xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 4, memory)>}
// CHECK-NEXT: task.output 13 "y" %out{{$}}
// CHECK:      st.mapping @tiny target "tianjicx" applied {
