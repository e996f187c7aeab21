// The st dialect's local-memory verifier: once blocks carry st.addr, every region on a
// core lies in its usable local memory, is aligned for its kind, crosses no bank boundary
// when it fits in a bank, and overlaps no region live in the same phase. It runs whenever
// the module is verified (after every pass), independently of st-lmem-alloc.

// RUN: stc-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A valid allocation: the relu's result in place inside buffer 3, which reuses buffer 1's
// bytes in a later phase; the weight stays over both phases.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %in = task.buffer 1 si %x : tensor<1x4x4x32xi8> {st.addr = 0 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
  %r = task.relu 2 %in : tensor<1x4x4x32xi8> {st.addr = 512 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, axon)>}
  %out = task.buffer 3 sic %r : tensor<1x4x4x32xi8> {st.addr = 512 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0 to 1, memory)>}
  %w = task.weight 5 #task.random<1> : tensor<32x1x1x32xi8> {st.addr = 65536 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0 to 1, memory)>}
  %c = task.conv 6 %out, %w : tensor<1x4x4x32xi8> {st.addr = 0 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 1, axon)>}
  %y = task.buffer 7 so %c : tensor<1x4x4x32xi8> {st.addr = 0 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 1, memory)>}
  task.output 4 "y" %y
}
st.mapping @g target "tianjicx" applied {
}
// CHECK:      task.relu 2 %{{.*}} : tensor<1x4x4x32xi8> {st.addr = 512 : i64
// CHECK:      st.mapping @g target "tianjicx" applied

// -----

// Two buffers live in phase 0 on core (0, 0) overlap.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %a = task.buffer 1 si %x : tensor<1x4x4x32xi8> {st.addr = 0 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
  %b = task.buffer 2 si %x : tensor<1x4x4x32xi8> {st.addr = 256 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0 to 3, memory)>}
}
// expected-error @+1 {{st.mapping @g: local memory: core (0, 0), phase 0: block 1 (task.buffer) at [0, 512) and block 2 (task.buffer) at [256, 768) overlap, both live}}
st.mapping @g target "tianjicx" applied {
}

// -----

// A result that is not the piece its buffer holds at that address is a region of its own.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %in = task.buffer 1 si %x : tensor<1x4x4x32xi8> {st.addr = 0 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
  %r = task.relu 2 %in : tensor<1x4x4x32xi8> {st.addr = 1024 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, axon)>}
  %out = task.buffer 3 so %r : tensor<1x4x4x32xi8> {st.addr = 768 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
  task.output 4 "y" %out
}
// expected-error @+1 {{st.mapping @g: local memory: core (0, 0), phase 0: block 3 (task.buffer) at [768, 1280) and block 2 (task.relu) at [1024, 1536) overlap, both live}}
st.mapping @g target "tianjicx" applied {
}

// -----

// Regions of step 1 overlap: the message names the step.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %a = task.buffer 1 si %x : tensor<1x4x4x32xi8> {st.addr = 0 : i64, st.coord = #st.coord<(0, 0, 2, 3), (0, 5, memory)>}
  %b = task.buffer 2 si %x : tensor<1x4x4x32xi8> {st.addr = 0 : i64, st.coord = #st.coord<(0, 0, 2, 3), (1, 5, memory)>}
  %c = task.buffer 3 si %x : tensor<1x4x4x32xi8> {st.addr = 496 : i64, st.coord = #st.coord<(0, 0, 2, 3), (1, 2 to 5, memory)>}
}
// expected-error @+1 {{st.mapping @g: local memory: core (2, 3), step 1, phase 5: block 2 (task.buffer) at [0, 512) and block 3 (task.buffer) at [496, 1008) overlap, both live}}
st.mapping @g target "tianjicx" applied {
}

// -----

// TianjicX reserves the top 4 KB of its 144 KB: 143360 B are usable.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %a = task.buffer 1 si %x : tensor<1x4x4x32xi8> {st.addr = 143024 : i64, st.coord = #st.coord<(0, 0, 0, 1), (0, 1 to 2, memory)>}
}
// expected-error @+1 {{st.mapping @g: local memory: core (0, 1), phases 1 to 2: block 1 (task.buffer) at [143024, 143536) is outside the usable local memory [0, 143360) of the core}}
st.mapping @g target "tianjicx" applied {
}

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %a = task.buffer 1 si %x : tensor<1x4x4x32xi8> {st.addr = -16 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
}
// expected-error @+1 {{st.mapping @g: local memory: core (0, 0), phase 0: block 1 (task.buffer) at [-16, 496) is outside the usable local memory [0, 143360) of the core}}
st.mapping @g target "tianjicx" applied {
}

