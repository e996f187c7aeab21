// stc publishes its dialects and passes through xDSL's `xdsl.universe` entry point:
// a plain xdsl-opt parses task graphs and runs stc passes once stc is installed.

// RUN: xdsl-opt %s -p 'task-split{task=2 vector=1,1,2,1}' | filecheck %s
// RUN: stc-opt --version | filecheck %s --check-prefix=VERSION

task.graph @plugin {
  %x = task.input 0 "x" : tensor<1x4x4x8xi8>
  %in = task.buffer 1 si %x : tensor<1x4x4x8xi8>
  %r = task.relu 2 %in : tensor<1x4x4x8xi8>
  %out = task.buffer 3 so %r : tensor<1x4x4x8xi8>
  task.output 4 "y" %out
}

// CHECK:      %in = task.buffer 5 si %x[0:1, 0:4, 0:4, 0:4] : tensor<1x4x4x4xi8>
// CHECK-NEXT: %r = task.relu 6 %in : tensor<1x4x4x4xi8>
// CHECK-NEXT: %in_1 = task.buffer 7 si %x[0:1, 0:4, 0:4, 4:8] : tensor<1x4x4x4xi8>
// CHECK-NEXT: %r_1 = task.relu 8 %in_1 : tensor<1x4x4x4xi8>
// CHECK-NEXT: %out = task.buffer 3 so %r, %r_1[0:1, 0:4, 0:4, 0:4] at [0, 0, 0, 4] : tensor<1x4x4x8xi8>

// VERSION: {{^}}stc-opt 0.1.0, xdsl-opt built from xdsl version 0.74.0{{$}}

// A pass whose options do not fit together fails in plain xdsl-opt as xDSL's own passes
// do: a PassFailedException, which --verify-diagnostics prints as its message alone.
// RUN: xdsl-opt %s -p 'task-split{task=2}' --verify-diagnostics 2>&1 | filecheck %s --check-prefix=OPTIONS
// OPTIONS:      {{^}}task-split: `task` and `tasks` need a `vector`{{$}}
// OPTIONS-NOT:  Traceback
