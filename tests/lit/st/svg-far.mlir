// st-svg draws one panel per phase that holds a block, at most 256 of them: a mapping over
// phases 0 to 2^40 asks for one phase, which draws at once.
// RUN: not stc-opt %s -p st-apply -t st-svg 2>&1 | filecheck %s --check-prefix=MANY
// RUN: stc-opt %s -p st-apply -t 'st-svg{phase=1099511627776}' | filecheck %s

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %b = task.buffer 1 si %x : tensor<1x4x4x32xi8>
  %r = task.relu 2 %b : tensor<1x4x4x32xi8>
  %o = task.buffer 3 so %r : tensor<1x4x4x32xi8>
  task.output 4 "y" %o
}
st.mapping @g target "set-8x8" {
  st.put_in 1 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1099511627776, memory)
  st.put_in 2 at (0, 0, 0, 0), (0, 1099511627776, soma1)
}

// MANY: stc-opt: error: st-svg: the blocks of @g are in 1099511627777 phases; a drawing holds at most 256, give phase=P to draw one
// CHECK: <svg
// CHECK: step 0, phase 1099511627776
