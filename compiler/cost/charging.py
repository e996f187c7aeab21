"""
A segment's leaves charged as the machine's phases of them last (`charged_leaves`): each
leaf priced alone (`leaf_pricing.py`) gets the cycles its cores spend sending its output to
its consumers in the segment, less the local copies of whole results that land in place,
and the slots the recursion (`recursion.py`) combines: with its weights loaded, without,
with its input boxes loaded by a slot before it, with its output stored beside the next.
"""

from __future__ import annotations

import attrs
import numpy as np

from stc.compiler.cost.node_cost import NodeCost
from stc.compiler.targets.cost_units import dma_cycles
from stc.compiler.targets.hardware import HardwareTarget

CHARGED_MEMO = 1 << 16
"""Charged leaves a model remembers (`charged_leaves`' memo) before it forgets them all."""

Charged = dict[tuple[int, int, bytes, float], tuple[NodeCost, NodeCost]]
"""(layer, id of its priced cost, its cores' own cycles, landed bytes) -> (that cost, charged)."""


def charged_leaves(
    leaves: dict[int, NodeCost], target: HardwareTarget, count: int, memo: Charged | None = None
) -> dict[int, NodeCost]:
    """Each leaf's latency as the machine's phase of it lasts: its busiest core's own
    work (DMA and compute) plus the cycles that core spends sending the leaf's output
    to its consumers in the segment (less one local copy of its whole result, which
    lands in place), and at least the leaf's DRAM bytes over the DRAM bandwidth; in the
    run that loads the weights (`weight_cycles`: what that adds) and in the others, which
    is also the run's when the slot before prefetches the weights (`head_dram`). The
    consumer whose copy lands in place neither reads nor writes it (`landed`). `count`:
    the mesh's cores; `memo`: charged leaves of earlier segments, reused where a leaf's
    priced cost, sends and landed bytes are the same (a search's trials change few)."""
    memo = {} if memo is None else memo
    sending = {layer: np.zeros(count) for layer in leaves}
    in_place = {layer: np.zeros(count) for layer in leaves}
    lands = {layer: np.full(count, -1) for layer in leaves}
    for consumer, cost in leaves.items():
        for producer, cycles, saved, _ in cost.sent:
            sending[producer] += cycles
            lands[producer][saved > in_place[producer]] = consumer
            np.maximum(in_place[producer], saved, out=in_place[producer])
    result = {}
    for layer, cost in leaves.items():
        assert cost.busy is not None
        own = cost.busy + sending[layer] - in_place[layer]
        landed = sum(float(kept[lands[producer] == layer].sum()) for producer, _, _, kept in cost.sent)
        key = (layer, id(cost), own.tobytes(), landed)
        known = memo.get(key)
        if known is None or known[0] is not cost:
            if len(memo) >= CHARGED_MEMO:
                memo.clear()
            known = memo[key] = (cost, charged(layer, cost, own, landed, target))
        result[layer] = known[1]
    return result


def charged(layer: int, cost: NodeCost, own: np.ndarray, landed: float, target: HardwareTarget) -> NodeCost:
    """One leaf charged (`charged_leaves`): `own`, its cores' cycles in the run that loads
    the weights; `landed`, the bytes of its input that land in place."""
    modes = charged_slots(cost, own, target)
    first, later = modes[0]
    return attrs.evolve(
        cost,
        work=attrs.evolve(
            cost.work,
            local_read_bytes=cost.work.local_read_bytes - int(landed),
            local_write_bytes=cost.work.local_write_bytes - int(landed),
        ),
        latency=first,
        weight_cycles=first - later,
        slots=np.array([later]),
        slot_dram=np.array([float(cost.work.dram_bytes)]),
        head_dram=float(cost.weights.dram_bytes),
        head_cycles=later,
        head_layers=frozenset({layer}),
        head_wgt=cost.wgt,
        input_dram=float(cost.work.dram_read_bytes),
        modes=modes,
    )


MODE_BITS = np.array([[0, 0], [1, 0], [0, 1], [1, 1]])
"""Per mode (`NodeCost.modes`): whether a slot before loads the input boxes, whether the
next slot stores the output."""


def charged_slots(cost: NodeCost, own: np.ndarray, target: HardwareTarget) -> tuple[tuple[float, float], ...]:
    """A leaf's slot in the run that loads the weights and in the others (`own`: per core,
    the former's cycles), in each mode: without its input boxes' DMA (bit 1: a slot before
    loads them), without its output's store (bit 2: the next slot stores it); each at
    least its DRAM bytes left over the DRAM bandwidth."""
    assert cost.weight_busy is not None
    assert cost.input_busy is not None
    assert cost.input_steady is not None
    assert cost.store_busy is not None
    assert cost.store_steady is not None
    runs = np.stack([own, own - cost.weight_busy])
    inputs = np.stack([cost.input_busy, cost.input_steady])
    stores = np.stack([cost.store_busy, cost.store_steady])
    busiest = (runs - MODE_BITS[:, 0, None, None] * inputs - MODE_BITS[:, 1, None, None] * stores).max(axis=2)
    total, dram = cost.total_work.dram_bytes, cost.work.dram_bytes
    read, store = cost.work.dram_read_bytes, int(cost.store_dram)
    return tuple(
        (
            max(float(first), float(dma_cycles(target, total - loads * read - stores_ * store))),
            max(float(steady), float(dma_cycles(target, dram - loads * read - stores_ * store))),
        )
        for (first, steady), (loads, stores_) in zip(busiest.tolist(), MODE_BITS.tolist(), strict=True)
    )
