"""Exact check that placed boxes tile a tensor: inside it, disjoint, and covering it."""

from __future__ import annotations

import itertools
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
    if len(placed) == 1 and not any(placed[0][0]) and tuple(placed[0][1]) == tuple(shape):
        return None  # one box, the whole tensor (a buffer with one source): it tiles
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
    rank = len(shape)
    if not placed:
        return f"element {[0] * rank} of the buffer is written by no source"
    offsets = np.array([offset for offset, _ in placed], dtype=np.int64).reshape(len(placed), rank)
    ends = offsets + np.array([size for _, size in placed], dtype=np.int64).reshape(len(placed), rank)
    cuts = [np.unique(np.concatenate(([0, n], offsets[:, d], ends[:, d]))) for d, n in enumerate(shape)]
    covered = _cells_covered(
        cuts,
        [np.searchsorted(c, offsets[:, d]) for d, c in enumerate(cuts)],
        [np.searchsorted(c, ends[:, d]) for d, c in enumerate(cuts)],
    )
    if covered.all():
        return None
    hole = [int(cuts[d][i]) for d, i in enumerate(np.argwhere(~covered)[0])]
    return f"element {hole} of the buffer is written by no source"


def _cells_covered(cuts: Sequence[np.ndarray], first: Sequence[np.ndarray], last: Sequence[np.ndarray]) -> np.ndarray:
    """
    Which cells of the grid between `cuts` some box covers, box `i` covering cells
    `first[d][i]` up to (not including) `last[d][i]` along each dimension `d`: each box
    adds one at its first corner and cancels it past its last along every dimension
    (2^rank signed corners), and prefix sums along each dimension count the boxes over
    every cell, all boxes at once.
    """
    rank = len(cuts)
    count = np.zeros([len(c) for c in cuts], dtype=np.int64)
    for corner in itertools.product((False, True), repeat=rank):
        index = tuple(last[d] if past else first[d] for d, past in enumerate(corner))
        np.add.at(count, index, -1 if sum(corner) % 2 else 1)
    for axis in range(rank):
        count = np.cumsum(count, axis=axis)
    return count[tuple(slice(0, len(c) - 1) for c in cuts)] > 0


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
