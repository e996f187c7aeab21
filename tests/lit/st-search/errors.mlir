// st-search refuses a graph that already has a mapping, and bad options, each in one message.

// RUN: stc-opt %s --split-input-file -p 'st-search{target=set-8x8 rounds=5 chains=1}' --verify-diagnostics | filecheck %s
// RUN: not stc-opt %s -p 'st-search{target=set-8x8 cost=speed}' 2>&1 | filecheck %s --check-prefix=COST
// RUN: not stc-opt %s -p 'st-search{target=set-8x8 space=all}' 2>&1 | filecheck %s --check-prefix=SPACE
// RUN: not stc-opt %s -p 'st-search{target=set-9x9}' 2>&1 | filecheck %s --check-prefix=TARGET

// COST: stc-opt: error: unknown cost function 'speed': use edp, energy, latency, e<N>d or ed<N>
// SPACE: stc-opt: error: unknown search space 'all': use set, ls, lp
// TARGET: stc-opt: error: unknown target 'set-9x9'; available: aie-ml, set-8x8, tianjicx, tpu-like

task.graph @mapped {
  %x = task.input 0 "x" : tensor<1x4x4x8xi8>
  %in = task.buffer 1 si %x : tensor<1x4x4x8xi8>
  %r = task.relu 2 %in : tensor<1x4x4x8xi8>
  %out = task.buffer 3 so %r : tensor<1x4x4x8xi8>
  task.output 4 "y" %out
}
// expected-error @+1 {{st-search: task.graph @mapped already has an st.mapping; st-search maps a graph that has none}}
st.mapping @mapped target "set-8x8" {
}
// CHECK: st-search: task.graph @mapped already has an st.mapping; st-search maps a graph that has none

