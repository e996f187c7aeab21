task.graph @g {
  %x = task.input 0 "x" : tensor<1x1x1x2xi8>
  %in = task.buffer 1 si %x : tensor<1x1x1x2xi8>
  %r = task.relu 2 %in : tensor<1x1x1x2xi8>
  %out = task.buffer 3 so %r : tensor<1x1x1x2xi8>
  task.output 4 "y" %out
}
st.mapping @g target "/etc/stc-target.toml" {
}
