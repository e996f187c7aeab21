// Malformed coordinates, actions and mappings are rejected when the IR is read.

// RUN: stc-opt %s --split-input-file --verify-diagnostics --parsing-diagnostics | filecheck %s

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8> {st.coord = #st.coord<(0, 0, 0), (0, 0, router_recv)>}
}
// CHECK: a space coordinate has 4 parts (chip y, chip x, core y, core x), got 3

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 0, dendrite)>}
}
// CHECK: Expected `axon`, `soma1`, `router_recv`, `router_send`, `soma2`, or `memory`.

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 0 to 2, axon)>}
}
// CHECK: coordinate (0, 0, 0, 0), (0, 0 to 2, axon): only the memory stage spans phases

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 3 to 2, memory)>}
}
// CHECK: coordinate (0, 0, 0, 0), (0, 3 to 2, memory): the last phase comes before the first

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8> {st.coord = #st.coord<(0, 0, -1, 0), (0, 0, memory)>}
}
// CHECK: coordinate (0, 0, -1, 0), (0, 0, memory) has a negative part

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8> {st.rect = #st.rect<core columns 3 to 1 rows 0 to 0>}
}
// CHECK: rectangle core columns 3 to 1 rows 0 to 0 is empty or negative

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
}
st.mapping @g target "tianjicx" {
  st.put_in 0 at (0, 0, 10, 0), (0, 0, router_recv)
}
// CHECK: st.mapping @g: st.put_in at (0, 0, 10, 0), (0, 0, router_recv): core (10, 0) does not exist on tianjicx (10x16 cores)

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
}
st.mapping @g target "tianjicx" {
  st.put_in 0 at (0, 1, 0, 0), (0, 0, router_recv)
}
// CHECK: st.mapping @g: st.put_in at (0, 1, 0, 0), (0, 0, router_recv): chip (0, 1) is outside tianjicx's 1x1 chips

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
}
st.mapping @g target "tianjicx" {
  st.take_out at (0, 0, 0, 0), (0, 32, memory)
}
// CHECK: st.mapping @g: st.take_out at (0, 0, 0, 0), (0, 32, memory): phase 32 is not below tianjicx's 32 phases

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 40, router_recv)>}
}
st.mapping @g target "tianjicx" {
}
// CHECK: task.input 0 at (0, 0, 0, 0), (0, 40, router_recv): phase 40 is not below tianjicx's 32 phases

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
}
st.mapping @g target "tianjicx" {
  st.put_in 0 at (0, 0, 0, 0), (0, 0 to 1, memory)
}
// CHECK: st.put_in: coordinate (0, 0, 0, 0), (0, 0 to 1, memory) must be one phase; give an end coordinate

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
}
st.mapping @g target "tianjix" {
}
// CHECK: st.mapping @g: unknown target 'tianjix'; available: aie-ml, set-8x8, tianjicx, tpu-like

// -----

st.mapping @missing target "tianjicx" {
}
// CHECK: st.mapping @missing: the module has no task.graph @missing

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
}
st.mapping @g target "tianjicx" {
  st.split_task 0 by [2, 1, 1]
}
// CHECK: st.split_task: a split vector is [ny, nx, nf, nr], [nn, ny, nx, nf, nr] or [ny, nx, nf, nr, 1, 1], got [2, 1, 1]

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
}
st.mapping @g target "tianjicx" {
  st.split_group [1, 2, 3] by [[1, 1, 2, 1], [1, 1, 2, 1]]
}
// CHECK: st.split_group: 2 vectors for 3 tasks

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
}
st.mapping @g target "tianjicx" {
  st.share_data [1]
}
// CHECK: st.share_data: names 1 block; sharing takes two or more

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
}
st.mapping @g target "tianjicx" {
  st.store_late []
}
// CHECK: st.store_late: names no block

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
}
st.mapping @g target "tianjicx" {
  st.store_late [3] by 0
}
// CHECK: st.store_late: stores 0 phases late; a distance is at least 1

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
}
st.mapping @g target "tianjicx" {
  st.keep []
}
// CHECK: st.keep: names no block

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
}
st.mapping @g target "tianjicx" {
  st.area_group "a" [0] {core columns 0 to 1 rows 0 to 1, core columns 2 to 3 rows 0 to 1}
}
// CHECK: st.area_group 'a': one rectangle per tile type, got ['core', 'core']

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
}
st.mapping @g target "tianjicx" {
  %c = arith.constant 0 : i32
}
// CHECK: st.mapping @g holds only st actions, got arith.constant

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
}
st.mapping @g target "tianjicx" {
  st.area_group "g" [0] {core columns 0 to 1 rows 0 to 1} contain_routing contain_routing
}
// CHECK: area group 'g': contain_routing is given twice

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
}
st.mapping @g target "tianjicx" {
  st.split_task 3 by [1, 1, 99999999999999999999999, 1]
}
// CHECK: integer 99999999999999999999999 does not fit in a 64-bit integer

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
}
st.mapping @g target "tianjicx" {
  st.split_group [3] by [[1, 1, 99999999999999999999999, 1]]
}
// CHECK: Integer value 99999999999999999999999 is out of range for type i64

// -----

task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
}
st.mapping @g target "tianjicx" {
  st.area_group "g" [99999999999999999999999] {core columns 0 to 1 rows 0 to 1}
}
// CHECK: integer 99999999999999999999999 does not fit in a 64-bit integer
