"""
The segments of an RA tree and their steps: on a target that limits a step's phases
(`max_phases`), a segment longer than a step runs in several, and the lowering holds a
tensor on chip only within one. `CostModel` prices what that implies: tensors across steps
through DRAM (`steps`), weights loaded again in each later step (`reloads`), and trees it
cannot price (`crossings`).

    model.steps(segment)      # {layer: step}, empty when the segment fits one step
"""

from __future__ import annotations

from stc.compiler.cost.leaf_pricing import LeafPricing
from stc.compiler.cost.network import Network
from stc.compiler.cost.schedule import runs_of, step_crossings
from stc.compiler.cost.tree import Node
from stc.compiler.targets.hardware import HardwareTarget


class SegmentSteps(LeafPricing):
    """A tree's segments, the order of their children's runs and their steps."""

    def __init__(self, network: Network, target: HardwareTarget, cost: str = "edp"):
        super().__init__(network, target, cost)
        self._steps: dict[tuple, dict[int, int]] = {}
        self._crossings: dict[tuple, list[tuple[int, int]]] = {}

    def segments(self, tree: Node) -> list[Node]:
        """The children of a root T-cut of one subbatch, else the whole tree."""
        if tree.kind == "T" and tree.n == 1:
            return tree.children
        return [tree]

    def sibling_reads(self, node: Node) -> list[set[int]]:
        """For each child of a cut, the earlier siblings it reads from."""
        owner = {layer: index for index, child in enumerate(node.children) for layer in child.leaves()}
        reads: list[set[int]] = []
        for index, child in enumerate(node.children):
            producers = {p for layer in child.leaves() for p in self.network.layers[layer].producers}
            reads.append({owner[p] for p in producers if p in owner and owner[p] < index})
        return reads

    def steps(self, segment: Node) -> dict[int, int]:
        """The step of each layer of a segment in which every cut has one subbatch (each
        layer runs once) and which is longer than a step of the target's `max_phases`: the
        lowering holds a tensor on chip only within a step and passes it through DRAM to a
        later one, so the model prices it so. Empty when the segment fits one step or has
        subbatches (`reloads` prices those)."""
        phases = self.target.max_phases
        key = segment.key()
        if phases is None or subbatched(segment):
            return {}
        if key not in self._steps:
            runs = runs_of(self, segment, self.network.batch)
            self._steps[key] = {run.layer: run.slot // phases for run in runs} if runs[-1].slot >= phases else {}
        return self._steps[key]

    def crossings(self, segment: Node) -> list[tuple[int, int]]:
        """In a segment with subbatches longer than a step, the (producer, consumer) layers
        of which a run on some images falls in another step than the consumer's
        (`schedule.step_crossings`): the lowering passes those through DRAM on those images
        only, which the recursion (every run of a leaf alike) cannot price, so such a tree is
        invalid. (tiny b8 under `T 8/4` on tianjicx, priced on chip, ran 1.065 × the
        estimated cycles and 1.071 × its DRAM bytes.)"""
        phases = self.target.max_phases
        if phases is None or not subbatched(segment):
            return []
        key = segment.key()
        if key not in self._crossings:
            runs = runs_of(self, segment, self.network.batch)
            producers = {run.layer: self.network.layers[run.layer].producers for run in runs}
            crossing = step_crossings(runs, producers, self.network.batch, phases) if runs[-1].slot >= phases else []
            self._crossings[key] = crossing
        return self._crossings[key]

    def reloads(self, segment: Node) -> dict[int, int]:
        """In a segment with subbatches longer than a step, per layer that runs in several
        steps, how many more times than once its weights are loaded: the lowering shares a
        layer's weights among its runs on a core within a step (`st.share_data`), and each
        later step loads them again."""
        phases = self.target.max_phases
        if phases is None or not subbatched(segment):
            return {}
        steps: dict[int, set[int]] = {}
        for run in runs_of(self, segment, self.network.batch):
            steps.setdefault(run.layer, set()).add(run.slot // phases)
        return {layer: len(used) - 1 for layer, used in steps.items() if len(used) > 1}


def subbatched(segment: Node) -> bool:
    """Whether a cut of the segment has more than one subbatch (its layers run more than once)."""
    return any(not node.is_leaf and node.n > 1 for node in segment.nodes())
