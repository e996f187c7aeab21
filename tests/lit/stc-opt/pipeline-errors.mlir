// A malformed -p or -t, or an option value of the wrong type, is one message that shows
// where the argument is wrong or names the pass and the option, and exit code 1.

// RUN: not stc-opt %s -p 'task-split{task=3' 2>&1 | filecheck %s --check-prefix=UNCLOSED
// RUN: not stc-opt %s -p '{' 2>&1 | filecheck %s --check-prefix=NONAME
// RUN: not stc-opt %s -p 'task-split{task=4}}' 2>&1 | filecheck %s --check-prefix=EXTRA
// RUN: not stc-opt %s -p 'task-split{task=4 vector=[2,1,1,1]}' 2>&1 | filecheck %s --check-prefix=BRACKETS
// RUN: not stc-opt %s -p 'task-split{task==4}' 2>&1 | filecheck %s --check-prefix=EQUALS
// RUN: not stc-opt %s -p 'task-split{task=4 vector=}' 2>&1 | filecheck %s --check-prefix=EMPTY
// RUN: not stc-opt %s -p 'task-split{task=abc}' 2>&1 | filecheck %s --check-prefix=TYPE
// RUN: not stc-opt %s -p 'task-split{task=4 vector=2,x,1,1}' 2>&1 | filecheck %s --check-prefix=LIST
// RUN: not stc-opt %s -p 'stc-pipeline{target=tianjicx search=maybe}' 2>&1 | filecheck %s --check-prefix=BOOL
// RUN: not stc-opt %s -t 'mlir{' 2>&1 | filecheck %s --check-prefix=TARGET
// RUN: not stc-opt %s -t 'st-svg{phase=x}' 2>&1 | filecheck %s --check-prefix=TARGET-OPTION

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x8xi8>
  %in = task.buffer 1 si %x : tensor<1x4x4x8xi8>
  %r = task.relu 2 %in : tensor<1x4x4x8xi8>
  %out = task.buffer 3 so %r : tensor<1x4x4x8xi8>
  task.output 4 "y" %out
}

// UNCLOSED:      stc-opt: error: malformed -p argument at pass-pipeline:1:18
// UNCLOSED-NEXT: task-split{task=3
// UNCLOSED-NEXT: {{^}}                 ^
// UNCLOSED-NEXT: Malformed pass arguments, expected either a space or `}` here
// UNCLOSED-NOT:  Traceback

// NONAME:      stc-opt: error: malformed -p argument at pass-pipeline:1:1
// NONAME:      Expected pass name here
// NONAME-NOT:  Traceback

// EXTRA:       stc-opt: error: malformed -p argument at pass-pipeline:1:19
// EXTRA:       Expected a comma after pass argument dict here
// EXTRA-NOT:   Traceback

// BRACKETS:      stc-opt: error: malformed -p argument at pass-pipeline:1:26
// BRACKETS-NEXT: task-split{task=4 vector=[2,1,1,1]}
// BRACKETS-NEXT: {{^}}                         ^^^^^^^^^
// BRACKETS-NOT:  Traceback

// EQUALS:      stc-opt: error: malformed -p argument at pass-pipeline:1:17
// EQUALS-NOT:  Traceback

// EMPTY:       stc-opt: error: malformed -p argument at pass-pipeline:1:26
// EMPTY-NOT:   Traceback

// TYPE:        stc-opt: error: task-split: option task takes an integer, got task=abc
// TYPE-NOT:    Traceback

// LIST:        stc-opt: error: task-split: option vector takes a list of integers, got vector=2,x,1,1
// LIST-NOT:    Traceback

// BOOL:        stc-opt: error: stc-pipeline: option search takes true or false, got search=maybe
// BOOL-NOT:    Traceback

// TARGET:      stc-opt: error: malformed -t argument at pass-pipeline:1:6
// TARGET:      Expected argument name here
// TARGET-NOT:  Traceback

// TARGET-OPTION:      stc-opt: error: st-svg: option phase takes an integer, got phase=x
// TARGET-OPTION-NOT:  Traceback
