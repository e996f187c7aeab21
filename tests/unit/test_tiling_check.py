"""The buffer verifier's tiling check against counting every element of the tensor."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from stc.compiler.rules.tiling import PAIRWISE_BOXES, tiling_error

SHAPE = (2, 5, 4, 3)


@st.composite
def placed_boxes(draw: st.DrawFn, most: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    boxes = []
    for _ in range(draw(st.integers(1, most))):
        offset = tuple(draw(st.integers(0, n - 1)) for n in SHAPE)
        size = tuple(draw(st.integers(1, n - o)) for n, o in zip(SHAPE, offset, strict=True))
        boxes.append((offset, size))
    return boxes


def tiles_by_counting(boxes: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> bool:
    written = np.zeros(SHAPE, dtype=int)
    for offset, size in boxes:
        written[tuple(slice(o, o + s) for o, s in zip(offset, size, strict=True))] += 1
    return bool((written == 1).all())


def grid_of(cuts: list[list[int]]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The boxes between consecutive cuts along each dimension: a tiling."""
    ranges = [list(zip(c, c[1:], strict=False)) for c in cuts]
    return [
        ((n, y, x, f), (n1 - n, y1 - y, x1 - x, f1 - f))
        for n, n1 in ranges[0]
        for y, y1 in ranges[1]
        for x, x1 in ranges[2]
        for f, f1 in ranges[3]
    ]


@settings(max_examples=200, deadline=None, derandomize=True)
@given(placed_boxes(6))
def test_the_check_agrees_with_counting_every_element(boxes: list[tuple[tuple[int, ...], tuple[int, ...]]]):
    assert (tiling_error(SHAPE, boxes) is None) == tiles_by_counting(boxes)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.sets(st.integers(1, 4), max_size=3), min_size=4, max_size=4), st.integers(0, 2))
def test_grids_tile_and_a_moved_box_does_not(inner: list[set[int]], moved: int):
    cuts = [sorted({0, n} | {c for c in cut if c < n}) for cut, n in zip(inner, SHAPE, strict=True)]
    boxes = grid_of(cuts)
    assert tiling_error(SHAPE, boxes) is None
    (offset, size), rest = boxes[moved % len(boxes)], [b for i, b in enumerate(boxes) if i != moved % len(boxes)]
    if len(boxes) > 1 and size[1] < SHAPE[1]:
        shifted = (offset[0], (offset[1] + 1) % (SHAPE[1] - size[1] + 1), *offset[2:])
        assert (tiling_error(SHAPE, [*rest, (shifted, size)]) is None) == tiles_by_counting([*rest, (shifted, size)])


def test_the_pairwise_check_and_the_grid_give_the_same_message():
    overlapping = [((0, 0, 0, 0), (2, 3, 4, 3)), ((0, 2, 0, 0), (2, 3, 4, 3))]
    assert len(overlapping) <= PAIRWISE_BOXES
    assert tiling_error(SHAPE, overlapping) == "boxes hold 144 elements but the buffer has 120: they overlap"
    shifted = [((0, 0, 0, 0), (2, 3, 4, 3)), ((0, 1, 0, 0), (2, 2, 4, 3))]
    assert tiling_error(SHAPE, shifted) == "element [0, 3, 0, 0] of the buffer is written by no source"
    many = [((0, y, 0, 0), (2, 1, 4, 3)) for y in range(5)] * 4
    assert len(many) > PAIRWISE_BOXES
    assert tiling_error(SHAPE, many) == "boxes hold 480 elements but the buffer has 120: they overlap"
