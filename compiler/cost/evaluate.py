"""
The cost of a whole RA tree on a target: cores and batches top down, leaves priced by
`LeafPricing` (`leaf_pricing.py`), cuts combined bottom up with the seed's recursion.

- The root gets every core of the chip; a T-cut gives each child its cores, an S-cut
  divides them in proportion to the children's normalised processing time (MAC-array and
  vector cycles of their layers), each at least one core; cores are taken in snake order.
- Segments: when the root is a T-cut of one subbatch, each of its children is a segment and
  tensors between segments pass through DRAM; otherwise the whole tree is one segment. A tree
  may hold only some of the layers: tensors from and to the others pass through DRAM.
  Inside a segment tensors stay on chip. Each segment must fit the cores' buffers. On a
  target without a phase limit a tensor between segments may stay on its producer's cores
  instead, where they hold it and that is cheaper (`kept.py`).
- Leaf costs are cached on everything they depend on (layer, cores, partition, batch, the
  producers' places, where the output goes), so after a move only the changed part of the
  tree is priced again.

    model = CostModel(network, target)
    estimate = model.evaluate(tree)
    estimate.latency, estimate.energy, estimate.valid
"""

from __future__ import annotations

import attrs
import numpy as np

from stc.compiler.cost.charging import Charged, charged_leaves
from stc.compiler.cost.estimate import INVALID, Estimate
from stc.compiler.cost.holds import segment_peak
from stc.compiler.cost.kept import Located, kept_tensors
from stc.compiler.cost.leaf_pricing import Place
from stc.compiler.cost.network import Network
from stc.compiler.cost.node_cost import NodeCost, bounded
from stc.compiler.cost.partition import Partition
from stc.compiler.cost.pinned_banks import PinnedBanks
from stc.compiler.cost.recursion import PREFETCH_DEPTH, reloaded, s_buffers, s_cut, stages_of, t_buffers, t_cut
from stc.compiler.cost.repair import Priced, repaired
from stc.compiler.cost.room import Room
from stc.compiler.cost.segment_steps import SegmentSteps, subbatched
from stc.compiler.cost.shared_sends import shared_sends
from stc.compiler.cost.tree import Node
from stc.compiler.diagnostics import StcError
from stc.compiler.targets.hardware import HardwareTarget

Cached = tuple[dict[tuple, tuple[NodeCost | None, dict]], dict[tuple, tuple]]
"""Segment costs and kept choices a model priced (`CostModel.cached`)."""


