// On a target whose DMA overlaps compute (Inputs/tpu-gdma.toml: tpu-like with
// global_memory.dma_overlaps_compute = true) a group's data blocks are loaded one timestep
// before their layer (seed 004's w4, [T5, T5] becoming [T4, T5]) when local memory allows:
// conv 9's weight 7 and bias 8 are held from step 1 and loaded there, beside relu 5; the
// machine times each phase as max(DMA, the rest). The group's first layer (conv 3) has no
// earlier timestep. On tpu-like itself nothing is hoisted (timesteps.mlir).

// RUN: stc-opt %s -p 'task-layer-group{target="%S/Inputs/tpu-gdma.toml"}' | filecheck %s
// RUN: stc-opt %s -p 'task-layer-group{target="%S/Inputs/tpu-gdma.toml"},st-place,st-route,st-lmem-alloc,isa-lower' | filecheck %s --check-prefix=ISA
// RUN: stc-opt %s -p 'task-layer-group{target="%S/Inputs/tpu-gdma.toml"},st-place,st-route,st-lmem-alloc,isa-lower' -o %t.isa.mlir
// RUN: stc-run %s --compare %t.isa.mlir --data-dir %S/Inputs
// RUN: stc-opt %s -p 'task-layer-group' | filecheck %s --check-prefix=SERIAL

// CHECK:      st.put_in 2 at (0, 0, 0, 0), (0, 0, memory)
// CHECK:      st.put_in 7 at (0, 0, 0, 0), (0, 1, memory) to (0, 0, 0, 0), (0, 2, memory)
// CHECK-NEXT: st.put_in 8 at (0, 0, 0, 0), (0, 1, memory) to (0, 0, 0, 0), (0, 2, memory)
// CHECK-NEXT: st.put_in 9 at (0, 0, 0, 0), (0, 2, axon)

// ISA:      isa.sync 0
// ISA-NEXT: isa.relu
// ISA-NEXT: isa.dma_load sizes [256]
// ISA-NEXT: isa.dma_load sizes [64]
// ISA-NEXT: isa.sync 1
// ISA-NEXT: isa.conv

// SERIAL: st.put_in 7 at (0, 0, 0, 0), (0, 2, memory)
// SERIAL-NEXT: st.put_in 8 at (0, 0, 0, 0), (0, 2, memory)

task.graph @chain {
  %0 = task.input 0 "x" : tensor<1x8x8x16xi8>
  %1 = task.buffer 1 sic %0 : tensor<1x8x8x16xi8>
  %2 = task.weight 2 #task.random<1> : tensor<16x3x3x16xi8>
  %3 = task.conv 3 %1, %2 pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x16xi8>
  %4 = task.buffer 4 si %3 : tensor<1x8x8x16xi8>
  %5 = task.relu 5 %4 : tensor<1x8x8x16xi8>
  %6 = task.buffer 6 sic %5 : tensor<1x8x8x16xi8>
  %7 = task.weight 7 #task.random<2> : tensor<16x1x1x16xi8>
  %8 = task.bias 8 #task.random<3> : tensor<16xi32>
  %9 = task.conv 9 %6, %7 bias %8 shift 8 : tensor<1x8x8x16xi8>
  %10 = task.buffer 10 so %9 : tensor<1x8x8x16xi8>
  task.output 11 "y" %10
}
