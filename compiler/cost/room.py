"""
Room for weights prefetched across segments. A tree's segments are each checked against a
core's buffer alone, so the weights a segment's first slot loads may be prefetched by a slot
of an earlier segment only where they fit on every core beside the peak of that segment and
of every one after it up to theirs, with the results kept on chip across them (`kept.py`)
and the weights already prefetched across those (`lowering.prefetch_data` holds them there,
and `st-apply` refuses a core that overflows). A segment's peak stands for each of its
slots: the check never passes what the lowering cannot hold, and may refuse a slot that
would have had room.

    room = Room.of(costs, target)
    slot, segment = room.place(gains, first, ends, index, cost.head_wgt)  # held there if gains[slot] > 0
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

import attrs
import numpy as np

from stc.compiler.cost.node_cost import NodeCost
from stc.compiler.targets.hardware import HardwareTarget


def free_beside(cost: NodeCost, target: HardwareTarget) -> np.ndarray:
    """Per core, the bytes free beside a segment's peak and the kept results it holds."""
    free = target.usable_memory_bytes - (cost.buf + cost.wgt)
    return free if cost.held is None else free - cost.held


@attrs.define(eq=False)
class Room:
    """Per segment and core, the bytes free beside the segment's peak and what is held
    across it; per segment, at most the least of them (a quick check that all have room)."""

    free: np.ndarray
    least: np.ndarray

    @staticmethod
    def empty(count: int, cores: int) -> Room:
        return Room(np.empty((count, cores)), np.empty(count))

    @staticmethod
    def of(costs: list[NodeCost], target: HardwareTarget) -> Room:
        room = Room.empty(len(costs), len(costs[0].buf))
        for index, cost in enumerate(costs):
            free = free_beside(cost, target)
            room.enter(index, free, free.min())
        return room

    def enter(self, index: int, free: np.ndarray, least: float) -> None:
        """Segment `index`'s own room (`free_beside`, and its least), nothing held across
        it yet."""
        self.free[index], self.least[index] = free, least

    def place(
        self, gains: np.ndarray, first: int, ends: Sequence[int], index: int, weights: np.ndarray | None
    ) -> tuple[int, int]:
        """The slot into which segment `index`'s first-slot `weights` are prefetched, of the
        slots `first`, first + 1, … whose `gains` these are (`ends`: where each segment's
        slots end): the most gain, the first (farthest) of equals, among the slots from which
        they fit (the others' gains set to 0); held from there when its gain is positive. The
        slot (an index into `gains`) and its segment."""
        slot = int(np.argmax(gains))
        owner = bisect_right(ends, first + slot)
        if gains[slot] > 0 and (earliest := self.earliest(owner, index, weights)) > owner:
            gains[: ends[earliest - 1] - first] = 0
            slot = int(np.argmax(gains))
            owner = bisect_right(ends, first + slot)
        if gains[slot] > 0:
            self.hold(owner, index, weights)
        return slot, owner

    def earliest(self, start: int, index: int, weights: np.ndarray | None) -> int:
        """The earliest segment from `start` on from which `weights` held up to segment
        `index` fit every core of every segment they are held across."""
        if weights is None:
            return start
        most = float(weights.max(initial=0))
        for owner in range(index - 1, start - 1, -1):
            if self.least[owner] < most and (self.free[owner] < weights).any():
                return owner + 1
        return start

    def hold(self, owner: int, index: int, weights: np.ndarray | None, sign: int = 1) -> None:
        """Take `weights` from segments `owner` up to `index` (`sign` -1: give them back)."""
        if weights is not None and owner < index:
            self.free[owner:index] -= sign * weights
            self.least[owner:index] -= sign * float(weights.max(initial=0))
