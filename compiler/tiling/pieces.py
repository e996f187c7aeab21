"""
A split's pieces: intervals and boxes, the input rows a range of windows reads (halos and
pads), the grid of pieces a split vector cuts a compute block into, and the checks of split
vectors (as given, and against a block). `split.py` builds the pieces as blocks of the graph.

    >>> average_split(10, 3)
    [(0, 4), (4, 7), (7, 10)]
    >>> window_pieces([(0, 2), (2, 4)], size=8, kernel=3, stride=2, dilation=1, pad=(1, 1))[1]
    AxisPiece(out=(2, 4), read=(3, 8), pad=(0, 1))
"""

from __future__ import annotations

import itertools
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from numbers import Integral

import numpy as np
from xdsl.dialects.builtin import ShapedType
from xdsl.ir import SSAValue
from xdsl.utils.exceptions import PassFailedException

from stc.dialects.st import is_split_vector
from stc.dialects.task import ComputeBlock, ConvOp, FcOp, TaskOp, WindowBlock

Interval = tuple[int, int]
Box = tuple[Interval, ...]
Counts = tuple[int, int, int, int, int]
"""Pieces along n, y, x, f and r."""

AXES = ("n", "y", "x", "f", "r")
UNITS = {"n": "sample", "y": "row", "x": "column", "f": "channel", "r": "input channel"}
UNSPLIT: Counts = (1, 1, 1, 1, 1)
MAX_PARTIAL_TERMS = (2**31 - 1) // 2**14
"""The most int8 products an int32 partial sum holds exactly: each is at most 2^14 in size."""


