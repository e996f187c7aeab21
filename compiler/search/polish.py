"""
A chain's last step: its best tree polished by joining a segment of one layer without
weights to a neighbour.

The walk moves a segment boundary one layer at a time (`moves.shift_boundary`) between
segments of several layers, and the recombination (`recombine.py`) joins only segments that
some tree of the chain priced, so two adjacent segments of one layer each are rarely seen
joined: on DarkNet-19 b64, seed 0's best tree ran conv96 and maxpool101 (and conv140 and
avgpool142) as segments of their own, conv96's result kept on chip for maxpool101
(`cost/kept.py`), where one segment saves the kept result's sends and holds, and a pool
adds no weights to hold.

At its end a chain takes the cheapest of its best tree's joins (`joins`: a segment of one
layer without weights and an adjacent segment of leaves in T-cuts, at either's subbatch
count or one) while that is cheaper, each join priced whole by the model, so the tree is
legal and priced as a fresh model prices it. (From DarkNet-19 seed 0's tree a steepest
descent over every flat neighbour, any two segments joined, a boundary moved, a subbatch
count changed, ends on the same tree; layers with weights are left out so that a chain's
end prices few trees: every tree priced chooses its kept tensors again.)

    tree, estimate, cost = polished(model, rules, tree, estimate, cost)
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from stc.compiler.cost.estimate import Estimate
from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.network import Network
from stc.compiler.cost.tree import Node
from stc.compiler.search.moves import Rules, legal


def joins(tree: Node, network: Network) -> Iterator[Node]:
    """Every tree with a segment of one layer without weights (a pool, an add) of `tree` and
    an adjacent segment of leaves (a leaf or a T-cut of leaves) joined into a T-cut of
    their layers, at either's subbatch count or one (a leaf's count is one); none unless
    the root is a T-cut of one subbatch."""
    if tree.kind != "T" or tree.n != 1:
        return
    segments = tree.children

    def weightless(segment: Node) -> bool:
        return segment.is_leaf and not network.layers[segment.layer].weight_bytes

    for i, (first, second) in enumerate(zip(segments, segments[1:], strict=False)):
        if not (flat(first) and flat(second)) or not (weightless(first) or weightless(second)):
            continue
        layers = [*first.leaves(), *second.leaves()]
        for n in sorted({first.n, second.n, 1}):
            joined = Node.cut("T", [Node.leaf(layer) for layer in layers], n)
            rest = [segment.copy() for segment in segments]
            yield Node.cut("T", [*rest[:i], joined, *rest[i + 2 :]], 1)


def flat(segment: Node) -> bool:
    """Whether a segment is a leaf or a T-cut of leaves."""
    return segment.is_leaf or (segment.kind == "T" and all(child.is_leaf for child in segment.children))


def polished(
    model: CostModel, rules: Rules, tree: Node, estimate: Estimate, cost: float, deadline: float | None = None
) -> tuple[Node, Estimate, float]:
    """The tree, its estimate and cost after joining, while one is cheaper, the cheapest of
    its legal `joins` (the first of equals); past `deadline` (`time.monotonic`) no other
    join is priced."""
    while True:
        best: tuple[Node, Estimate, float] | None = None
        for other in joins(tree, model.network):
            if deadline is not None and time.monotonic() > deadline:
                break
            if not legal(other, rules):
                continue
            other_estimate = model.evaluate(other)
            other_cost = other_estimate.value(model.objective)
            if other_cost < (cost if best is None else best[2]):
                best = (other, other_estimate, other_cost)
        if best is None:
            return tree, estimate, cost
        tree, estimate, cost = best
