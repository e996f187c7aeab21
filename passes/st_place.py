"""
The `st-place` pass: place every block a mapping left unplaced (see
`stc.compiler.placement` for the algorithm), honouring the blocks the script pinned,
co-location with input storage, area groups, memory and phase limits, and minimising
Σ bytes × hops over producer→consumer edges. Deterministic for a given seed.

    stc-opt net.mlir -p 'st-apply,st-place{seed=1 iterations=50000}'

A graph without a mapping gets an empty, applied one for the `target` option.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.placement import check_options, place
from stc.compiler.st_actions import apply_mapping
from stc.dialects import task
from stc.dialects.st import MappingOp


def mapping_for(module: ModuleOp, graph: task.GraphOp, target: str | None, pass_name: str) -> MappingOp:
    """The graph's mapping; a new, empty and applied one on `target` when it has none."""
    mapping = next(
        (op for op in module.ops if isinstance(op, MappingOp) and op.graph_name == graph.graph_name),
        None,
    )
    if mapping is not None:
        if target is not None and target != mapping.target_name:
            raise PassFailedException(
                f"{pass_name}: target={target} but the st.mapping of @{graph.graph_name} is for {mapping.target_name}"
            )
        return mapping
    if target is None:
        raise PassFailedException(f"{pass_name}: task.graph @{graph.graph_name} has no st.mapping; give a target")
    mapping = MappingOp(graph.graph_name, target)
    module.body.block.add_op(mapping)
    return mapping


@dataclass(frozen=True)
class StPlacePass(ModulePass):
    """
    Place the unplaced blocks of every task graph.

    Options:

    - seed: the random seed of the annealing (default 0).
    - iterations: annealing moves (default 20000; 0 keeps the greedy placement).
    - strategy: "greedy" (greedy then annealing) or "row-major" (the baseline).
    - target: the target of graphs that have no st.mapping.
    """

    name = "st-place"

    seed: int = 0
    iterations: int = 20000
    strategy: str = "greedy"
    target: str | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_options(self.iterations, self.strategy)
        for graph in [child for child in op.ops if isinstance(child, task.GraphOp)]:
            matrix = apply_mapping(mapping_for(op, graph, self.target, self.name))
            place(matrix, self.seed, self.iterations, self.strategy)
            matrix.annotate()
