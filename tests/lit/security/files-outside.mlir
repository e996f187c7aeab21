// A path written in IR (a #task.npz archive, an st.mapping's or isa.program's target file)
// names a file inside the IR file's directory only, unless --data-dir widens it; a path
// outside is one error whether or not the file exists (docs/tools.md, "Security and limits").

// RUN: not stc-run %s 2>&1 | filecheck %s --check-prefix=NPZ
// RUN: not stc-run %s --data-dir %S/.. 2>&1 | filecheck %s --check-prefix=WIDENED
// RUN: not stc-opt %S/Inputs/mapping-outside.mlir -p st-apply 2>&1 | filecheck %s --check-prefix=TARGET
// RUN: not stc-run %S/Inputs/program-outside.mlir 2>&1 | filecheck %s --check-prefix=PROGRAM

task.graph @g {
  %x = task.input 0 "x" : tensor<1x1x1x2xi8>
  %in = task.buffer 1 si %x : tensor<1x1x1x2xi8>
  %b = task.bias 2 #task.npz<"../no-such-dir/data.npz", "bias"> : tensor<2xi32>
  %y = task.avgpool 3 %in bias %b window [1, 1] : tensor<1x1x1x2xi8>
  %out = task.buffer 4 so %y : tensor<1x1x1x2xi8>
  task.output 5 "y" %out
}

// NPZ:      stc-run: error: task.bias 2: npz file '../no-such-dir/data.npz' is outside {{.*}}security (the IR file's directory; --data-dir widens it)
// NPZ-NOT:  Traceback
// WIDENED:  stc-run: error: task.bias 2: npz file '{{.*}}no-such-dir/data.npz' does not exist
// TARGET:   stc-opt: error: st.mapping @g: target file '/etc/stc-target.toml' is outside {{.*}}Inputs (the IR file's directory; --data-dir widens it)
// PROGRAM:  stc-run: error: {{.*}}program-outside.mlir: isa.program @g: target file '../../x.toml' is outside {{.*}}Inputs (the IR file's directory; --data-dir widens it)