// -----

// A weight on TianjicX starts on 32 bytes.
task.graph @g {
  %w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8> {st.addr = 16 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
}
// expected-error @+1 {{st.mapping @g: local memory: core (0, 0), phase 0: block 1 (task.weight) at 16 is not a multiple of the weight alignment, 32 B}}
st.mapping @g target "tianjicx" applied {
}

// -----

// An int32 result (partial sums) starts on 128 bytes.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %in = task.buffer 1 si %x : tensor<1x4x4x32xi8> {st.addr = 0 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
  %w = task.weight 2 #task.random<1> : tensor<32x1x1x32xi8> {st.addr = 1024 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
  %c = task.conv 3 %in, %w : tensor<1x4x4x32xi32> {st.addr = 2112 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, axon)>}
}
// expected-error @+1 {{st.mapping @g: local memory: core (0, 0), phase 0: block 3 (task.conv) at 2112 is not a multiple of the partial_sum alignment, 128 B}}
st.mapping @g target "tianjicx" applied {
}

// -----

// 512 B fit in any bank (the smallest, MEM2, holds 16 KB): they may not straddle MEM0 and MEM1.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %a = task.buffer 1 si %x : tensor<1x4x4x32xi8> {st.addr = 65280 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
}
// expected-error @+1 {{st.mapping @g: local memory: core (0, 0), phase 0: block 1 (task.buffer) at [65280, 65792) crosses the bank boundary at 65536; 512 B fit in any bank (the smallest holds 16384 B)}}
st.mapping @g target "tianjicx" applied {
}

// -----

// A region larger than the smallest bank may cross (50 KB across MEM0 and MEM1).
task.graph @g {
  %x = task.input 0 "x" : tensor<1x40x40x32xi8>
  %a = task.buffer 1 si %x : tensor<1x40x40x32xi8> {st.addr = 32768 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
}
st.mapping @g target "tianjicx" applied {
}
// CHECK: task.buffer 1 si %{{.*}} : tensor<1x40x40x32xi8> {st.addr = 32768 : i64

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %a = task.buffer 1 si %x : tensor<1x4x4x32xi8> {st.addr = 0 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
  %b = task.buffer 2 si %x : tensor<1x4x4x32xi8> {st.coord = #st.coord<(0, 0, 1, 0), (0, 0, memory)>}
}
// expected-error @+1 {{st.mapping @g: local memory: block 2 (task.buffer) on core (1, 0) has no st.addr, while other blocks of task.graph @g have one; run st-lmem-alloc again}}
st.mapping @g target "tianjicx" applied {
}

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %a = task.buffer 1 si %x : tensor<1x4x4x32xi8> {st.addr = 0 : i64}
}
// expected-error @+1 {{st.mapping @g: local memory: block 1 (task.buffer) has an st.addr but no st.coord: a local address needs a core}}
st.mapping @g target "tianjicx" applied {
}

// -----

// Staging areas (NC1HWC0 targets) are regions too: the input staging lives in the
// buffer's first phase, the output staging in its last; both start on 32 bytes.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %a = task.buffer 1 si %x : tensor<1x4x4x32xi8> {st.addr = 0 : i64, st.staging_in = array<i64: 512, 2048>, st.coord = #st.coord<(0, 0, 0, 0), (0, 0 to 2, memory)>}
  %b = task.buffer 2 si %x : tensor<1x4x4x32xi8> {st.addr = 1024 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 1, memory)>}
}
st.mapping @g target "tpu-like" applied {
}
// CHECK: st.staging_in = array<i64: 512, 2048>

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %a = task.buffer 1 si %x : tensor<1x4x4x32xi8> {st.addr = 0 : i64, st.staging_out = array<i64: 512, 2048>, st.coord = #st.coord<(0, 0, 0, 0), (0, 0 to 2, memory)>}
  %b = task.buffer 2 si %x : tensor<1x4x4x32xi8> {st.addr = 1024 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 2, memory)>}
}
// expected-error @+1 {{st.mapping @g: local memory: core (0, 0), phase 2: block 1 (task.buffer) output staging at [512, 2560) and block 2 (task.buffer) at [1024, 1536) overlap, both live}}
st.mapping @g target "tpu-like" applied {
}

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %a = task.buffer 1 si %x : tensor<1x4x4x32xi8> {st.addr = 0 : i64, st.staging_in = array<i64: 528, 2048>, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
}
// expected-error @+1 {{st.mapping @g: local memory: core (0, 0), phase 0: block 1 (task.buffer) input staging at 528 is not a multiple of the staging alignment, 32 B}}
st.mapping @g target "tpu-like" applied {
}

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %a = task.buffer 1 si %x : tensor<1x4x4x32xi8> {st.addr = 0 : i64, st.staging_in = 512 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
}
// expected-error @+1 {{st.mapping @g: local memory: block 1 (task.buffer): st.staging_in must be array<i64: address, bytes>, got 512 : i64}}
st.mapping @g target "tpu-like" applied {
}

