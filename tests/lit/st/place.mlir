// st-place on a graph without a mapping: the conv is split in four, the pieces go round
// the core of the relu that reads them (one hop each), the relu, maxpool and fc follow
// on that core in phases 1 to 3 (one phase per depth), and the input and output sit on
// it too (tianjicx has no IO tiles). The same seed gives the same placement; the
// placed graph computes what the original does.

// RUN: stc-opt %s -p 'task-split{task=4 vector=2,2,1,1},st-place{target="tianjicx"}' | filecheck %s
// RUN: stc-opt %s -p 'task-split{task=4 vector=2,2,1,1},st-place{target="tianjicx" seed=0}' -o %t.a
// RUN: stc-opt %s -p 'task-split{task=4 vector=2,2,1,1},st-place{target="tianjicx"}' -o %t.b
// RUN: diff %t.a %t.b && stc-run %s --compare %t.a
// RUN: stc-opt %s -p 'st-place{target="tianjicx" strategy="row-major"}' | filecheck %s --check-prefix=ROW

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

// CHECK:      task.input 0 "x" : tensor<1x8x8x16xi8> {st.coord = #st.coord<(0, 0, 0, 1), (0, 0, router_recv)>}
// CHECK:      task.conv 17 {{.*}} {st.coord = #st.coord<(0, 0, 0, 0), (0, 0, axon)>}
// CHECK:      task.conv 21 {{.*}} {st.coord = #st.coord<(0, 0, 1, 1), (0, 0, axon)>}
// CHECK:      task.conv 25 {{.*}} {st.coord = #st.coord<(0, 0, 0, 1), (0, 0, axon)>}
// CHECK:      task.conv 29 {{.*}} {st.coord = #st.coord<(0, 0, 0, 2), (0, 0, axon)>}
// CHECK-NEXT: task.buffer 5 {{.*}} {st.coord = #st.coord<(0, 0, 0, 1), (0, 1, memory)>}
// CHECK-NEXT: task.relu 6 {{.*}} {st.coord = #st.coord<(0, 0, 0, 1), (0, 1, soma1)>}
// CHECK-NEXT: task.buffer 7 {{.*}} {st.coord = #st.coord<(0, 0, 0, 1), (0, 2, memory)>}
// CHECK-NEXT: task.maxpool 8 {{.*}} {st.coord = #st.coord<(0, 0, 0, 1), (0, 2, soma1)>}
// CHECK:      task.fc 11 {{.*}} {st.coord = #st.coord<(0, 0, 0, 1), (0, 3, axon)>}
// CHECK-NEXT: task.buffer 12 {{.*}} {st.coord = #st.coord<(0, 0, 0, 1), (0, 3, memory)>}
// CHECK-NEXT: task.output 13 "y" %out {st.coord = #st.coord<(0, 0, 0, 1), (0, 3, router_send)>}
// CHECK:      st.mapping @tiny target "tianjicx" applied {

// ROW:      task.conv 4 {{.*}} {st.coord = #st.coord<(0, 0, 0, 0), (0, 0, axon)>}
// ROW:      task.relu 6 {{.*}} {st.coord = #st.coord<(0, 0, 0, 0), (0, 1, soma1)>}
