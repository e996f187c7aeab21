"""
A tree's root over its segments (`CostModel.root`: a T-cut of one subbatch, no early loads
or late stores at that level) priced for its objective alone, and priced again from the
first segment that changed: keep's choice (`kept.py`) prices one tree once per boundary
tensor tried, each trial changing only the segments from the tensor's producer's on.

On a target whose DMA overlaps compute the root runs each segment's first run after the
other, a segment's first-slot weights (`head_dram`) loaded in the one of the
PREFETCH_DEPTH slots before it where that shortens the run most, if any
(`recursion.prefetching_t_cut`). A segment added changes only the last PREFETCH_DEPTH slots
filled, so the chain keeps the slots and that window after each segment, and the running
sums of the work and weights: a list of segments whose first k are the same objects
resumes after the k-th. Every figure is the same float as `t_cut`'s
(`tests/unit/test_cost_root_chain.py`).

    chain = RootChain.of(costs, target)
    chain = RootChain.of(trial, target, chain)   # resumed where trial first differs
    chain.value(objective, target)
"""

from __future__ import annotations

import math

import attrs
import numpy as np

from stc.compiler.cost.node_cost import NodeCost
from stc.compiler.cost.objective import Objective
from stc.compiler.cost.recursion import PREFETCH_DEPTH
from stc.compiler.targets.cost_units import Work, dma_cycles, energy_pj
from stc.compiler.targets.hardware import HardwareTarget

Window = tuple[np.ndarray, np.ndarray]
"""Cycles and DRAM bytes of the last PREFETCH_DEPTH slots filled (fewer at the start)."""


@attrs.define(eq=False)
class RootChain:
    """The root's first run over `costs`, slot by slot, and what resuming it needs."""

    costs: tuple[NodeCost, ...]
    slots: np.ndarray
    """Cycles of each slot of the first run, the prefetched weights included."""
    dram: np.ndarray
    steady: list[np.ndarray]
    """Per segment, its slots' cycles with the weights on chip."""
    ends: list[int]
    """Slots filled after each segment."""
    windows: list[Window]
    """The window after each segment, as it was then."""
    work: list[Work]
    """Σ work of the segments up to each, summed as `node_cost.total` sums it."""
    weights: list[Work]

    @staticmethod
    def of(costs: list[NodeCost], target: HardwareTarget, base: RootChain | None = None) -> RootChain:
        """The chain over `costs` (at least one), resumed from `base` after the segments
        the two share (the same objects, from the first)."""
        bandwidth = target.global_memory.bandwidth_bytes_per_cycle
        same = 0 if base is None else shared_prefix(costs, base.costs)
        size = sum(cost.slot_count for cost in costs)
        slots, dram = np.empty(size), np.empty(size)
        if base is not None and same:
            end = base.ends[same - 1]
            old = max(end - PREFETCH_DEPTH, 0)
            slots[:old], dram[:old] = base.slots[:old], base.dram[:old]
            slots[old:end], dram[old:end] = base.windows[same - 1]
            chain = RootChain(
                tuple(costs),
                slots,
                dram,
                base.steady[:same],
                base.ends[:same],
                base.windows[:same],
                base.work[:same],
                base.weights[:same],
            )
        else:
            chain = RootChain(tuple(costs), slots, dram, [], [], [], [], [])
        for cost in costs[len(chain.ends) :]:
            chain.append(cost, bandwidth)
        return chain

    def append(self, cost: NodeCost, bandwidth: float) -> None:
        """Fill the next segment's first run, its head weights prefetched where that
        shortens it most (`prefetching_t_cut`'s rule)."""
        end = self.ends[-1] if self.ends else 0
        loaded = cost.first_run()
        if end and cost.head_dram:
            hoisted = cost.prefetched_run()
            recent = slice(max(end - PREFETCH_DEPTH, 0), end)
            cycles, dram = self.slots[recent][::-1], self.dram[recent][::-1]
            longer = np.maximum(cycles, np.ceil((dram + cost.head_dram) / bandwidth))
            gains = loaded[0][0] - hoisted[0][0] - (longer - cycles)
            back = len(gains) - 1 - int(np.argmax(gains[::-1]))
            if gains[back] > 0:
                slot = end - 1 - back
                self.dram[slot] += cost.head_dram
                self.slots[slot] = max(self.slots[slot], float(math.ceil(self.dram[slot] / bandwidth)))
                loaded = hoisted
        after = end + len(loaded[0])
        self.slots[end:after], self.dram[end:after] = loaded
        own, moved = cost.profile()
        self.steady.append(np.maximum(own, np.ceil(moved / bandwidth)))
        self.ends.append(after)
        recent = slice(max(after - PREFETCH_DEPTH, 0), after)
        self.windows.append((self.slots[recent].copy(), self.dram[recent].copy()))
        self.work.append(self.work[-1] + cost.work if self.work else Work() + cost.work)
        self.weights.append(self.weights[-1] + cost.weights if self.weights else Work() + cost.weights)

    def value(self, objective: Objective, target: HardwareTarget) -> float:
        """The objective of the root's energy and latency, as `t_cut` prices them."""
        steady, first = np.concatenate(self.steady).sum(), self.slots.sum()
        latency = float(steady) + float(first - steady)
        work = self.work[-1] + self.weights[-1]
        latency = max(latency, dma_cycles(target, work.dram_bytes))
        return objective(energy_pj(target, work)["total"], latency)


def shared_prefix(costs: list[NodeCost], others: tuple[NodeCost, ...]) -> int:
    """How many segments from the first are the same objects in both."""
    same = 0
    for cost, other in zip(costs, others, strict=False):
        if cost is not other:
            break
        same += 1
    return same
