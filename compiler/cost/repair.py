"""
A segment whose leaves, each on its cheapest partition, overflow a core's buffer, repaired
by splitting the weights of its layers more ways (`CostModel.priced_segment`): a layer is
priced again with only the partitions that split its output channels (and weights) twice as
many ways as now (its `spread`).

- Heaviest first: each round spreads the layer with the most weight bytes on the fullest
  core, until the segment fits, no layer can split more, or REPAIR_PATIENCE rounds in a row
  have not lowered the peak.
- Steepest, where that gives up: from the leaves' own partitions again, each round spreads
  the layer (of the STEEPEST_WIDTH with the most weight bytes on the fullest core) whose
  spread lowers the segment's peak the most, while one does. Spreading the heaviest layer may cost more buffer than it
  saves: on 64 cores a layer's pieces then hold twice the images (ResNet-50 v1 b64's
  conv334 … avgpool362 under `T 64/2`, whose heaviest layer conv343 is better left alone).

Each spread of the layers is priced once per segment (`remembered`): steepest's trials
retrace some of heaviest-first's spreads. A trial is priced only while its floor (the
recursion's buffer rules alone, `CostModel.priced_segment`'s `floor`: never above its
peak) could still beat the best trial priced so far, which picks the same layer as pricing
all of them.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from stc.compiler.cost.kept import Located
from stc.compiler.cost.network import Layer
from stc.compiler.cost.node_cost import NodeCost
from stc.compiler.targets.hardware import HardwareTarget

REPAIR_PATIENCE = 8
"""Rounds of weight splitting without a lower buffer peak after which heaviest-first gives up."""

STEEPEST_WIDTH = 4
"""Layers a round of the steepest repair tries: each trial prices the whole segment, so
trying every layer made a round O(layers²) (ResNet-50 v1 b64's greedy start: 3,000
pricings of a 70-layer segment, 30 CPU s each)."""

Priced = tuple[NodeCost | None, Located, dict[int, NodeCost]]
"""A segment's cost (None: a part of it alone overflows a core), its leaves' places and
partitions, and their costs."""


def repaired(
    price: Callable[[dict[int, int]], Priced],
    floor: Callable[[dict[int, int]], int | None],
    layers: list[int],
    network: list[Layer],
    target: HardwareTarget,
) -> tuple[NodeCost | None, Located]:
    """The segment of `layers` priced by `price` (given each layer's spread), repaired
    where it overflows (the module docstring); `floor`: a spread's buffer peak at least
    (None where `price` gives no cost)."""
    price = remembered(price)
    start = price(dict.fromkeys(layers, 1))
    cost, located = heaviest_first(price, layers, start, network, target)
    first = start[0]
    if cost is not None and cost.fits(target) or first is None or overfull(first, target):
        return cost, located
    return steepest(price, floor, layers, start, network, target)


def remembered(price: Callable[[dict[int, int]], Priced]) -> Callable[[dict[int, int]], Priced]:
    """`price`, each spread priced once (its results are not changed by the callers)."""
    seen: dict[tuple[tuple[int, int], ...], Priced] = {}

    def priced(spreads: dict[int, int]) -> Priced:
        key = tuple(sorted(spreads.items()))
        if key not in seen:
            seen[key] = price(spreads)
        return seen[key]

    return priced


def heaviest_first(
    price: Callable[[dict[int, int]], Priced],
    layers: list[int],
    start: Priced,
    network: list[Layer],
    target: HardwareTarget,
) -> tuple[NodeCost | None, Located]:
    cost, located, leaves = start
    spreads = dict.fromkeys(layers, 1)
    lowest, stalled = float("inf"), 0
    while cost is not None and not cost.fits(target) and not overfull(cost, target):
        peak = cost.buffer_peak()
        lowest, stalled = min(lowest, peak), 0 if peak < lowest else stalled + 1
        splittable = spreadable(cost, located, leaves, network)
        if stalled == REPAIR_PATIENCE or not splittable:
            break
        fullest = int(np.argmax(cost.buf + cost.wgt))
        heaviest = max(splittable, key=lambda layer: (leaves[layer].wgt[fullest], -layer))
        spreads[heaviest] = 2 * located[heaviest][1].pk
        cost, located, leaves = price(spreads)
    return cost, located


def steepest(
    price: Callable[[dict[int, int]], Priced],
    floor: Callable[[dict[int, int]], int | None],
    layers: list[int],
    start: Priced,
    network: list[Layer],
    target: HardwareTarget,
) -> tuple[NodeCost | None, Located]:
    cost, located, leaves = start
    assert cost is not None
    spreads = dict.fromkeys(layers, 1)
    while not cost.fits(target):
        fullest = int(np.argmax(cost.buf + cost.wgt))
        heaviest = sorted(
            spreadable(cost, located, leaves, network), key=lambda layer: (-leaves[layer].wgt[fullest], layer)
        )
        floors = []
        for layer in heaviest[:STEEPEST_WIDTH]:
            trial = spreads | {layer: 2 * located[layer][1].pk}
            if (least := floor(trial)) is not None:
                floors.append((least, layer, trial))
        best: tuple[int, int, dict[int, int], Priced] | None = None
        for least, layer, trial in sorted(floors, key=lambda each: each[:2]):
            if best is not None and (least, layer) > best[:2]:
                break
            priced = price(trial)
            assert priced[0] is not None
            if best is None or (priced[0].buffer_peak(), layer) < best[:2]:
                best = (priced[0].buffer_peak(), layer, trial, priced)
        if best is None or best[0] >= cost.buffer_peak():
            break
        _, _, spreads, (cost, located, leaves) = best
        assert cost is not None
    return cost, located


def spreadable(cost: NodeCost, located: Located, leaves: dict[int, NodeCost], network: list[Layer]) -> list[int]:
    """The layers with weights on the fullest core whose output channels can split more
    ways on their cores."""
    fullest = int(np.argmax(cost.buf + cost.wgt))
    return [
        layer
        for layer, (place, part) in located.items()
        if leaves[layer].wgt[fullest] > 0 and part.pk < min(network[layer].out_channels, place.count)
    ]


def overfull(cost: NodeCost, target: HardwareTarget) -> bool:
    """Whether the buffers without the weights already exceed a core: splitting the
    weights cannot repair it."""
    return int(cost.buf.max(initial=0)) > target.usable_memory_bytes
