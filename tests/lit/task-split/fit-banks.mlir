// task-split{fit} counts banks: a piece fits when its regions fit the core's banks with
// no region that fits in a bank crossing one, not only its bytes. The add reads four
// 12,288 B tiles and writes a fifth: 61,440 B fit an AIE-ML tile's 65,536 B, but five
// such tiles need five of its four 16 KB banks. Split in two along f, each piece's five
// 6,144 B tiles pack, and the whole path compiles and compares.

// RUN: stc-opt %s -p 'task-split{fit=aie-ml}' | filecheck %s
// RUN: stc-opt %s -p 'stc-pipeline{target=aie-ml iterations=200}' -o %t && stc-run %s --compare %t | filecheck %s --check-prefix=SAME
// RUN: stc-opt %s -p 'task-split{fit=tianjicx}' | filecheck %s --check-prefix=TIANJICX

task.graph @sum4 {
  %x = task.input 0 "x" : tensor<1x12x8x128xi8>
  %a = task.buffer 1 si %x : tensor<1x12x8x128xi8>
  %b = task.buffer 2 si %x : tensor<1x12x8x128xi8>
  %c = task.buffer 3 si %x : tensor<1x12x8x128xi8>
  %d = task.buffer 4 si %x : tensor<1x12x8x128xi8>
  %s = task.add 5 %a, %b, %c, %d shift 2 : tensor<1x12x8x128xi8>
  %out = task.buffer 6 so %s : tensor<1x12x8x128xi8>
  task.output 7 "y" %out
}

// CHECK:      %a = task.buffer 8 si %x[0:1, 0:12, 0:8, 0:64] : tensor<1x12x8x64xi8>
// CHECK:      %s = task.add 12 %a, %b, %c, %d shift 2 : tensor<1x12x8x64xi8>
// CHECK:      %s_1 = task.add 17 %a_1, %b_1, %c_1, %d_1 shift 2 : tensor<1x12x8x64xi8>
// CHECK-NEXT: %out = task.buffer 6 so %s, %s_1[0:1, 0:12, 0:8, 0:64] at [0, 0, 0, 64] : tensor<1x12x8x128xi8>

// SAME: 1 outputs bit-identical

// On tianjicx (143,360 B in banks of 64, 64 and 12 usable KB) the add fits whole.
// TIANJICX:     %s = task.add 5 %a, %b, %c, %d shift 2 : tensor<1x12x8x128xi8>
