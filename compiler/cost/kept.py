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

from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np

from stc.compiler.cost.layer_cost import Context
from stc.compiler.cost.leaf_pricing import Place
from stc.compiler.cost.mesh import MeshModel
from stc.compiler.cost.network import Network
from stc.compiler.cost.node_cost import NodeCost
from stc.compiler.cost.objective import Objective
from stc.compiler.cost.partition import Partition, box_volume, pieces
from stc.compiler.cost.storage import activation_storage
from stc.compiler.cost.tree import Node
from stc.compiler.targets.hardware import HardwareTarget

Located = dict[int, tuple[Place, Partition]]
Priced = list[tuple[NodeCost | None, Located]]


class SegmentPricing(Protocol):
    """What of `CostModel` the choice uses (it prices the segments and the root)."""

    network: Network
    target: HardwareTarget
    context: Context
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
    first: int = 0,
) -> list[np.ndarray]:
    """Per segment, per core: the bytes of kept results held there (module docstring),
    counted in the segments from `first` on (zero before)."""
    index = {layer: i for i, segment in enumerate(segments) for layer in segment.leaves()}
    consumers = network.consumers()
    held = [np.zeros(mesh.core_count) for _ in segments]
    alignment = target.local_memory.alignment_bytes
    for layer in kept:
        last = max(index[c] for c in consumers[layer])
        if last < first:
            continue
        spec, (place, part) = network.layers[layer], located[layer]
        box = pieces(spec, place.batch, part)
        rows, channels = box_volume(box.b, box.h, box.w), box.k[1] - box.k[0]
        result = activation_storage(rows, channels, spec.out_element_bytes, alignment)
        cores = mesh.piece_cores(place.start, part.cores)
        for i in range(max(index[layer], first), last + 1):
            held[i][cores] += network.batch // place.batch * result
    return held


def keep_where_cheaper(
    producers: Sequence[tuple[int, int]],
    price: Callable[[frozenset[int], Priced, int], Priced | None],
    value: Callable[[Priced], float],
) -> tuple[frozenset[int], Priced | None]:
    """The boundary tensors kept (`module docstring`), and the segments priced with them:
    `producers` are the boundary layers with their segments' indices, `price(kept, base,
    first)` prices the segments from `first` on with those kept, the ones before taken from
    `base` (a tensor changes no segment before its producer's; None where a segment
    overflows, its held bytes counted), `value` is the objective of the priced segments."""
    kept: frozenset[int] = frozenset()
    priced = price(kept, [], 0)
    if priced is None:
        return kept, None
    best = value(priced)
    for producer, first in producers:
        trial = kept | {producer}
        option = price(trial, priced, first)
        if option is None or (cost := value(option)) >= best:
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

    def value(priced: Priced) -> float:
        root = model.root(tree, [cost for cost, _ in priced])  # pyright: ignore[reportArgumentType]
        return model.objective(root.energy(model.target), root.latency)

    def price(kept: frozenset[int], base: Priced, first: int) -> Priced | None:
        return with_kept(model, tree, places, segment_of, kept, base[:first])

    boundaries = [(producer, segment_of[producer][0]) for producer in producers]
    kept, priced = keep_where_cheaper(boundaries, price, value)
    return (kept, priced) if kept and priced else (frozenset(), [])


def with_kept(
    model: SegmentPricing,
    tree: Node,
    places: dict[int, Place],
    segment_of: dict[int, tuple[int, int]],
    kept: frozenset[int],
    before: Sequence[tuple[NodeCost | None, Located]] = (),
) -> Priced | None:
    """Every segment priced with the results of `kept` held on chip for later segments (in
    order: each takes the places of those it reads from the segments before), the first
    ones as in `before` (priced with the same of `kept` produced in them); None where a
    segment after those, with what it holds of them, overflows a core (the segments after
    the first that does are not priced: what a segment holds is produced in it or before)."""
    network, segments = model.network, model.segments(tree)
    priced: Priced = list(before)
    located: Located = {layer: where for _, here in priced for layer, where in here.items()}
    limit = model.target.usable_memory_bytes
    for index in range(len(priced), len(segments)):
        segment = segments[index]
        reads = {producer for layer in segment.leaves() for producer in network.layers[layer].producers}
        handed = {producer: located[producer] for producer in kept & reads if producer in located}
        cost, here = model.segment_cost(segment, places, segment_of, kept, handed)
        if cost is None:
            return None
        priced.append((cost, here))
        located |= here
        placed = frozenset(layer for layer in kept if layer in located)
        held = held_bytes(network, segments, located, placed, model.context.mesh, model.target, len(before))[index]
        if int((cost.buf + cost.wgt + held).max()) > limit:
            return None
    return priced
