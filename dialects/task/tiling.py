"""Exact check that placed boxes tile a tensor: inside it, disjoint, and covering it."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

Placed = tuple[Sequence[int], Sequence[int]]
"""(offset, shape) of a box placed in a tensor."""

PAIRWISE_BOXES = 16
"""Up to this many boxes, overlaps are checked pair by pair (cheaper than numpy's set-up)."""


def tiling_error(shape: Sequence[int], placed: Sequence[Placed]) -> str | None:
    """
    Return why `placed` does not tile a tensor of `shape`, or None when it does.
    Boxes inside the tensor that hold exactly its elements tile it when no two of them
    overlap, which a few boxes check pairwise in plain Python; many boxes, and every
    failure, are checked on the grid of box boundaries, whose cost depends on the number
    of boxes, not on the tensor's size.
    """
    for offset, size in placed:
        if any(o < 0 or o + s > n for o, s, n in zip(offset, size, shape, strict=True)):
            return f"box at {list(offset)} of shape {list(size)} lies outside {list(shape)}"
    volume = sum(math.prod(size) for _, size in placed)
    if volume > math.prod(shape):
        return f"boxes hold {volume} elements but the buffer has {math.prod(shape)}: they overlap"
    if volume == math.prod(shape) and len(placed) <= PAIRWISE_BOXES and not _any_overlap(placed):
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
    """Whether two of the boxes share an element."""
    return any(
        all(o1 < o2 + s2 and o2 < o1 + s1 for o1, s1, o2, s2 in zip(*first, *second, strict=True))
        for index, first in enumerate(placed)
        for second in placed[index + 1 :]
    )
