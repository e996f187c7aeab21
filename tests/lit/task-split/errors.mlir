// Every bad request ends with one line naming the block, the rule and the numbers, and
// exit code 1.

// RUN: not stc-opt %s -p 'task-split{task=4 vector=9,1,1,1}' 2>&1 | filecheck %s --check-prefix=TOO-MANY
// TOO-MANY: stc-opt: error: task.conv 4: cannot split y (8 rows) into 9 pieces

// RUN: not stc-opt %s -p 'task-split{task=4 vector=1,1,1,33}' 2>&1 | filecheck %s --check-prefix=TOO-MANY-R
// TOO-MANY-R: stc-opt: error: task.conv 4: cannot split r (32 input channels) into 33 pieces

// An fc's r is its input's channel axis, not the flattened h*w*c the seed's SIFC holds.
// RUN: not stc-opt %s -p 'task-split{task=11 vector=1,1,1,33}' 2>&1 | filecheck %s --check-prefix=FC-R
// FC-R: stc-opt: error: task.fc 11: cannot split r (32 input channels) into 33 pieces: a task.fc splits r along its input's channels only, not its 4x4 rows and columns

// RUN: not stc-opt %s -p 'task-split{task=4 vector=1,0,1,1}' 2>&1 | filecheck %s --check-prefix=ZERO
// ZERO: stc-opt: error: task.conv 4: split counts must be at least 1, got 0 for x

// RUN: not stc-opt %s -p 'task-split{task=8 vector=1,1,1,2}' 2>&1 | filecheck %s --check-prefix=POOL-R
// POOL-R: stc-opt: error: task.maxpool 8: cannot split r into 2 pieces: a task.maxpool has no r dimension

// RUN: not stc-opt %s -p 'task-split{task=6 vector=1,1,1,2}' 2>&1 | filecheck %s --check-prefix=RELU-R
// RELU-R: stc-opt: error: task.relu 6: cannot split r into 2 pieces: a task.relu has no r dimension

// RUN: not stc-opt %s -p 'task-split{task=11 vector=2,1,1,1}' 2>&1 | filecheck %s --check-prefix=FC-Y
// FC-Y: stc-opt: error: task.fc 11: cannot split y into 2 pieces: a task.fc has no y dimension

// RUN: not stc-opt %s -p 'task-split{task=11 vector=1,2,1,1}' 2>&1 | filecheck %s --check-prefix=FC-X
// FC-X: stc-opt: error: task.fc 11: cannot split x into 2 pieces: a task.fc has no x dimension

// RUN: not stc-opt %s -p 'task-split{task=1 vector=2,1,1,1}' 2>&1 | filecheck %s --check-prefix=STORAGE
// STORAGE: stc-opt: error: task.buffer 1: only compute blocks are split, this is a storage block

// RUN: not stc-opt %s -p 'task-split{task=2 vector=1,1,2,1}' 2>&1 | filecheck %s --check-prefix=WEIGHT
// WEIGHT: stc-opt: error: task.weight 2: only compute blocks are split, this is a storage block

// RUN: not stc-opt %s -p 'task-split{task=42 vector=2,1,1,1}' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: stc-opt: error: task-split: no task graph has a block with id 42

// RUN: not stc-opt %s -p 'task-split{tasks=4,42 vector=2,1,1,1}' 2>&1 | filecheck %s --check-prefix=UNKNOWN-GROUP
// UNKNOWN-GROUP: stc-opt: error: task-split: no task graph has a block with id 42

// Ids are looked up when their turn comes; an id named twice is refused before anything is split.
// RUN: not stc-opt %s -p 'task-split{tasks=4,6,4 vector=2,1,1,1}' 2>&1 | filecheck %s --check-prefix=TWICE
// TWICE: stc-opt: error: task-split: block 4 is named twice in `tasks`

// The option parser reads `true` as 1 and `false` as 0; neither is an id or a count.
// RUN: not stc-opt %s -p 'task-split{task=true vector=2,1,1,1}' 2>&1 | filecheck %s --check-prefix=BOOL-TASK
// BOOL-TASK: stc-opt: error: task-split: `task` takes integers, got true
// RUN: not stc-opt %s -p 'task-split{tasks=6,true vector=2,1,1,1}' 2>&1 | filecheck %s --check-prefix=BOOL-TASKS
// BOOL-TASKS: stc-opt: error: task-split: `tasks` takes integers, got 6,true
// RUN: not stc-opt %s -p 'task-split{task=6 vector=2,1,1,true}' 2>&1 | filecheck %s --check-prefix=BOOL-VECTOR
// BOOL-VECTOR: stc-opt: error: task-split: `vector` takes integers, got 2,1,1,true

// RUN: not stc-opt %s -p 'task-split{task=4 vector=2,1,1}' 2>&1 | filecheck %s --check-prefix=SHORT
// SHORT: stc-opt: error: task.conv 4: a split vector is ny,nx,nf,nr or nn,ny,nx,nf,nr or ny,nx,nf,nr,1,1, got 3 counts [2, 1, 1]

// RUN: not stc-opt %s -p 'task-split{task=4 vector=2,1,1,1,1,3}' 2>&1 | filecheck %s --check-prefix=KERNEL
// KERNEL: stc-opt: error: task.conv 4: ky and kx are never split, got nky=1 nkx=3

// RUN: not stc-opt %s -p 'task-split{task=4 tasks=4 vector=2,1,1,1}' 2>&1 | filecheck %s --check-prefix=BOTH
// BOTH: stc-opt: error: task-split: give `task` or `tasks`, not both

// RUN: not stc-opt %s -p 'task-split{task=4}' 2>&1 | filecheck %s --check-prefix=NO-VECTOR
// NO-VECTOR: stc-opt: error: task-split: `task` and `tasks` need a `vector`

// RUN: not stc-opt %s -p 'task-split{vector=2,1,1,1}' 2>&1 | filecheck %s --check-prefix=NO-TASK
// NO-TASK: stc-opt: error: task-split: `vector` needs `task` or `tasks`; hints carry their own vectors

task.graph @tiny {
  %x = task.input 0 "x" : tensor<1x8x8x32xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x32xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x32xi8>
  %b = task.bias 3 #task.random<8> : tensor<32xi32>
  %c = task.conv 4 %in, %w bias %b pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x32xi8>
  %r_in = task.buffer 5 si %c : tensor<1x8x8x32xi8>
  %r = task.relu 6 %r_in : tensor<1x8x8x32xi8>
  %p_in = task.buffer 7 si %r : tensor<1x8x8x32xi8>
  %p = task.maxpool 8 %p_in window [2, 2] stride [2, 2] : tensor<1x4x4x32xi8>
  %f_in = task.buffer 9 sifc %p : tensor<1x4x4x32xi8>
  %fw = task.weight 10 #task.random<9> : tensor<10x4x4x32xi8>
  %f = task.fc 11 %f_in, %fw shift 10 : tensor<1x1x1x10xi8>
  %out = task.buffer 12 so %f : tensor<1x1x1x10xi8>
  task.output 13 "y" %out
}