// -----

// A result stored late (st.store_late) lives in the next phase too: buffer 3, held only in
// phase 1, may not reuse its bytes there.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %in = task.buffer 1 si %x : tensor<1x4x4x32xi8> {st.addr = 0 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
  %r = task.relu 2 %in : tensor<1x4x4x32xi8> {st.store_late, st.addr = 1024 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, axon)>}
  %y = task.buffer 3 si %r : tensor<1x4x4x32xi8> {st.addr = 1024 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 1, memory)>}
  %r2 = task.relu 5 %y : tensor<1x4x4x32xi8> {st.addr = 0 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 1, axon)>}
  %out = task.buffer 6 so %r2 : tensor<1x4x4x32xi8> {st.addr = 0 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 1, memory)>}
  task.output 4 "y" %out
}
// expected-error @+1 {{st.mapping @g: local memory: core (0, 0), phase 1: block 2 (task.relu) at [1024, 1536) and block 3 (task.buffer) at [1024, 1536) overlap, both live}}
st.mapping @g target "tianjicx" applied {
}
// CHECK: phase 1: block 2 (task.relu) at [1024, 1536) and block 3 (task.buffer) at [1024, 1536) overlap, both live

// -----

// On set-8x8 (compute.fused_activation) conv 3 applies relu 5: it writes the relu's output
// at the relu's address, and buffer 4 between them, read by the relu alone, has no st.addr.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %in = task.buffer 1 sic %x : tensor<1x4x4x32xi8> {st.addr = 0 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
  %w = task.weight 2 #task.random<1> : tensor<32x1x1x32xi8> {st.addr = 1024 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
  %c = task.conv 3 %in, %w : tensor<1x4x4x32xi8> {st.addr = 2048 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, axon)>}
  %b = task.buffer 4 si %c : tensor<1x4x4x32xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
  %r = task.relu 5 %b : tensor<1x4x4x32xi8> {st.addr = 2048 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, soma1)>}
  %y = task.buffer 6 so %r : tensor<1x4x4x32xi8> {st.addr = 2048 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
  task.output 7 "y" %y
}
st.mapping @g target "set-8x8" applied {
}
// CHECK:      task.buffer 4 si %{{.*}} : tensor<1x4x4x32xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
// CHECK-NEXT: task.relu 5

// -----

// The conv does not write at the relu's address: the buffer between them needs one.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %in = task.buffer 1 sic %x : tensor<1x4x4x32xi8> {st.addr = 0 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
  %w = task.weight 2 #task.random<1> : tensor<32x1x1x32xi8> {st.addr = 1024 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
  %c = task.conv 3 %in, %w : tensor<1x4x4x32xi8> {st.addr = 4096 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, axon)>}
  %b = task.buffer 4 si %c : tensor<1x4x4x32xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
  %r = task.relu 5 %b : tensor<1x4x4x32xi8> {st.addr = 2048 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, soma1)>}
  %y = task.buffer 6 so %r : tensor<1x4x4x32xi8> {st.addr = 2048 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
  task.output 7 "y" %y
}
// expected-error @+1 {{st.mapping @g: local memory: block 4 (task.buffer) on core (0, 0) has no st.addr, while other blocks of task.graph @g have one; run st-lmem-alloc again}}
st.mapping @g target "set-8x8" applied {
}

// -----

// On tianjicx, whose convs apply no activation, the buffer before the relu needs its bytes.
task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %in = task.buffer 1 sic %x : tensor<1x4x4x32xi8> {st.addr = 0 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
  %w = task.weight 2 #task.random<1> : tensor<32x1x1x32xi8> {st.addr = 1024 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
  %c = task.conv 3 %in, %w : tensor<1x4x4x32xi8> {st.addr = 2048 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, axon)>}
  %b = task.buffer 4 si %c : tensor<1x4x4x32xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
  %r = task.relu 5 %b : tensor<1x4x4x32xi8> {st.addr = 2048 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, soma1)>}
  %y = task.buffer 6 so %r : tensor<1x4x4x32xi8> {st.addr = 2048 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
  task.output 7 "y" %y
}
// expected-error @+1 {{st.mapping @g: local memory: block 4 (task.buffer) on core (0, 0) has no st.addr, while other blocks of task.graph @g have one; run st-lmem-alloc again}}
st.mapping @g target "tianjicx" applied {
}
