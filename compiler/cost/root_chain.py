"""
A tree's root over its segments (`CostModel.root`: a T-cut of one subbatch, no early loads
or late stores at that level) priced for its objective alone, and priced again from the
first segment that changed: keep's choice (`kept.py`) prices one tree once per boundary
tensor tried, each trial changing only the segments from the tensor's producer's on.

On a target whose DMA overlaps compute the root runs each segment's first run after the
other, a segment's first-slot weights (`head_dram`) loaded in the one of the
PREFETCH_DEPTH slots before it where that shortens the run most, if any
(`recursion.prefetching_t_cut`). A segment added changes its own slots and at most one
earlier one, so the chain keeps the slots, the earlier slot each segment changed as it was
before, and the running sums of the work and weights: a list of segments whose first k
are the same objects resumes after the k-th. Every figure is the same float as `t_cut`'s
(`tests/unit/test_cost_root_chain.py`).

    chain = RootChain.of(costs, target)
    chain = RootChain.of(trial, target, chain)   # resumed where trial first differs
    chain.value(objective, target)
"""

from __future__ import annotations

import math
from operator import add, attrgetter

import attrs
import numpy as np

from stc.compiler.cost.node_cost import NodeCost
from stc.compiler.cost.objective import Objective
from stc.compiler.cost.recursion import PREFETCH_DEPTH
from stc.compiler.cost.room import Room, free_beside
from stc.compiler.targets.cost_units import Work, dma_cycles, energy_pj
from stc.compiler.targets.hardware import HardwareTarget

Window = tuple[np.ndarray, np.ndarray]
"""Cycles and DRAM bytes of some slots."""

Change = tuple[int, float, float, int]
"""A slot, its cycles and DRAM bytes before a change, and its segment."""

Sums = tuple[float, ...]
"""A `Work`'s fields, summed field by field as `Work.__add__` sums them."""

fields_of = attrgetter(*(field.name for field in attrs.fields(Work)))
"""A `Work`'s fields as a tuple (`attrs.astuple`'s, without its generic walk)."""

NONE = fields_of(Work())


@attrs.frozen
class Part:
    """What the chain takes of one segment's cost (callers must not write to the arrays)."""

    loaded: Window
    """Cycles and DRAM bytes of each slot of its first run (`NodeCost.first_run`)."""
    hoisted: Window | None
    """The same with its head weights prefetched by a slot before, if it has any."""
    steady: np.ndarray
    """Its slots' cycles with the weights on chip."""
    work: Sums
    weights: Sums
    free: np.ndarray
    """Per core, the bytes free beside its peak (`room.free_beside`)."""
    least: float

    @staticmethod
    def of(cost: NodeCost, target: HardwareTarget) -> Part:
        own, moved = cost.profile()
        hoisted = cost.prefetched_run() if cost.head_dram else None
        steady = np.maximum(own, np.ceil(moved / target.global_memory.bandwidth_bytes_per_cycle))
        work, weights = fields_of(cost.work), fields_of(cost.weights)
        free = free_beside(cost, target)
        return Part(cost.first_run(), hoisted, steady, work, weights, free, float(free.min()))


@attrs.define(eq=False)
class RootChain:
    """The root's first run over `costs`, slot by slot, and what resuming it needs."""

    costs: tuple[NodeCost, ...]
    slots: np.ndarray
    """Cycles of each slot of the first run, the prefetched weights included."""
    dram: np.ndarray
    parts: list[Part]
    ends: list[int]
    """Slots filled after each segment."""
    changes: list[Change | None]
    """Per segment, the earlier slot its prefetch lengthened, as that slot was before."""
    work: list[Sums]
    """Σ work of the segments up to each, summed as `node_cost.total` sums it."""
    weights: list[Sums]
    room: Room
    """What each segment's cores have free beside its peak and the prefetched weights."""

    @staticmethod
    def of(costs: list[NodeCost], target: HardwareTarget, base: RootChain | None = None) -> RootChain:
        """The chain over `costs` (at least one), resumed from `base` after the segments
        the two share (the same objects, from the first); a later segment that is
        `base`'s at its place takes its part from there."""
        bandwidth = target.global_memory.bandwidth_bytes_per_cycle
        same = 0 if base is None else shared_prefix(costs, base.costs)
        size = sum(cost.slot_count for cost in costs)
        slots, dram = np.empty(size), np.empty(size)
        room = Room.empty(len(costs), len(costs[0].buf))
        chain = RootChain(tuple(costs), slots, dram, [], [], [], [], [], room)
        if base is not None and same:
            end = base.ends[same - 1]
            slots[:end], dram[:end] = base.slots[:end], base.dram[:end]
            room.free[:same], room.least[:same] = base.room.free[:same], base.room.least[:same]
            for index in reversed(range(same, len(base.changes))):  # the slots and room as they were then
                change = base.changes[index]
                if change is not None and change[0] < end:
                    slot, slots[slot], dram[slot], owner = change
                    room.hold(owner, same, base.costs[index].head_wgt, sign=-1)
            chain = RootChain(
                tuple(costs),
                slots,
                dram,
                base.parts[:same],
                base.ends[:same],
                base.changes[:same],
                base.work[:same],
                base.weights[:same],
                room,
            )
        others = base.costs if base is not None else ()
        for index in range(same, len(costs)):
            cost = costs[index]
            known = index < len(others) and others[index] is cost
            chain.append(cost, base.parts[index] if known and base is not None else Part.of(cost, target), bandwidth)
        return chain

    def append(self, cost: NodeCost, part: Part, bandwidth: float) -> None:
        """Fill the next segment's first run, its head weights prefetched where they fit
        and that shortens it most (`prefetching_t_cut`'s rule)."""
        end = self.ends[-1] if self.ends else 0
        loaded, change = part.loaded, None
        self.room.enter(len(self.ends), part.free, part.least)
        if end and part.hoisted is not None:
            first = max(end - PREFETCH_DEPTH, 0)
            cycles, dram = self.slots[first:end], self.dram[first:end]
            longer = np.maximum(cycles, np.ceil((dram + cost.head_dram) / bandwidth))
            gains = loaded[0][0] - part.hoisted[0][0] - (longer - cycles)
            slot, owner = self.room.place(gains, first, self.ends, len(self.ends), cost.head_wgt)
            if gains[slot] > 0:
                slot += first
                change = (slot, float(self.slots[slot]), float(self.dram[slot]), owner)
                self.dram[slot] += cost.head_dram
                self.slots[slot] = max(self.slots[slot], float(math.ceil(self.dram[slot] / bandwidth)))
                loaded = part.hoisted
        after = end + len(loaded[0])
        self.slots[end:after], self.dram[end:after] = loaded
        self.parts.append(part)
        self.ends.append(after)
        self.changes.append(change)
        self.work.append(tuple(map(add, self.work[-1] if self.work else NONE, part.work)))
        self.weights.append(tuple(map(add, self.weights[-1] if self.weights else NONE, part.weights)))

    def value(self, objective: Objective, target: HardwareTarget) -> float:
        """The objective of the root's energy and latency, as `t_cut` prices them."""
        steady, first = np.concatenate([part.steady for part in self.parts]).sum(), self.slots.sum()
        latency = float(steady) + float(first - steady)
        work = Work(*map(add, self.work[-1], self.weights[-1]))
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
