"""
Sets of phases kept as ranges, and the local memory a core uses over phases as a step
function, so that a storage block put at phase 2**40, or over phases 0 to 10**8, costs
what one phase costs: every query is a binary search plus the pieces it overlaps.

    >>> union(((0, 3),), ((4, 9), (12, 12)))
    ((0, 9), (12, 12))
    >>> use = MemoryUse()
    >>> use.add(0, 10**8, 64)
    >>> use.first_above(5, 7, 0), use.at(10**8 + 1)
    ((5, 64), 0)
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator

PhaseRange = tuple[int, int]
"""The first and the last phase of a range, both included."""

Ranges = tuple[PhaseRange, ...]
"""Ranges in order, disjoint and not adjacent (`union` keeps them so)."""


def union(*sets: Ranges) -> Ranges:
    merged: list[PhaseRange] = []
    for first, last in sorted(r for ranges in sets for r in ranges):
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return tuple(merged)


def intersection(a: Ranges, b: Ranges) -> Ranges:
    common: list[PhaseRange] = []
    i = j = 0
    while i < len(a) and j < len(b):
        first, last = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if first <= last:
            common.append((first, last))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return tuple(common)


def difference(a: Ranges, b: Ranges) -> Ranges:
    """The phases of `a` that are not in `b`."""
    left: list[PhaseRange] = []
    for first, last in a:
        for cut_first, cut_last in intersection(((first, last),), b):
            if cut_first > first:
                left.append((first, cut_first - 1))
            first = cut_last + 1
        if first <= last:
            left.append((first, last))
    return tuple(left)


def holds(ranges: Ranges, phase: int) -> bool:
    index = bisect.bisect_right(ranges, phase, key=lambda r: r[0]) - 1
    return index >= 0 and ranges[index][1] >= phase


def format_ranges(ranges: Ranges) -> str:
    """`0 to 3, 5`."""
    return ", ".join(str(first) if first == last else f"{first} to {last}" for first, last in ranges)


class MemoryUse:
    """The bytes in use on one core over phases: `used[i]` from phase `starts[i]` up to the
    next start, none before the first. Neighbouring pieces never hold the same bytes."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.used: list[int] = []

    def at(self, phase: int) -> int:
        index = bisect.bisect_right(self.starts, phase) - 1
        return self.used[index] if index >= 0 else 0

    def add(self, first: int, last: int, size: int) -> None:
        """Add `size` bytes (remove, if negative) over phases `first` to `last`."""
        begin, end = self.cut(first), self.cut(last + 1)
        for index in range(begin, end):
            self.used[index] += size
        self.join(end)
        self.join(begin)

    def cut(self, phase: int) -> int:
        """The index of a piece that starts at `phase`, made if there is none."""
        index = bisect.bisect_left(self.starts, phase)
        if index == len(self.starts) or self.starts[index] != phase:
            self.starts.insert(index, phase)
            self.used.insert(index, self.used[index - 1] if index else 0)
        return index

    def join(self, index: int) -> None:
        """Drop the piece at `index` if it holds what the one before it (or nothing) holds."""
        if index < len(self.starts) and self.used[index] == (self.used[index - 1] if index else 0):
            del self.starts[index], self.used[index]

    def first_above(self, first: int, last: int, limit: int) -> tuple[int, int] | None:
        """The first phase from `first` to `last` with more than `limit` bytes in use, and
        those bytes; None if there is none."""
        before = bisect.bisect_right(self.starts, first) - 1
        if before >= 0 and self.used[before] > limit:
            return first, self.used[before]
        for index in range(before + 1, bisect.bisect_right(self.starts, last)):
            if self.used[index] > limit:
                return self.starts[index], self.used[index]
        return None

    def peak(self) -> int:
        return max(self.used, default=0)

    def pieces(self) -> Iterator[tuple[PhaseRange, int]]:
        """Each range of phases with some bytes in use, and those bytes."""
        for index, (start, used) in enumerate(zip(self.starts, self.used, strict=True)):
            if used and index + 1 < len(self.starts):
                yield (start, self.starts[index + 1] - 1), used
