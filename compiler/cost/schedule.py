"""
When each layer of an RA tree runs: the tree unrolled into time slots, one slot per run of a
leaf on its cores for one subbatch (a phase of the machine).

- A T-cut of n subbatches runs, for each subbatch in turn, its children one after another:
  n·Σ children slots.
- An S-cut of n subbatches runs its children side by side on their disjoint cores, each
  subbatch i of child c in the block of slots i + stage(c), a child's stage being one more
  than that of every earlier sibling it reads from (the seed's pipeline):
  (n + max stage)·max child slots.
- On a target with at most `max_phases` phases per step, each segment (a child of a root
  T-cut of one subbatch) starts a step of its own: slot t of a segment is its step
  t // max_phases wherever the segment lies, so the model prices a segment's steps from
  the segment alone. The machine runs only the phases a program uses, so the empty phases
  this leaves at the end of a step cost nothing.

A run covers the images [iteration·batch, (iteration + 1)·batch) of the network's batch,
`batch` being its leaf's subbatch. The slots of a producer's run on some images always come
before those of a consumer's run on the same images.

    runs = unroll(model, tree)   # T 4/2 [conv0, conv1] →
    # Run(layer=0, iteration=0, slot=0), Run(1, 0, 1), Run(0, 1, 2), Run(1, 1, 3)
"""

from __future__ import annotations

from typing import Protocol

from attrs import frozen

from stc.compiler.cost.network import Network
from stc.compiler.cost.recursion import stages_of
from stc.compiler.cost.tree import Node
from stc.compiler.targets.hardware import HardwareTarget


class CostModel(Protocol):
    """What unrolling needs of `evaluate.CostModel`: its network, target, segments and the
    sibling reads that give an S-cut's stages."""

    network: Network
    target: HardwareTarget

    def segments(self, tree: Node) -> list[Node]: ...

    def sibling_reads(self, node: Node) -> list[set[int]]: ...


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


def segment_starts(model: CostModel, tree: Node) -> list[int]:
    """The first slot of each segment (`CostModel.segments`): one after another, each at the
    start of a step when the target limits the phases of a step."""
    segments = model.segments(tree)
    if segments[0] is tree:
        return [0]
    phases = model.target.max_phases
    starts, slot = [], 0
    for segment in segments:
        starts.append(slot)
        slot += length(model, segment)
        if phases is not None:
            slot = -(-slot // phases) * phases
    return starts


def unroll(model: CostModel, tree: Node) -> list[Run]:
    """Every run of every layer of the tree, in slot order (see the module docstring)."""
    batch = model.network.batch
    segments = model.segments(tree)
    if segments[0] is tree:
        return runs_of(model, tree, batch)
    starts = segment_starts(model, tree)
    runs = [
        run for segment, start in zip(segments, starts, strict=True) for run in runs_of(model, segment, batch, start)
    ]
    return sorted(runs, key=lambda run: (run.slot, run.layer))


def runs_of(model: CostModel, node: Node, batch: int, start: int = 0) -> list[Run]:
    """The runs of a node of `batch` images from slot `start`, in slot order."""
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

    visit(node, start, 0, batch)
    return sorted(runs, key=lambda run: (run.slot, run.layer))


def step_crossings(runs: list[Run], producers: dict[int, set[int]], batch: int, phases: int) -> list[tuple[int, int]]:
    """The (producer, consumer) pairs of layers among `runs` (a segment's, `batch` images)
    of which a run on some images falls in another step of `phases` phases than the run of
    the consumer on the same images: the lowering holds a tensor on chip only within a step."""
    runs_per_layer: dict[int, int] = {}
    for run in runs:
        runs_per_layer[run.layer] = runs_per_layer.get(run.layer, 0) + 1
    step: dict[tuple[int, int], int] = {}
    for run in runs:
        size = batch // runs_per_layer[run.layer]
        for image in range(run.iteration * size, (run.iteration + 1) * size):
            step[(run.layer, image)] = run.slot // phases
    return sorted(
        {
            (producer, consumer)
            for (consumer, image), here in step.items()
            for producer in producers[consumer]
            if step.get((producer, image), here) != here
        }
    )