def average_split(length: int, count: int) -> list[Interval]:
    """Cut [0, length) into `count` intervals, piece k ending at ⌈k·length/count⌉ (10 → 4, 3, 3)."""
    return list(itertools.pairwise(-(-k * length // count) for k in range(count + 1)))


def intersection(a: Box, b: Box) -> Box:
    """The common box of two boxes that meet."""
    return tuple((max(a_lo, b_lo), min(a_hi, b_hi)) for (a_lo, a_hi), (b_lo, b_hi) in zip(a, b, strict=True))


class BoxIndex:
    """
    Which boxes of a tiling meet a region, found through the grid of cells their edges cut
    the tiled space into (a grid tiling has one cell per box, and there are never more cells
    than elements). A query costs the cells the region meets, not the number of boxes.
    """

    def __init__(self, boxes: Sequence[Box]):
        self.cuts = [sorted({edge for box in boxes for edge in box[axis]}) for axis in range(len(boxes[0]))]
        self.cells = np.empty([len(cuts) - 1 for cuts in self.cuts], dtype=np.intp)
        for index, box in enumerate(boxes):
            cells = (
                slice(bisect_left(cuts, lo), bisect_left(cuts, hi))
                for cuts, (lo, hi) in zip(self.cuts, box, strict=True)
            )
            self.cells[tuple(cells)] = index

    def meeting(self, region: Box) -> list[int]:
        """The indices, ascending, of the boxes that share an element with `region`."""
        window = (
            slice(bisect_right(cuts, lo) - 1, bisect_left(cuts, hi))
            for cuts, (lo, hi) in zip(self.cuts, region, strict=True)
        )
        cells = self.cells[tuple(window)]
        if cells.size == 1:  # a region inside one cell (of one source): no sorting
            return [int(cells.flat[0])]
        return np.unique(cells).tolist()


@dataclass(frozen=True)
class AxisPiece:
    """One piece along y or x: the output interval, the input interval it reads, its pads."""

    out: Interval
    read: Interval
    pad: Interval


def window_pieces(
    windows: Sequence[Interval], size: int, kernel: int, stride: int, dilation: int, pad: Interval
) -> list[AxisPiece]:
    """
    The input rows each range of windows reads: windows [a, b) read rows
    [a·s − pad_lo, (b−1)·s + k_eff − pad_lo) clipped to the input. The first piece keeps
    pad_lo, the last pad_hi; inner pieces get the pads that keep their window count exact.
    """
    extent = dilation * (kernel - 1) + 1
    pad_lo, pad_hi = pad
    pieces: list[AxisPiece] = []
    for a, b in windows:
        lo = max(a * stride - pad_lo, 0)
        end = (b - 1) * stride + extent - pad_lo
        hi = min(end, size)
        piece_pad_hi = pad_hi if b == windows[-1][1] else end - hi
        pieces.append(AxisPiece((a, b), (lo, hi), (lo - a * stride + pad_lo, piece_pad_hi)))
    return pieces


def elementwise_pieces(windows: Sequence[Interval]) -> list[AxisPiece]:
    return [AxisPiece(interval, interval, (0, 0)) for interval in windows]


@dataclass(frozen=True)
class Piece:
    """One piece of a split block."""

    n: Interval
    y: AxisPiece
    x: AxisPiece
    f: Interval
    channels_read: Interval
    """Input channels read: the r interval of a conv or fc, the f interval otherwise."""
    r_index: int

    def out_box(self) -> Box:
        return (self.n, self.y.out, self.x.out, self.f)

    def read_box(self) -> Box:
        return (self.n, self.y.read, self.x.read, self.channels_read)


def split_error(op: TaskOp, message: str) -> PassFailedException:
    return PassFailedException(f"{op.name} {op.task_id}: {message}")


def shape_of(value: SSAValue) -> tuple[int, ...]:
    assert isinstance(value.type, ShapedType)
    return value.type.get_shape()


def axis_lengths(op: ComputeBlock) -> dict[str, int | None]:
    """The length of each axis the block can be split along, None for those it lacks."""
    batch, rows, columns, channels = shape_of(op.result)
    if isinstance(op, FcOp):
        return {"n": batch, "y": None, "x": None, "f": channels, "r": shape_of(op.input)[3]}
    reduced = shape_of(op.input)[3] if isinstance(op, ConvOp) else None
    return {"n": batch, "y": rows, "x": columns, "f": channels, "r": reduced}


def quantity(count: int, unit: str) -> str:
    return f"{count} {unit}" if count == 1 else f"{count} {unit}s"


def five_counts(vector: Sequence[int]) -> tuple[int, ...]:
    """A split vector of any accepted form as nn, ny, nx, nf, nr (ny,nx,nf,nr and the seed's
    ny,nx,nf,nr,1,1 leave the batch whole; nn,ny,nx,nf,nr splits it too)."""
    if len(vector) == 5:
        return tuple(vector)
    return (1, *vector[:4])


def split_counts(op: ComputeBlock, vector: Sequence[int]) -> Counts:
    """Check a split vector (ny,nx,nf,nr, nn,ny,nx,nf,nr, or the seed's ny,nx,nf,nr,1,1) against a block."""
    if len(vector) == 6 and tuple(vector[4:]) != (1, 1):
        raise split_error(op, f"ky and kx are never split, got nky={vector[4]} nkx={vector[5]}")
    if not is_split_vector(vector):
        counts = f"{len(vector)} counts {list(vector)}"
        raise split_error(op, f"a split vector is ny,nx,nf,nr or nn,ny,nx,nf,nr or ny,nx,nf,nr,1,1, got {counts}")
    lengths = axis_lengths(op)
    counts = five_counts(vector)
    for axis, count in zip(AXES, counts, strict=True):
        length = lengths[axis]
        if count < 1:
            raise split_error(op, f"split counts must be at least 1, got {count} for {axis}")
        if length is None and count > 1:
            raise split_error(op, f"cannot split {axis} into {count} pieces: a {op.name} has no {axis} dimension")
        if length is not None and count > length:
            why = fc_channels_only(op) if axis == "r" else ""
            raise split_error(op, f"cannot split {axis} ({quantity(length, UNITS[axis])}) into {count} pieces{why}")
    nn, ny, nx, nf, nr = counts
    if nr > 1 and (problem := partial_sum_problem(op, nr)) is not None:
        raise split_error(op, problem)
    return nn, ny, nx, nf, nr


def fc_channels_only(op: ComputeBlock) -> str:
    """Why an fc over a wider input cannot take more r pieces than channels."""
    if not isinstance(op, FcOp):
        return ""
    _, rows, columns, _ = shape_of(op.input)
    if rows * columns == 1:
        return ""
    return f": a task.fc splits r along its input's channels only, not its {rows}x{columns} rows and columns"


def partial_sum_problem(op: ComputeBlock, nr: int) -> str | None:
    """
    Why `nr` r pieces of a conv or fc could overflow their int32 partial sums, or None: the
    largest piece sums ⌈C/nr⌉·ky·kx int8 products (h·w for an fc), each at most 2^14 in
    size, so it is exact up to MAX_PARTIAL_TERMS products.
    """
    assert isinstance(op, ConvOp | FcOp)
    _, ky, kx, channels = shape_of(op.weight)
    per_channel = ky * kx
    terms = -(-channels // nr) * per_channel
    if terms <= MAX_PARTIAL_TERMS:
        return None
    if per_channel > MAX_PARTIAL_TERMS:
        advice = f"one input channel alone is {per_channel} terms, so no r split is exact"
    else:
        advice = f"split r into at least {-(-channels // (MAX_PARTIAL_TERMS // per_channel))} pieces"
    return (
        f"r pieces of {terms} terms could overflow their int32 partial sums "
        f"(|sum| <= terms * 2^14 stays within 2^31 - 1 only up to {MAX_PARTIAL_TERMS} terms); {advice}"
    )


def spatial_pieces(op: ComputeBlock, axis: int, count: int) -> list[AxisPiece]:
    """Pieces along y (axis 0) or x (axis 1)."""
    in_size = shape_of(op.data_inputs[0])[1 + axis]
    if isinstance(op, FcOp):
        return [AxisPiece((0, 1), (0, in_size), (0, 0))]
    windows = average_split(shape_of(op.result)[1 + axis], count)
    if not isinstance(op, WindowBlock):
        return elementwise_pieces(windows)
    pad = op.ints("pad")[2 * axis], op.ints("pad")[2 * axis + 1]
    stride, dilation = op.ints("stride")[axis], op.dilations()[axis]
    return window_pieces(windows, in_size, op.window()[axis], stride, dilation, pad)


def length(interval: Interval) -> int:
    return interval[1] - interval[0]


@dataclass(frozen=True)
class Grid:
    """The intervals of a split along each axis; its pieces are their product."""

    n: list[Interval]
    y: list[AxisPiece]
    x: list[AxisPiece]
    f: list[Interval]
    r: list[Interval]
    """Reduced input channels (conv and fc); other blocks read their f interval."""
    reduces: bool

    def pieces(self) -> list[Piece]:
        """The pieces, n outermost and r innermost."""
        return [
            Piece(n, y, x, f, r if self.reduces else f, r_index)
            for n, y, x, f, (r_index, r) in itertools.product(self.n, self.y, self.x, self.f, enumerate(self.r))
        ]

    def largest_piece(self) -> Piece:
        """A piece with the longest interval of each axis: no piece reads or writes more."""
        y = max(self.y, key=lambda piece: length(piece.read))
        x = max(self.x, key=lambda piece: length(piece.read))
        n, f, r = max(self.n, key=length), max(self.f, key=length), max(self.r, key=length)
        return Piece(n, y, x, f, r if self.reduces else f, 0)


def split_grid(op: ComputeBlock, counts: Counts) -> Grid:
    """The intervals of `op` split by `counts`."""
    nn, ny, nx, nf, nr = counts
    return Grid(
        average_split(shape_of(op.result)[0], nn),
        spatial_pieces(op, 0, ny),
        spatial_pieces(op, 1, nx),
        average_split(shape_of(op.result)[3], nf),
        average_split(shape_of(op.data_inputs[0])[3], nr),
        isinstance(op, ConvOp | FcOp),
    )


def is_count(value: object) -> bool:
    """An integer, numpy's included, that is not a boolean."""
    return isinstance(value, Integral) and not isinstance(value, bool)


def counts_of(vector: object) -> tuple[int, ...]:
    """A split vector (any sequence of integers) as Python ints."""
    counts = list(vector) if isinstance(vector, Iterable) else None
    if counts is None or not all(is_count(count) for count in counts):
        raise PassFailedException(f"split_group: a split vector is a sequence of integer counts, got {vector!r}")
    return tuple(int(count) for count in counts)  # pyright: ignore[reportArgumentType]


def broadcast_vectors(
    task_ids: Sequence[int], vectors: Sequence[int] | Sequence[Sequence[int]]
) -> list[tuple[int, ...]]:
    """One vector per task: a single vector (a sequence of integers) is given to every task."""
    if not any(isinstance(item, Iterable) for item in vectors):
        return [counts_of(vectors)] * len(task_ids)
    if len(vectors) != len(task_ids):
        raise PassFailedException(f"split_group: {len(vectors)} vectors for {len(task_ids)} tasks")
    return [counts_of(vector) for vector in vectors]
