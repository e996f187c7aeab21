"""
The phases of the compute units. Each gets a target phase: its depth in the graph (the
longest chain of compute blocks before it) or, when the graph is deeper than the target
has phases, consecutive depths packed into phases with about the same number of units
each (`pack_levels`). The pins move it: a block runs after the compute blocks it reads
from and before those that read from it, pinned ones at their pinned phase, in a later
phase (or, when depths share phases, in no earlier one). A unit that cannot be placed in
its target phase tries the later phases, then the earlier ones, within those bounds.

When the units would fill more than `FILL` of a step's room (compute stages or local
memory over every core and phase; ResNet-50 at batch 8 on tianjicx), the plan spans
several steps: phases are counted across them (`step · max_phases + phase`), so a block
still runs after the blocks it reads from, in a later step or a later phase of its step,
and `Layers` and the commit turn the count back into a step and a phase. This is done only
when no block is placed yet (a script's pins stay in their own steps).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from stc.compiler.mapping.action_errors import describe
from stc.compiler.mapping.block_stages import input_storage
from stc.compiler.mapping.matrix import STMatrix
from stc.compiler.mapping.phase_ranges import PhaseRange, format_ranges, intersection
from stc.compiler.mapping.placement.cores import Cores
from stc.compiler.mapping.placement.errors import placement_error
from stc.compiler.mapping.placement.units import Unit, Units
from stc.dialects import task

FILL = 0.6
"""The share of a step's compute stages and local memory the placer plans to fill at
most; VGG-19 at batch 1 fills 0.54 of tianjicx's step and places in one."""


def steps_for(matrix: STMatrix, units: Units, cores: Cores) -> int:
    """The steps the units take: one, or, when nothing is placed yet and they would fill
    more than `FILL` of one step's axon stages, soma stages (two a core) or local memory,
    enough steps to fill at most that share of each."""
    span = matrix.target.max_phases
    if span is None or not spreads(matrix):
        return 1
    computing = int(cores.computes.sum())
    axon = sum(unit.kind == "axon" for unit in units) / (computing * span)
    soma = sum(unit.kind == "soma" for unit in units) / (2 * computing * span)
    memory = sum(unit.memory for unit in units) / (int(cores.capacity[cores.computes].sum()) * span)
    return max(1, math.ceil(max(axon, soma, memory) / FILL))


def spreads(matrix: STMatrix) -> bool:
    """Whether the placer may count phases on over several steps: the target has a number
    of phases and no block is placed yet."""
    return matrix.target.max_phases is not None and not matrix.places


class Run(NamedTuple):
    """A phase to try and the run of phases that look the same as it."""

    phase: int
    run: PhaseRange

    @property
    def count(self) -> int:
        return self.run[1] - self.run[0] + 1


def within(points: Sequence[int], first: int, last: int) -> Sequence[int]:
    """The points after `first` up to `last`, of points in order."""
    return points[bisect.bisect_right(points, first) : bisect.bisect_right(points, last)]


