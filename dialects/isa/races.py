"""
Races between cores on global memory. Within a phase the cores run concurrently, in no
defined order, so two cores may touch the same global byte in one phase only if neither
writes it; otherwise what the program computes would depend on which core ran first.

NoC transfers cannot race: each core's local memory is private, a send copies its bytes
when its own core reaches it, and a receive writes when its own core reaches it, so both
sides act in their core's program order whatever order the cores run in.
"""

from __future__ import annotations

import heapq
from collections import defaultdict

import attrs
import numpy as np
from xdsl.utils.exceptions import VerifyException

from stc.dialects.isa.access import Access, shared_bytes
from stc.dialects.isa.attrs import Coord
from stc.dialects.isa.core import CoreOp, Instruction, where


@attrs.frozen
class GlobalTouch:
    """One instruction's access to global memory, where the program issues it."""

    coord: Coord
    phase: int
    index: int
    op: Instruction
    access: Access

    def __str__(self) -> str:
        verb = "writes" if self.access.writes else "reads"
        site = where(self.coord, self.phase, self.index, self.op)
        return f"{site} {verb} global bytes [{self.access.start}, {self.access.end})"


def verify_global_races(cores: list[CoreOp]) -> None:
    """Refuse a phase in which one core writes global bytes another core reads or writes."""
    phases: defaultdict[int, list[GlobalTouch]] = defaultdict(list)
    for core in cores:
        for phase, index, op in core.numbered_instructions():
            for access in op.global_accesses():
                phases[phase].append(GlobalTouch(core.coord, phase, index, op, access))
    for phase, touches in sorted(phases.items()):
        if (race := first_race(touches)) is None:
            continue
        first, second, (start, end) = race
        raise VerifyException(
            f"{first} and {second}: both touch bytes [{start}, {end}) in phase {phase}, where cores "
            "run in no defined order"
        )


def first_race(touches: list[GlobalTouch]) -> tuple[GlobalTouch, GlobalTouch, tuple[int, int]] | None:
    """
    The first two touches of different cores that share a byte, one of them a write,
    and the lowest range they share; the same whatever order the cores are listed in.
    A sweep in order of start address keeps the touches whose
    range is still open (heaps by end); only ranges that overlap have their bytes
    compared, run by run, so interleaved strided boxes that share no byte pass.
    """
    runs: dict[int, np.ndarray] = {}

    def runs_of(number: int, touch: GlobalTouch) -> np.ndarray:
        if number not in runs:
            runs[number] = touch.access.runs()
        return runs[number]

    open_reads: list[tuple[int, int, GlobalTouch]] = []
    open_writes: list[tuple[int, int, GlobalTouch]] = []
    ordered = sorted(touches, key=lambda touch: (touch.access.start, touch.coord, touch.index))
    for number, touch in enumerate(ordered):
        for heap in (open_reads, open_writes):
            while heap and heap[0][0] <= touch.access.start:
                heapq.heappop(heap)
        rivals = open_writes + open_reads if touch.access.writes else open_writes
        for _, other_number, other in rivals:
            if other.coord == touch.coord:
                continue
            if (shared := shared_bytes(runs_of(other_number, other), runs_of(number, touch))) is not None:
                return other, touch, shared
        heapq.heappush(open_writes if touch.access.writes else open_reads, (touch.access.end, number, touch))
    return None
