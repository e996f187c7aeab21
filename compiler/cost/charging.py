"""
A segment's leaves charged as the machine's phases of them last (`charged_leaves`): each
leaf priced alone (`leaf_pricing.py`) gets the cycles its cores spend sending its output to
its consumers in the segment, less the local copies of whole results that land in place,
and the slots the recursion (`recursion.py`) combines: with its weights loaded, without,
and with its input boxes loaded by the slot before it.
"""

from __future__ import annotations

import attrs
import numpy as np

from stc.compiler.cost.node_cost import NodeCost
from stc.compiler.targets.cost_units import dma_cycles
from stc.compiler.targets.hardware import HardwareTarget


def charged_leaves(leaves: dict[int, NodeCost], target: HardwareTarget, count: int) -> dict[int, NodeCost]:
    """Each leaf's latency as the machine's phase of it lasts: its busiest core's own
    work (DMA and compute) plus the cycles that core spends sending the leaf's output
    to its consumers in the segment (less one local copy of its whole result, which
    lands in place), and at least the leaf's DRAM bytes over the DRAM bandwidth; in the
    run that loads the weights (`weight_cycles`: what that adds) and in the others, which
    is also the run's when the slot before prefetches the weights (`head_dram`). The
    consumer whose copy lands in place neither reads nor writes it (`landed`). `count`:
    the mesh's cores."""
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
        assert cost.weight_busy is not None
        assert cost.input_busy is not None
        assert cost.input_steady is not None
        dram = cost.work.dram_bytes
        own = cost.busy + sending[layer] - in_place[layer]
        first = max(float(own.max()), float(dma_cycles(target, cost.total_work.dram_bytes)))
        later = max(float((own - cost.weight_busy).max()), float(dma_cycles(target, dram)))
        landed = sum(float(kept[lands[producer] == layer].sum()) for producer, _, _, kept in cost.sent)
        loaded = cost.work.dram_read_bytes
        rest = cost.total_work.dram_bytes - loaded
        early_first = max(float((own - cost.input_busy).max()), float(dma_cycles(target, rest)))
        steady = own - cost.weight_busy - cost.input_steady
        early_slot = max(float(steady.max()), float(dma_cycles(target, dram - loaded)))
        result[layer] = attrs.evolve(
            cost,
            work=attrs.evolve(
                cost.work,
                local_read_bytes=cost.work.local_read_bytes - int(landed),
                local_write_bytes=cost.work.local_write_bytes - int(landed),
            ),
            latency=first,
            weight_cycles=first - later,
            slots=np.array([later]),
            slot_dram=np.array([float(dram)]),
            head_dram=float(cost.weights.dram_bytes),
            head_cycles=later,
            head_layers=frozenset({layer}),
            input_dram=float(loaded),
            early_slot=early_slot,
            early_first=early_first,
        )
    return result
