"""
What pricing a whole RA tree gives (`CostModel.evaluate`): its root's cost, energy and
latency, or why it is invalid.

    estimate = CostModel(network, target).evaluate(tree)
    estimate.value(model.objective)  # inf when the tree is invalid
"""

from __future__ import annotations

import attrs

from stc.compiler.cost.node_cost import NodeCost
from stc.compiler.cost.objective import Objective


@attrs.frozen
class Estimate:
    """A tree's cost: its root's NodeCost, energy (pJ), latency (cycles), validity."""

    cost: NodeCost | None
    energy: float
    latency: float
    valid: bool
    reason: str = ""
    kept: frozenset[int] = frozenset()
    """The layers whose result stays on chip for later segments (`kept.py`)."""
    segments: tuple[NodeCost, ...] = ()
    """Each segment's cost as the tree prices it (with what it keeps and is handed)."""

    def value(self, function: Objective) -> float:
        return function(self.energy, self.latency) if self.valid else float("inf")


INVALID = Estimate(None, float("inf"), float("inf"), False)
