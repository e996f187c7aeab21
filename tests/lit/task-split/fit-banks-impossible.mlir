// When even the finest pieces do not pack in the banks, task-split{fit} says so. A target
// like aie-ml with four banks of 40 B: an add of four 1-byte tiles writing a fifth takes
// five 32 B regions (AIE-ML's alignment), 160 B, one bank each.

// RUN: sed -e 's/^capacity_bytes = 65536 .*/capacity_bytes = 160/' -e 's/^capacity_bytes = 16384 .*/capacity_bytes = 40/' -e 's/^memory_bytes = 65536 .*/memory_bytes = 160/' %S/../../../compiler/targets/aie-ml.toml > %t.toml
// RUN: not stc-opt %s -p 'task-split{fit="%t.toml"}' 2>&1 | filecheck %s

// CHECK: stc-opt: error: task.add 5: no split makes its pieces fit 160 B: even its finest pieces (vector=1,1,1,1) need 32 + 32 + 32 + 32 + 32 B, which do not fit banks of 40 + 40 + 40 + 40 B without a region that fits in a bank crossing one

task.graph @sum4 {
  %x = task.input 0 "x" : tensor<1x1x1x1xi8>
  %a = task.buffer 1 si %x : tensor<1x1x1x1xi8>
  %b = task.buffer 2 si %x : tensor<1x1x1x1xi8>
  %c = task.buffer 3 si %x : tensor<1x1x1x1xi8>
  %d = task.buffer 4 si %x : tensor<1x1x1x1xi8>
  %s = task.add 5 %a, %b, %c, %d shift 2 : tensor<1x1x1x1xi8>
  %out = task.buffer 6 so %s : tensor<1x1x1x1xi8>
  task.output 7 "y" %out
}
