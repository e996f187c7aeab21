// st-place honours what the script pinned: the conv is pinned to core (4, 4) in phase 2,
// so its unplaced inputs join it there; the fc's weight is pinned to core (9, 15) over
// phases 5 to 6, so the fc and its input buffer go to that core in one of those phases.

// RUN: stc-opt %s -p st-apply,st-place | filecheck %s

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
  st.put_in 4 at (0, 0, 4, 4), (0, 2, axon)
  st.put_in 10 at (0, 0, 9, 15), (0, 5, memory) to (0, 0, 9, 15), (0, 6, memory)
}

// CHECK:      %in = task.buffer 1 {{.*}} {st.coord = #st.coord<(0, 0, 4, 4), (0, 2, memory)>}
// CHECK-NEXT: %w = task.weight 2 {{.*}} {st.coord = #st.coord<(0, 0, 4, 4), (0, 2, memory)>}
// CHECK-NEXT: %b = task.bias 3 {{.*}} {st.coord = #st.coord<(0, 0, 4, 4), (0, 2, memory)>}
// CHECK-NEXT: %c = task.conv 4 {{.*}} {st.coord = #st.coord<(0, 0, 4, 4), (0, 2, axon)>}
// CHECK:      %f_in = task.buffer 9 {{.*}} {st.coord = #st.coord<(0, 0, 9, 15), (0, 5, memory)>}
// CHECK-NEXT: %fw = task.weight 10 {{.*}} {st.coord = #st.coord<(0, 0, 9, 15), (0, 5 to 6, memory)>}
// CHECK-NEXT: %f = task.fc 11 {{.*}} {st.coord = #st.coord<(0, 0, 9, 15), (0, 5, axon)>}
