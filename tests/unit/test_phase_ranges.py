"""Phase ranges and the memory in use over phases agree with the sets and sums they stand
for, drawn at random; and a range of 10**8 phases or at phase 2**40 costs what one does."""

import time

import hypothesis.strategies as hs
from hypothesis import given, settings

from stc.compiler.mapping.phase_ranges import (
    MemoryUse,
    Ranges,
    difference,
    format_ranges,
    holds,
    intersection,
    union,
)

PHASES = 40
"""The phases the sets are drawn from, small enough to compare with Python sets."""

phase_sets = hs.frozensets(hs.integers(0, PHASES - 1), max_size=PHASES)


def ranges_of(phases: frozenset[int]) -> Ranges:
    return union(tuple((p, p) for p in phases))


def phases_of(ranges: Ranges) -> set[int]:
    return {p for first, last in ranges for p in range(first, last + 1)}


def is_normal(ranges: Ranges) -> bool:
    """In order, not empty, disjoint and not adjacent."""
    return all(first <= last for first, last in ranges) and all(
        a[1] + 1 < b[0] for a, b in zip(ranges, ranges[1:], strict=False)
    )


@settings(max_examples=200, deadline=None)
@given(a=phase_sets, b=phase_sets, probe=hs.integers(-1, PHASES))
def test_set_operations_match_python_sets(a: frozenset[int], b: frozenset[int], probe: int):
    ra, rb = ranges_of(a), ranges_of(b)
    for result, expected in (
        (union(ra, rb), a | b),
        (intersection(ra, rb), a & b),
        (difference(ra, rb), a - b),
    ):
        assert is_normal(result)
        assert phases_of(result) == expected
    assert holds(ra, probe) == (probe in a)


def test_ranges_are_written_as_a_user_reads_them():
    assert format_ranges(((0, 3), (5, 5), (7, 10**8))) == "0 to 3, 5, 7 to 100000000"


changes = hs.lists(
    hs.tuples(hs.integers(0, PHASES - 1), hs.integers(0, 5), hs.integers(1, 100)),
    max_size=12,
)


@settings(max_examples=200, deadline=None)
@given(changes=changes, removed=hs.data(), query=hs.tuples(hs.integers(0, PHASES - 1), hs.integers(0, 8)))
def test_memory_use_matches_a_sum_per_phase(changes, removed: hs.DataObject, query: tuple[int, int]):
    """Adds, then some of them removed again: bytes per phase, the first phase above a
    limit and the peak are those of a plain array of sums."""
    use, sums = MemoryUse(), [0] * (PHASES + 8)
    for first, length, size in changes:
        use.add(first, first + length, size)
        for p in range(first, first + length + 1):
            sums[p] += size
    for first, length, size in removed.draw(hs.lists(hs.sampled_from(changes), unique=True)) if changes else []:
        use.add(first, first + length, -size)
        for p in range(first, first + length + 1):
            sums[p] -= size
    assert [use.at(p) for p in range(len(sums))] == sums
    assert all(a != b for a, b in zip(use.used, use.used[1:], strict=False))  # no piece twice
    first, length = query
    limit = max(sums) // 2
    above = next(((p, sums[p]) for p in range(first, first + length + 1) if sums[p] > limit), None)
    assert use.first_above(first, first + length, limit) == above
    assert use.peak() == max(sums)
    assert {p: used for (a, b), used in use.pieces() for p in range(a, b + 1)} == {
        p: s for p, s in enumerate(sums) if s
    }


def test_far_and_long_ranges_cost_what_one_phase_costs():
    start = time.process_time()
    use = MemoryUse()
    for k in range(1000):
        use.add(2**40 + k, 2**40 + k + 10**8, 16)
    assert use.first_above(0, 2**41, 1000 * 16 - 1) == (2**40 + 999, 16000)
    assert difference(((0, 10**8),), ((5, 2**40),)) == ((0, 4),)
    assert time.process_time() - start < 1.0