class CostModel(SegmentSteps):
    """Prices RA trees of one network on one target; see the module docstring."""

    def __init__(self, network: Network, target: HardwareTarget, cost: str = "edp", keep: bool = True):
        super().__init__(network, target, cost)
        self.keep = keep
        """Whether tensors between segments may stay on chip (`kept.py`)."""
        rate = target.compute.macs_per_cycle
        bandwidth = target.local_memory.bandwidth_bytes_per_cycle
        self.layer_time = [
            layer.macs_per_image / rate + layer.output_bytes_per_image * layer.vector_bytes_per_output / bandwidth
            for layer in self.network.layers
        ]
        self.in_order = target.with_global_memory(dma_overlaps_compute=False)
        """The target with its DMA in order: a segment whose prefetched weights overflow a
        core is priced on it, with none prefetched."""
        self._segments: dict[tuple, tuple[NodeCost | None, dict[int, tuple[Place, Partition]]]] = {}
        self._kept: dict[tuple, tuple[frozenset[int], list[tuple[NodeCost | None, Located]]]] = {}
        self._charged: Charged = {}
        self.pinned = PinnedBanks.of(network, target)
        """The room a subbatched segment's pinned weights leave in a core's banks."""

    # --- Places ---------------------------------------------------------------------

    def shares(self, children: list[Node], count: int) -> list[int] | None:
        """Cores per child of an S-cut: in proportion to their processing time, at least one
        each, the remainder to the largest fractions; None when there are too few cores."""
        if len(children) > count:
            return None
        times = np.array([sum(self.layer_time[i] for i in child.leaves()) for child in children]) + 1e-9
        ideal = times / times.sum() * count
        shares = np.maximum(np.floor(ideal).astype(int), 1)
        while shares.sum() > count:
            shares[np.argmax(np.where(shares > 1, shares - ideal, -np.inf))] -= 1
        while shares.sum() < count:
            shares[np.argmax(ideal - shares)] += 1
        return [int(share) for share in shares]

    def places(self, tree: Node) -> dict[int, Place] | str:
        """The place of every node (by id), or why the tree cannot be laid out."""
        result: dict[int, Place] = {}
        stack = [(tree, Place(0, self.context.mesh.core_count, self.network.batch))]
        while stack:
            node, place = stack.pop()
            result[id(node)] = place
            if node.is_leaf:
                continue
            if place.batch % node.n:
                return f"{node.kind}-cut of batch {place.batch} cannot make {node.n} subbatches"
            batch = place.batch // node.n
            if node.kind == "T":
                stack.extend((child, Place(place.start, place.count, batch)) for child in node.children)
                continue
            shares = self.shares(node.children, place.count)
            if shares is None:
                return f"S-cut of {len(node.children)} children on {place.count} cores"
            start = place.start
            for child, share in zip(node.children, shares, strict=True):
                stack.append((child, Place(start, share, batch)))
                start += share
        return result

    # --- Costs ----------------------------------------------------------------------

    def evaluate(self, tree: Node) -> Estimate:
        places = self.places(tree)
        if isinstance(places, str):
            return attrs.evolve(INVALID, reason=places)
        segments = self.segments(tree)
        segment_of = self.segment_of(tree)
        costs = []
        for index, segment in enumerate(segments):
            if crossing := self.crossings(segment):
                producer, consumer = (self.network.layers[layer].name for layer in crossing[0])
                return attrs.evolve(
                    INVALID,
                    reason=f"segment {index} has subbatches and passes {producer}'s result to {consumer} "
                    f"across a step of {self.target.max_phases} phases",
                )
            cost, _ = self.segment_cost(segment, places, segment_of)
            if cost is None or not cost.fits(self.target):
                usable = self.target.usable_memory_bytes
                need = (
                    f"more than the {usable} B of a core (a part of it alone overflows one)"
                    if cost is None
                    else f"{cost.buffer_peak()} B on a core > {usable} B"
                )
                return attrs.evolve(INVALID, reason=f"segment {index} needs {need}")
            costs.append(cost)
        kept, priced = self.kept_tensors(tree, places, segment_of)
        if kept:
            costs = [cost for cost, _ in priced]  # pyright: ignore[reportAssignmentType]
        root = self.root(tree, costs)
        return Estimate(root, root.energy(self.target), root.latency, True, kept=kept, segments=tuple(costs))

    def root(self, tree: Node, costs: list[NodeCost]) -> NodeCost:
        """The tree's cost from its segments'."""
        if len(costs) == 1 and self.segments(tree)[0] is tree:
            return costs[0]
        if self.target.max_phases is not None:  # each segment starts a step: none prefetches in the one before
            costs[1:] = [attrs.evolve(cost, head_dram=0.0) for cost in costs[1:]]
        return t_cut(costs, 1, self.target, early=False, room=Room.of(costs, self.target))

    def segment_of(self, tree: Node) -> dict[int, tuple[int, int]]:
        """The segment (an index into `segments(tree)`) of every layer of the tree, and its
        step in the segment (`steps`): tensors stay on chip between layers of one segment
        and step."""
        result = {}
        for index, segment in enumerate(self.segments(tree)):
            steps = self.steps(segment)
            result |= {layer: (index, steps.get(layer, 0)) for layer in segment.leaves()}
        return result

    def layout(self, tree: Node) -> dict[int, tuple[Place, Partition]]:
        """Each layer's cores, batch and partition as `evaluate` prices them."""
        places = self.places(tree)
        if isinstance(places, str):
            raise StcError(f"the tree cannot be laid out: {places}")
        segment_of = self.segment_of(tree)
        kept, priced = self.kept_tensors(tree, places, segment_of)
        if kept:
            return {layer: where for _, here in priced for layer, where in here.items()}
        located: dict[int, tuple[Place, Partition]] = {}
        for index, segment in enumerate(self.segments(tree)):
            cost, located_here = self.segment_cost(segment, places, segment_of)
            if cost is None:
                raise StcError(f"the tree cannot be laid out: segment {index} overflows a core's buffer")
            located |= located_here
        return located

    def cached(self, tree: Node) -> Cached:
        """What pricing `tree` left in this model's caches (its segments', with and without
        results kept, and its kept choice), for another model of the same network and target
        to take (`adopt`): the same costs, not priced again."""
        keys = {segment.key() for segment in self.segments(tree)}
        segments = {key: value for key, value in self._segments.items() if key[0] in keys}
        kept = {key: self._kept[key] for key in [tree.key()] if key in self._kept}
        return segments, kept

    def adopt(self, cached: Cached) -> None:
        """Takes another model's `cached` into the caches."""
        segments, kept = cached
        self._segments |= segments
        self._kept |= kept

    def kept_tensors(
        self, tree: Node, places: dict[int, Place], segment_of: dict[int, tuple[int, int]]
    ) -> tuple[frozenset[int], list[tuple[NodeCost | None, Located]]]:
        """`kept.kept_tensors`, cached on the tree (`layout` asks again what `evaluate` chose)."""
        key = tree.key()
        if key not in self._kept:
            self._kept[key] = kept_tensors(self, tree, places, segment_of)
        return self._kept[key]

    def segment_cost(
        self,
        segment: Node,
        places: dict[int, Place],
        segment_of: dict[int, int],
        kept: frozenset[int] = frozenset(),
        handed: Located | None = None,
    ) -> tuple[NodeCost | None, dict[int, tuple[Place, Partition]]]:
        """A segment's cost and each of its leaves' place and partition (cached on its
        subtree and place: nothing outside it changes them): `priced_segment`'s, on a target
        that does not share loads (`GlobalMemory.shares_loads`) the cheaper valid one of its leaves' partitions chosen
        without and with those loading the fewest weight copies (`frugal`: each leaf chooses
        its own, and their inputs may overflow a core together where the others' fit)."""
        handed = handed or {}
        kept = kept & (set(segment.leaves()) | set(handed))
        key = (segment.key(), places[id(segment)], kept, tuple(sorted(handed.items())))
        if key not in self._segments:
            modes = (False,) if self.target.global_memory.shares_loads else (False, True)
            priced = [self.priced_segment(segment, places, segment_of, frugal, kept, handed) for frugal in modes]
            valid = [
                (self.objective(c.energy(self.target), c.latency), i)
                for i, (c, _) in enumerate(priced)
                if c and c.fits(self.target)
            ]
            self._segments[key] = priced[min(valid)[1] if valid else 0]
        return self._segments[key]

    def priced_segment(
        self,
        segment: Node,
        places: dict[int, Place],
        segment_of: dict[int, int],
        frugal: bool,
        kept: frozenset[int] = frozenset(),
        handed: Located | None = None,
    ) -> tuple[NodeCost | None, dict[int, tuple[Place, Partition]]]:
        """A segment's cost and its leaves' places and partitions; no cost when a part of
        the segment alone overflows a core's buffer (`buffers`: then so does the segment).
        Each leaf takes its cheapest partition; where the segment then overflows a core,
        layers' weights are split more ways (`repair.repaired`). `kept`, `handed`: the
        results kept on chip across segments, and the places of those of earlier segments
        it reads."""

        def price(spreads: dict[int, int]) -> Priced:
            return self.spread_segment(segment, places, segment_of, spreads, frugal, kept, handed)

        def floor(spreads: dict[int, int]) -> int | None:
            """The least buffer peak `price` can give: the most bytes on a core under the
            recursion's buffer rules alone (`buffers`; with subbatches, every leaf's weights
            pinned beside them), which the segment's cost adds to and never lowers; None
            where it gives no cost."""
            leaves: dict[int, NodeCost] = {}
            part = self.buffers(segment, places, segment_of, spreads, dict(handed or {}), leaves, None, frugal, kept)
            if part is None:
                return None
            pinned = sum(cost.wgt for cost in leaves.values()) if subbatched(segment) else 0
            return int((part[0] + pinned).max(initial=0))

        return repaired(price, floor, list(segment.leaves()), self.network.layers, self.target)

    def spread_segment(
        self,
        segment: Node,
        places: dict[int, Place],
        segment_of: dict[int, int],
        spreads: dict[int, int],
        frugal: bool,
        kept: frozenset[int],
        handed: Located | None,
    ) -> Priced:
        """A segment's cost with each leaf's weights split at least `spreads` ways (no cost
        when a part of it alone overflows a core), its own leaves' places and partitions
        and their costs."""
        located: Located = dict(handed or {})
        leaves: dict[int, NodeCost] = {}
        if self.buffers(segment, places, segment_of, spreads, located, leaves, None, frugal, kept) is None:
            return None, own(located, leaves), leaves
        mesh, links = self.context.mesh, self.target.noc.link_bandwidth_bytes_per_cycle
        leaves = shared_sends(mesh, links, leaves, located, self.network.layers, self.consumers)
        charged = charged_leaves(leaves, self.target, mesh.core_count, self._charged)
        cost = self.combined(segment, charged, self.target)
        for nearer in (1, 0):  # stores held fewer slots, then none, where they overflow
            if not cost.late_stores or cost.fits(self.target):
                break
            cost = self.combined(segment, charged, self.target, late=nearer)
        if (cost.prefetched or cost.early_inputs) and not cost.fits(self.target):
            cost = self.combined(segment, charged, self.in_order)
        reloads = [(charged[layer], times) for layer, times in self.reloads(segment).items()]
        return reloaded(cost, reloads, self.target), own(located, leaves), leaves

    def buffers(
        self,
        node: Node,
        places: dict[int, Place],
        segment_of: dict[int, int],
        spreads: dict[int, int],
        located: dict[int, tuple[Place, Partition]],
        leaves: dict[int, NodeCost],
        held: bool | None = None,
        frugal: bool = False,
        kept: frozenset[int] = frozenset(),
    ) -> tuple[np.ndarray, np.ndarray] | None:
        """Prices the leaves under `node` in order into `located` and `leaves`; returns the
        node's buf and ifm per core (the recursion's buffer rules, the leaves as `held`
        counts them), or None as soon as a part of it alone needs more than a core's buffer:
        a leaf, two neighbours of a T-cut (buf_i + ifm_(i+1)), a child of an S-cut of
        several subbatches (buf + ifm) or a whole cut. The segment's buf is at least each
        of those on every core, so it overflows too and the rest is not priced (stc's
        speed-up: most of the search's trees overflow)."""
        limit = self.target.usable_memory_bytes
        held = not subbatched(node) if held is None else held
        if node.is_leaf:
            located[node.layer], cost = self.leaf(
                node.layer, places[id(node)], located, segment_of, spreads[node.layer], frugal, kept
            )
            leaves[node.layer] = cost
            buf = cost.buf + cost.wgt if held else cost.buf
            return None if int(buf.max(initial=0)) > limit else (buf, cost.ifm)
        bufs: list[np.ndarray] = []
        ifms: list[np.ndarray] = []
        for child in node.children:
            part = self.buffers(child, places, segment_of, spreads, located, leaves, held, frugal, kept)
            if part is None:
                return None
            buf, ifm = part
            if node.kind == "T" and bufs:
                joint = bufs[-1] + ifm
            elif node.kind == "S" and node.n > 1:
                joint = buf + ifm
            else:
                joint = buf
            if int(joint.max(initial=0)) > limit:
                return None
            bufs.append(buf)
            ifms.append(ifm)
        buf = (t_buffers if node.kind == "T" else s_buffers)(bufs, ifms, node.n)
        return None if int(buf.max(initial=0)) > limit else (buf, node.n * sum(ifms))

    def combined(
        self, segment: Node, charged: dict[int, NodeCost], target: HardwareTarget, late: int = PREFETCH_DEPTH
    ) -> NodeCost:
        """The segment's leaves combined by the recursion on `target` (a copy of the model's
        without DMA beside compute prices it with no weights prefetched), its results stored
        at most `late` slots late, its buffers with what is held across slots (`holds.segment_peak`)
        and, with subbatches, the room its pinned weights leave in their banks (`pinned_banks`)."""
        cost = bounded(self.node_cost(segment, self.held(segment, charged), target, top=True, late=late), target)
        buf = np.maximum(cost.buf, segment_peak(self, segment, charged, cost))
        if subbatched(segment):
            buf = buf + self.pinned.gaps(charged)
        return attrs.evolve(cost, buf=buf)

    def held(self, segment: Node, leaves: dict[int, NodeCost]) -> dict[int, NodeCost]:
        """The leaves as the buffer check sees them. In a segment every cut of which has
        one subbatch each leaf runs once, and its pieces' weights live only in its own
        phases (a weight is put with its piece): they count with its buffers (buf + wgt),
        not pinned across the segment. With subbatches, a leaf's weights are kept for
        all of them (wgt, summed over the segment)."""
        if subbatched(segment):
            return leaves
        return {
            layer: attrs.evolve(cost, buf=cost.buf + cost.wgt, wgt=np.zeros_like(cost.wgt))
            for layer, cost in leaves.items()
        }

    def node_cost(
        self,
        node: Node,
        leaves: dict[int, NodeCost],
        target: HardwareTarget,
        top: bool = False,
        late: int = PREFETCH_DEPTH,
    ) -> NodeCost:
        """A node's cost from its leaves' on `target`; a segment's (`top`) T-cut also loads its
        first leaf's inputs early from the second subbatch on and stores results up to `late`
        slots late (`beside.early_loads`)."""
        if node.is_leaf:
            return leaves[node.layer]
        children = [self.node_cost(child, leaves, target) for child in node.children]
        if node.kind == "T":
            return t_cut(children, node.n, target, wrap=top, late=late)
        return s_cut(children, node.n, stages_of(self.sibling_reads(node)), target)


def own(located: Located, leaves: dict[int, NodeCost]) -> Located:
    """The places of a segment's own leaves (not of the producers it was handed)."""
    return {layer: where for layer, where in located.items() if layer in leaves}
