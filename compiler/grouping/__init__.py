"""Layer groups (seed 004, TPU-MLIR's LayerGroup): runs of layers sliced along N and H so
that their intermediate activations stay in local memory. See docs/passes/task-layer-group.md."""
