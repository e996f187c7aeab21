"""
Tensors kept on chip across segments: a result a later segment reads stays in the local
memory of its producer's cores (`st.keep`) until the consumer's phase, which takes its
boxes from there over the NoC, instead of a DRAM store and load.

- The producer's leaf stores nothing (its output goes on chip); each consumer's leaf prices
  the input as an on-chip one (`Placed.kept`), its producer cores' sends charged to the
  consumer's slot, where the machine makes them.
- Held: every run's result of the producer, on its cores, in each segment from the
  producer's to its last consumer's (`held_bytes`; the lowering frees each run's result at
  its consumer's phase, so this is at least what the machine holds).
- Chosen by the rule "keep where it fits and is cheaper" (`keep_where_cheaper`): the
  boundary tensors one by one in layer order, each kept when every segment still fits its
  cores with what is held and the tree's cost falls.

    kept, priced = kept_tensors(model, tree, places, segment_of)   # CostModel.evaluate's
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

import attrs
import numpy as np

from stc.compiler.cost.layer_cost import Context
from stc.compiler.cost.leaf_pricing import Place
from stc.compiler.cost.mesh import MeshModel
from stc.compiler.cost.network import Layer, Network
from stc.compiler.cost.node_cost import NodeCost
from stc.compiler.cost.objective import Objective
from stc.compiler.cost.partition import Partition, box_volume, pieces
from stc.compiler.cost.root_chain import RootChain
from stc.compiler.cost.storage import activation_storage
from stc.compiler.cost.tree import Node
from stc.compiler.targets.hardware import HardwareTarget

Located = dict[int, tuple[Place, Partition]]
Priced = list[tuple[NodeCost | None, Located]]
Base = tuple[frozenset[int], Priced]
"""Tensors kept and the segments priced with them."""


class SegmentPricing(Protocol):
    """What of `CostModel` the choice uses (it prices the segments and the root)."""

    network: Network
    target: HardwareTarget
    context: Context
    consumers: list[set[int]]
    objective: Objective
    keep: bool

    def segments(self, tree: Node) -> list[Node]: ...

    def root(self, tree: Node, costs: list[NodeCost]) -> NodeCost: ...

    def segment_cost(
        self,
        segment: Node,
        places: dict[int, Place],
        segment_of: dict[int, tuple[int, int]],
        kept: frozenset[int],
        handed: Located | None,
    ) -> tuple[NodeCost | None, Located]: ...


def boundary_producers(network: Network, segments: Sequence[Node]) -> list[int]:
    """The layers (in order) whose result only later segments or their own read, some a
    later one, and which are no network output: those a segment boundary may keep."""
    index = {layer: i for i, segment in enumerate(segments) for layer in segment.leaves()}
    consumers = network.consumers()
    result = []
    for layer in sorted(index):
        readers = consumers[layer]
        if network.layers[layer].is_output or any(c not in index or index[c] < index[layer] for c in readers):
            continue
        if any(index[c] > index[layer] for c in readers):
            result.append(layer)
    return result


def held_bytes(
    network: Network,
    segments: Sequence[Node],
    located: Located,
    kept: frozenset[int],
    mesh: MeshModel,
    target: HardwareTarget,
) -> list[np.ndarray]:
    """Per segment, per core: the bytes of kept results held there (module docstring)."""
    index = {layer: i for i, segment in enumerate(segments) for layer in segment.leaves()}
    consumers = network.consumers()
    held = [np.zeros(mesh.core_count) for _ in segments]
    for layer in kept:
        cores, runs = held_runs(network, layer, located[layer], mesh, target)
        for i in range(index[layer], max(index[c] for c in consumers[layer]) + 1):
            held[i][cores] += runs
    return held


def held_runs(
    network: Network, layer: int, where: tuple[Place, Partition], mesh: MeshModel, target: HardwareTarget
) -> tuple[np.ndarray, np.ndarray]:
    """A kept layer's cores and the bytes each holds of its results (every run's)."""
    place, part = where
    result = result_bytes(network.layers[layer], place.batch, part, target.local_memory.alignment_bytes)
    return mesh.piece_cores(place.start, part.cores), network.batch // place.batch * result


@functools.lru_cache(maxsize=1 << 14)
def result_bytes(layer: Layer, batch: int, part: Partition, alignment: int) -> np.ndarray:
    """Per piece of the partition, the bytes of its result in local memory (cached:
    callers must not write to the array)."""
    box = pieces(layer, batch, part)
    rows, channels = box_volume(box.b, box.h, box.w), box.k[1] - box.k[0]
    return activation_storage(rows, channels, layer.out_element_bytes, alignment)


@attrs.frozen
class SegmentReads:
    """What keep's trials ask of a tree's segments, worked out once for all of them."""

    reads: tuple[frozenset[int], ...]
    """Per segment, the layers its leaves read."""
    seen: tuple[frozenset[int], ...]
    """Per segment, its leaves and the layers they read."""
    last: dict[int, int]
    """Per layer a later one reads, the segment of its last reader."""

    @staticmethod
    def of(network: Network, segments: Sequence[Node]) -> SegmentReads:
        leaves = [frozenset(segment.leaves()) for segment in segments]
        reads = tuple(frozenset(p for layer in here for p in network.layers[layer].producers) for here in leaves)
        last: dict[int, int] = {}
        for index, read in enumerate(reads):
            last |= dict.fromkeys(read, index)  # segments in order: the last reader's wins
        return SegmentReads(reads, tuple(here | read for here, read in zip(leaves, reads, strict=True)), last)


def keep_where_cheaper(
    producers: Sequence[tuple[int, int]],
    price: Callable[[frozenset[int], Base, int], Priced | None],
    value: Callable[[Priced, Priced], float],
) -> tuple[frozenset[int], Priced | None]:
    """The boundary tensors kept (`module docstring`), and the segments priced with them:
    `producers` are the boundary layers with their segments' indices, `price(kept, base,
    first)` prices the segments from `first` on with those kept, the ones before taken from
    `base` (the tensors kept so far and their segments: a tensor changes no segment before
    its producer's; None where a segment overflows, its held bytes counted), `value(priced,
    base)` is the objective of the priced segments (`base`: those they were priced from)."""
    kept: frozenset[int] = frozenset()
    priced = price(kept, (kept, []), 0)
    if priced is None:
        return kept, None
    best = value(priced, priced)
    for producer, first in producers:
        trial = kept | {producer}
        option = price(trial, (kept, priced), first)
        if option is None or (cost := value(option, priced)) >= best:
            continue
        kept, priced, best = trial, option, cost
    return kept, priced


def kept_tensors(
    model: SegmentPricing, tree: Node, places: dict[int, Place], segment_of: dict[int, tuple[int, int]]
) -> tuple[frozenset[int], Priced]:
    """The tensors between the tree's segments kept on chip (`keep_where_cheaper`; none on
    a target with a phase limit, whose segments start steps of their own), and the
    segments priced with them (empty when none is kept)."""
    segments = model.segments(tree)
    steps = model.target.max_phases is not None
    producers = boundary_producers(model.network, segments) if model.keep and not steps else []
    if not producers:
        return frozenset(), []

    chains: dict[int, tuple[Priced, RootChain]] = {}
    """The root priced over each list of segments valued (by id, the list kept alive)."""

    def value(priced: Priced, base: Priced) -> float:
        costs: list[NodeCost] = [cost for cost, _ in priced]  # pyright: ignore[reportAssignmentType]
        if not model.target.global_memory.dma_overlaps_compute:
            root = model.root(tree, costs)
            return model.objective(root.energy(model.target), root.latency)
        chain = RootChain.of(costs, model.target, chains[id(base)][1] if id(base) in chains else None)
        chains[id(priced)] = (priced, chain)
        return chain.value(model.objective, model.target)

    reads = SegmentReads.of(model.network, segments)

    def price(kept: frozenset[int], base: Base, first: int) -> Priced | None:
        return with_kept(model, tree, places, segment_of, kept, base, first, reads)

    boundaries = [(producer, segment_of[producer][0]) for producer in producers]
    kept, priced = keep_where_cheaper(boundaries, price, value)
    return (kept, priced) if kept and priced else (frozenset(), [])


def with_kept(
    model: SegmentPricing,
    tree: Node,
    places: dict[int, Place],
    segment_of: dict[int, tuple[int, int]],
    kept: frozenset[int],
    base: Base = (frozenset(), []),
    first: int = 0,
    reads: SegmentReads | None = None,
) -> Priced | None:
    """Every segment priced with the results of `kept` held on chip for later segments (in
    order: each takes the places of those it reads from the segments before); the first
    `first` as in `base` (other tensors kept and their segments), and so is each later one
    that holds and reads the same of both's kept results, those it reads placed as there
    (its cost's key is the same, `CostModel.segment_cost`); None where a segment after the
    first `first`, with what it holds of them, overflows a core (the segments after the
    first that does are not priced: what a segment holds is produced in it or before);
    `reads`: the tree's, if worked out already."""
    network, segments = model.network, model.segments(tree)
    reads = reads or SegmentReads.of(network, segments)
    was, before = base
    priced: Priced = list(before[:first])
    located: Located = {layer: where for _, here in priced for layer, where in here.items()}
    limit = model.target.usable_memory_bytes
    mesh = model.context.mesh
    moved: set[int] = set()
    """Layers placed or partitioned otherwise than in `base`."""
    held = np.zeros(mesh.core_count)
    """Per core, the bytes of kept results held in the segment priced (`held_bytes`)."""
    leaving: dict[int, list[tuple[np.ndarray, np.ndarray]]] = defaultdict(list)
    """Per segment, the cores and bytes of the kept results last held in it."""

    def hold(layers: Iterable[int]) -> None:
        for layer in layers:
            last = reads.last[layer]
            if last < first:
                continue
            cores, runs = held_runs(network, layer, located[layer], mesh, model.target)
            held[cores] += runs
            leaving[last].append((cores, runs))

    hold(kept & located.keys())
    for index in range(first, len(segments)):
        seen, read = reads.seen[index], reads.reads[index]
        if index < len(before) and kept & seen == was & seen and not moved & kept & read:
            cost, here = before[index]
        else:
            handed = {producer: located[producer] for producer in kept & read if producer in located}
            cost, here = model.segment_cost(segments[index], places, segment_of, kept, handed)
            if cost is None:
                return None
            if index < len(before):
                moved |= {layer for layer, where in here.items() if before[index][1].get(layer) != where}
        located |= here
        hold(kept & here.keys())
        assert cost is not None
        if int((cost.buf + cost.wgt + held).max()) > limit:
            return None
        same = not held.any() if cost.held is None else np.array_equal(held, cost.held)
        if not same:  # the room the root's prefetches leave
            cost = attrs.evolve(cost, held=held.copy() if held.any() else None)
        priced.append((cost, here))
        for cores, runs in leaving.pop(index, []):
            held[cores] -= runs
    return priced
