// Bad input ends in one message and exit code 1, never a traceback.

// RUN: not stc-opt %s 2>&1 | filecheck %s --check-prefix=VERIFY
// RUN: not stc-opt %s -p no-such-pass 2>&1 | filecheck %s --check-prefix=PASS
// RUN: not stc-opt %s -p 'task-split{bogus=1}' 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: not stc-opt %S/no-such-file.mlir 2>&1 | filecheck %s --check-prefix=FILE
// RUN: echo 'task.graph @g { %%x = task.input 0 "x" : tensor<1x1xi8' | not stc-opt 2>&1 | filecheck %s --check-prefix=PARSE

task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 so %x : tensor<1x8x8x16xi8>
  %r = task.relu 2 %in : tensor<1x8x8x16xi8>
}

// VERIFY:      stc-opt: error: task.buffer 1: an `so` buffer is read only by outputs
// VERIFY-NOT:  Traceback
// PASS:        stc-opt: error: Unrecognized passes: ['no-such-pass']
// PASS-NOT:    Traceback
// OPTION:      stc-opt: error: task-split has no option 'bogus' (options: task, tasks, vector, fit)
// OPTION-NOT:  Traceback
// FILE:        stc-opt: error: {{.*}}no-such-file.mlir
// FILE-NOT:    Traceback
// PARSE:       stc-opt: error: stdin:2:1
// PARSE-NOT:   Traceback
