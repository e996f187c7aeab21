"""Exact check that placed boxes tile a tensor: inside it, disjoint, and covering it."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

Placed = tuple[Sequence[int], Sequence[int]]
"""(offset, shape) of a box placed in a tensor."""

PAIRWISE_BOXES = 16
"""Up to this many boxes, overlaps are checked in plain Python (cheaper than numpy's set-up)."""


def tiling_error(shape: Sequence[int], placed: Sequence[Placed]) -> str | None:
    """
    Return why `placed` does not tile a tensor of `shape`, or None when it does.
    Boxes inside the tensor that hold exactly its elements tile it when no two of them
    overlap, which a few boxes check by a sweep in plain Python; many boxes, and every
    failure, are checked on the grid of box boundaries, whose cost depends on the number
    of boxes, not on the tensor's size.
    """
    total = math.prod(shape)
    volume = 0
    for offset, size in placed:
        for o, s, n in zip(offset, size, shape, strict=True):
            if o < 0 or o + s > n:
                return f"box at {list(offset)} of shape {list(size)} lies outside {list(shape)}"
        volume += math.prod(size)
    if volume > total:
        return f"boxes hold {volume} elements but the buffer has {total}: they overlap"
    if volume == total and len(placed) <= PAIRWISE_BOXES and not _any_overlap(placed):
        return None
    cuts = [
        np.unique([0, n, *(o for o, *_ in dims), *(o + s for o, s in dims)])
        for n, dims in zip(shape, _per_dimension(placed, len(shape)), strict=True)
    ]
    covered = np.zeros([len(c) - 1 for c in cuts], dtype=bool)
    for offset, size in placed:
        cell = tuple(
            slice(np.searchsorted(c, o), np.searchsorted(c, o + s)) for c, o, s in zip(cuts, offset, size, strict=True)
        )
        covered[cell] = True
    if covered.all():
        return None
    hole = [int(cuts[d][i]) for d, i in enumerate(np.argwhere(~covered)[0])]
    return f"element {hole} of the buffer is written by no source"


def _per_dimension(placed: Sequence[Placed], rank: int) -> list[list[tuple[int, int]]]:
    return [[(offset[d], size[d]) for offset, size in placed] for d in range(rank)]


def _any_overlap(placed: Sequence[Placed]) -> bool:
    """Whether two of the boxes share an element: a sweep along the dimension whose
    offsets differ most, comparing each box only with those that start before it ends
    there."""
    if len(placed) < 2:
        return False
    rank = len(placed[0][0])
    axis = max(range(rank), key=lambda d: len({offset[d] for offset, _ in placed}))
    ordered = sorted(placed, key=lambda box: box[0][axis])
    for index, (offset, size) in enumerate(ordered):
        end = offset[axis] + size[axis]
        for other, other_size in ordered[index + 1 :]:
            if other[axis] >= end:
                break
            if _overlap(offset, size, other, other_size):
                return True
    return False


def _overlap(offset: Sequence[int], size: Sequence[int], other: Sequence[int], other_size: Sequence[int]) -> bool:
    """Whether two boxes share an element."""
    for o1, s1, o2, s2 in zip(offset, size, other, other_size, strict=True):
        if o1 >= o2 + s2 or o2 >= o1 + s1:
            return False
    return True