class PhasePlan:
    """The target phase of every compute unit and the phases each may take, counted over
    `steps` steps of the target's phases."""

    def __init__(self, matrix: STMatrix, units: Units, steps: int = 1):
        self.matrix = matrix
        self.units = units
        self.steps = steps
        self.producers: dict[int, list[int]] = {}
        """The compute blocks each compute block reads from (through its input buffers)."""
        self.consumers: dict[int, list[int]] = {}
        self.gap = 1
        """How many phases a block runs after the blocks it reads from, at least: 1, or 0 when
        the graph is deeper than the target has phases and consecutive depths share them."""
        self.limit = 0
        """How many phases there are: the target's, or enough for every unit after the pins."""
        self.placed: dict[int, int] = {}
        """The phase of every compute block placed so far, pinned ones included."""
        self.changes = matrix.changes()
        """By step, the phases where what the matrix holds changes (it does not while placing)."""
        self.plan()

    def plan(self) -> None:
        """Give every compute unit a target phase: its depth, packed into the target's phases,
        but no earlier than the blocks it reads from and no later than the blocks that read
        from it, pinned ones included (see `gap`)."""
        compute = [op for op in self.matrix.graph.tasks() if isinstance(op, task.ComputeBlock)]
        depth = self.depths(compute)
        free = [u for u in self.units if u.computes]
        levels = max(depth.values(), default=0) + 1  # pinned blocks count: they take phases too
        phases = (self.matrix.target.max_phases or levels) * self.steps
        counts = [int(n) for n in np.bincount([depth[u.head.task_id] for u in free], minlength=levels)]
        phase_of = list(range(levels)) if levels <= phases else pack_levels(counts, phases)
        self.gap = 1 if levels <= phases else 0
        places = self.matrix.places
        planned = {task_id: place.phase for task_id, place in places.items() if task_id in depth}
        self.placed = dict(planned)
        span = self.matrix.target.max_phases
        self.limit = span * self.steps if span else max([levels, *planned.values()]) + len(self.units) + 1
        free_units = [self.units[self.units.unit_of[op.task_id]] for op in compute if op.task_id not in places]
        for unit in free_units:
            lo, hi = self.bounds(unit, planned, consumers=False)
            if lo > hi:
                raise placement_error(self.conflict(unit, planned, "planned for"))
            unit.target_phase = planned[unit.head.task_id] = min(max(phase_of[depth[unit.head.task_id]], lo), hi)
        for unit in reversed(free_units):
            _, hi = self.bounds(unit, planned, producers=False)
            unit.target_phase = planned[unit.head.task_id] = min(unit.target_phase, hi)
        for unit in free_units:
            if not self.candidates(unit, planned):
                raise placement_error(self.conflict(unit, planned, "planned for"))

    def depths(self, compute: list[task.ComputeBlock]) -> dict[int, int]:
        """The depth of every compute block, recording who reads from whom on the way."""
        depth: dict[int, int] = {}
        for op in compute:
            self.producers[op.task_id] = producer_ids(op)
            self.consumers[op.task_id] = []
            for producer in self.producers[op.task_id]:
                self.consumers[producer].append(op.task_id)
            depth[op.task_id] = max((depth[p] + 1 for p in self.producers[op.task_id]), default=0)
        return depth

    def bounds(
        self, unit: Unit, phases: dict[int, int], producers: bool = True, consumers: bool = True
    ) -> tuple[int, int]:
        """The phases a compute unit may take given the phases of the compute blocks it reads
        from and that read from it in its step (`phases`, by block); the target's limit."""
        lo, hi = 0, self.limit - 1
        if not unit.computes:
            return lo, hi
        head = unit.head.task_id
        if producers:
            lo = max([lo] + [phases[p] + self.gap for p in self.producers[head] if self.same_step(p, unit, phases)])
        if consumers:
            hi = min([hi] + [phases[c] - self.gap for c in self.consumers[head] if self.same_step(c, unit, phases)])
        return lo, hi

    def same_step(self, task_id: int, unit: Unit, phases: dict[int, int]) -> bool:
        """Whether a compute block has a phase in `phases` and is in the unit's step."""
        if task_id not in phases:
            return False
        place = self.matrix.places.get(task_id)
        return (place.step if place is not None else self.units[self.units.unit_of[task_id]].step) == unit.step

    def candidates(self, unit: Unit, phases: dict[int, int], changes: Sequence[int] = ()) -> list[Run]:
        """The phases to try for a unit, in order: its target phase, the later ones, then the
        earlier ones, within its bounds (`phases` of the blocks around it) and pins. Phases
        in which nothing changes (in the matrix, or at `changes`, in order) look the same to
        the unit, so of each run of them only the one nearest the target phase is tried."""
        lo, hi = self.bounds(unit, phases)
        allowed = intersection(unit.fixed_phases or ((lo, hi),), ((lo, hi),))
        start = min(max(unit.target_phase, lo), hi)
        runs: list[PhaseRange] = []
        for first, last in allowed:
            cuts = {start, *within(self.changes.get(unit.step, []), first, last), *within(changes, first, last)}
            points = [first, *sorted(c for c in cuts if first < c <= last), last + 1]
            runs += [(a, b - 1) for a, b in zip(points, points[1:], strict=False)]
        later = [Run(first, (first, last)) for first, last in runs if first >= start]
        return later + [Run(last, (first, last)) for first, last in reversed(runs) if last < start]

    def conflict(self, unit: Unit, phases: dict[int, int], placed: str = "placed in") -> str:
        """Why no phase suits a compute unit: the blocks it reads from, those that read from
        it, the pins of its input storage or the target's phases."""
        head, gap = unit.head.task_id, self.gap
        lo, hi = self.bounds(unit, phases)
        fixed = unit.fixed_phases or ((lo, lo),)
        reasons: list[str] = []
        after = [p for p in self.producers[head] if self.same_step(p, unit, phases) and phases[p] + gap == lo]
        if after and (lo > fixed[-1][1] or lo > hi):
            reasons.append(f"after {self.describe_phase(after[0], phases, placed)}")
        if hi < fixed[0][0] or lo > hi:
            before = [c for c in self.consumers[head] if self.same_step(c, unit, phases) and phases[c] - gap == hi]
            if before:
                reasons.append(f"before {self.describe_phase(before[0], phases, placed)}")
            else:
                reasons.append(f"within {self.matrix.target.name}'s {self.limit} phases")
        if unit.fixed_phases is not None:
            reasons.append(f"in a phase of its pinned input storage ({format_ranges(unit.fixed_phases)})")
        order = "a later phase than" if gap else "no earlier phase than"
        return (
            f"no phase suits {describe(unit.head)}: it must run {' and '.join(reasons)}; a block runs in "
            f"{order} the blocks it reads from"
        )

    def describe_phase(self, task_id: int, phases: dict[int, int], placed: str) -> str:
        how = "pinned to" if task_id in self.matrix.places else placed
        return f"block {task_id} ({self.matrix.blocks[task_id].name}, {how} phase {phases[task_id]})"


def producer_ids(op: task.ComputeBlock) -> list[int]:
    """The compute blocks whose results `op` reads through its input buffers, each once."""
    owners = dict.fromkeys(
        value.owner for storage in input_storage(op) if isinstance(storage, task.BufferOp) for value in storage.sources
    )
    return [owner.task_id for owner in owners if isinstance(owner, task.ComputeBlock)]


def pack_levels(counts: Sequence[int], phases: int) -> list[int]:
    """The phase of each depth when there are more depths than phases: consecutive depths
    share a phase until it holds its share of the units still to come, so no phase is
    skipped and the phases hold about as many units each.

    >>> pack_levels([4, 4, 1, 1, 1, 1], 3)
    [0, 1, 2, 2, 2, 2]
    """
    phase_of: list[int] = []
    phase = held = 0
    remaining = sum(counts)
    for count in counts:
        share = (held + remaining) / (phases - phase)
        if held and held + count / 2 > share and phase < phases - 1:
            phase, held = phase + 1, 0
        phase_of.append(phase)
        held += count
        remaining -= count
    return phase_of
