"""
The `st-place` pass: place every block a mapping left unplaced (see
`stc.compiler.mapping.placement` for the algorithm), honouring the blocks the script pinned,
co-location with input storage, area groups, memory and phase limits, and minimising
Σ bytes × hops over producer→consumer edges. Deterministic for a given seed.

    stc-opt net.mlir -p 'st-apply,st-place{seed=1 iterations=50000}'

A graph without a mapping gets an empty, applied one for the `target` option. The buffers
between members of one layer group (`lg.group`, from task-layer-group on a many-core
target) are then held on their readers' cores from their producers' phases, where local
memory allows (`stc.compiler.grouping.hold`); the placer keeps room for them there. A
member's result that still goes through global memory is stored a phase late where that
costs fewer cycles (`stc.compiler.grouping.spills`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from stc.compiler.grouping.hold import group_producers, hold_group_buffers
from stc.compiler.grouping.spills import store_spills_late
from stc.compiler.mapping.actions import apply_mapping, mapping_for
from stc.compiler.mapping.coord_annotations import annotate
from stc.compiler.mapping.placement import check_options, place
from stc.dialects import task


@dataclass(frozen=True)
class StPlacePass(ModulePass):
    """
    Place the unplaced blocks of every task graph.

    Options:

    - seed: the random seed of the annealing (default 0).
    - iterations: annealing moves (default 20000; 0 keeps the greedy placement).
    - strategy: "greedy" (greedy then annealing) or "row-major" (the baseline).
    - target: the target of graphs that have no st.mapping.
    - delay: store a layer group member's result that goes through global memory a phase
      late where that costs fewer cycles (default true).
    """

    name = "st-place"

    seed: int = 0
    iterations: int = 20000
    strategy: str = "greedy"
    target: str | None = None
    delay: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_options(self.iterations, self.strategy)
        for graph in [child for child in op.ops if isinstance(child, task.GraphOp)]:
            matrix = apply_mapping(mapping_for(op, graph, self.target, self.name))
            place(matrix, self.seed, self.iterations, self.strategy, group_producers(graph))
            annotate(matrix)
            hold_group_buffers(matrix)
            if self.delay:
                store_spills_late(matrix)
