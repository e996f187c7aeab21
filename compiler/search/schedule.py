"""
When each layer of an RA tree runs: the tree unrolled into time slots, one slot per run of a
leaf on its cores for one subbatch (a phase of the machine).

- A T-cut of n subbatches runs, for each subbatch in turn, its children one after another:
  n·Σ children slots.
- An S-cut of n subbatches runs its children side by side on their disjoint cores, each
  subbatch i of child c in the block of slots i + stage(c), a child's stage being one more
  than that of every earlier sibling it reads from (the seed's pipeline):
  (n + max stage)·max child slots.

A run covers the images [iteration·batch, (iteration + 1)·batch) of the network's batch,
`batch` being its leaf's subbatch. The slots of a producer's run on some images always come
before those of a consumer's run on the same images.

    runs = unroll(model, tree)   # T 4/2 [conv0, conv1] →
    # Run(layer=0, iteration=0, slot=0), Run(1, 0, 1), Run(0, 1, 2), Run(1, 1, 3)
"""

from __future__ import annotations

from attrs import frozen

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.recursion import stages_of
from stc.compiler.cost.tree import Node


@frozen
class Run:
    """One run of a layer: on the images of subbatch `iteration`, in time slot `slot`."""

    layer: int
    iteration: int
    slot: int


def length(model: CostModel, node: Node) -> int:
    """The slots a node takes for one run of its batch."""
    if node.is_leaf:
        return 1
    lengths = [length(model, child) for child in node.children]
    if node.kind == "T":
        return node.n * sum(lengths)
    return (node.n + max(stages_of(model.sibling_reads(node)))) * max(lengths)


def unroll(model: CostModel, tree: Node) -> list[Run]:
    """Every run of every layer of the tree, in slot order (see the module docstring)."""
    runs: list[Run] = []

    def visit(node: Node, start: int, first_image: int, batch: int) -> None:
        if node.is_leaf:
            runs.append(Run(node.layer, first_image // batch, start))
            return
        sub = batch // node.n
        if node.kind == "T":
            slot = start
            for i in range(node.n):
                for child in node.children:
                    visit(child, slot, first_image + i * sub, sub)
                    slot += length(model, child)
            return
        stages = stages_of(model.sibling_reads(node))
        block = max(length(model, child) for child in node.children)
        for i in range(node.n):
            for child, stage in zip(node.children, stages, strict=True):
                visit(child, start + (i + stage) * block, first_image + i * sub, sub)

    visit(tree, 0, 0, model.network.batch)
    return sorted(runs, key=lambda run: (run.slot, run.layer))
