"""
Slicing a layer group (seed 004): the group's outputs are cut into `n` batch slices and
`h` row slices, and every layer's slice is found backwards from them ("BackwardH"): a
windowed layer whose output slice has `out` rows starting at `a` reads

    in = (out − 1)·stride + max(k_eff, stride)   rows from   a·stride − pad_top,

clamped to its input (k_eff = dilation·(k − 1) + 1); element-wise layers read their
output rows, an fc its whole input. A layer read by several members computes the hull of
what they read, so halos grow towards the group's inputs and overlapping rows are
computed again by each slice. A slicing whose duplicated rows on some layer's input
exceed half that input's height is refused (seed 004: h = 100, [0, 80) and [20, 100)
duplicate 60 rows and fail; [0, 60) and [20, 100) duplicate 40 and pass).

>>> duplicated_rows([(0, 80), (20, 100)]), duplicated_rows([(0, 60), (20, 100)])
(60, 40)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from attrs import frozen

from stc.compiler.grouping.layers import Interval, Layer, LayerGraph, Tile
from stc.compiler.tiling.pieces import average_split


@frozen
class LayerSlice:
    """What one layer computes for one slice of its group."""

    batch: Interval
    rows: Interval
    """Output rows."""
    read: Interval
    """Input rows read (every data input of the layer)."""
    pad: Interval
    """Top and bottom pad of the slice's windows (0, 0 for layers without windows)."""
    owned: Interval | None = None
    """For a layer whose result leaves the group: the output rows this slice delivers (the
    group's output slices partition the rows)."""


@frozen
class Slicing:
    """A group's members (graph order), its slice counts, and each layer's slices: one
    dictionary per slice, batch slices outermost."""

    members: tuple[int, ...]
    n: int
    h: int
    slices: tuple[dict[int, LayerSlice], ...]

    @property
    def count(self) -> int:
        return self.n * self.h


class SlicingRefused(Exception):
    """A slicing that cannot be made or breaks the halo rule; the message says why."""


def duplicated_rows(intervals: Sequence[Interval]) -> int:
    """Rows read by more than one interval, counted once per extra read: Σ lengths − |∪|."""
    covered, end = 0, None
    for lo, hi in sorted(intervals):
        start = lo if end is None else max(lo, end)
        covered += max(hi - start, 0)
        end = hi if end is None else max(end, hi)
    return sum(hi - lo for lo, hi in intervals) - covered


def backward_rows(layer: Layer, rows: Interval) -> tuple[Interval, Interval]:
    """The input rows a layer reads for output rows `rows`, and the pads its slice keeps."""
    if layer.whole_input:
        return (0, layer.in_height), (0, 0)
    if layer.window is None:
        return rows, (0, 0)
    (a, b), window = rows, layer.window
    start = a * window.stride - window.pad_top
    lo = max(start, 0)
    hi = min(start + (b - a - 1) * window.stride + max(window.extent, window.stride), layer.in_height)
    reached = start + (b - a - 1) * window.stride + window.extent
    return (lo, hi), (lo - start, max(reached - layer.in_height, 0))


def source_rows(tile: Tile, producer: int, batch: Interval, rows: Interval) -> list[Interval]:
    """The rows of `producer`'s result that rows `rows` (batch `batch`) of a buffer take."""
    found: list[Interval] = []
    for source in tile.sources:
        if source.producer != producer:
            continue
        (n_lo, n_hi), (y_lo, y_hi) = source.box[0], source.box[1]
        if max(batch[0], source.offset[0]) >= min(batch[1], source.offset[0] + n_hi - n_lo):
            continue
        lo, hi = max(rows[0], source.offset[1]), min(rows[1], source.offset[1] + y_hi - y_lo)
        if lo < hi:
            found.append((y_lo + lo - source.offset[1], y_lo + hi - source.offset[1]))
    return found


def hull(intervals: Sequence[Interval]) -> Interval | None:
    return (min(lo for lo, _ in intervals), max(hi for _, hi in intervals)) if intervals else None


def slice_group(layers: LayerGraph, members: Sequence[int], n: int, h: int) -> Slicing:
    """Slice a group `n` ways along the batch and `h` ways along the rows of its outputs,
    backwards to its inputs; SlicingRefused when it cannot be done."""
    ordered = tuple(sorted(members, key=layers.position.__getitem__))
    inside = set(ordered)
    outputs = set(layers.outputs_of(ordered))
    slices: list[dict[int, LayerSlice]] = []
    batch = layers.op(ordered[-1]).shape[0]
    if n > batch:
        raise SlicingRefused(f"cannot cut a batch of {batch} into {n} slices")
    for batch_slice, index in itertools.product(average_split(batch, n), range(h)):
        found: dict[int, LayerSlice] = {}
        for task_id in reversed(ordered):
            layer = layers.op(task_id)
            needed: list[Interval] = []
            owned = None
            if task_id in outputs:
                height = layer.shape[1]
                if h > height:
                    raise SlicingRefused(f"{layer.describe()} has {height} output rows, fewer than {h} slices")
                owned = average_split(height, h)[index]
                needed.append(owned)
            for consumer in layers.consumers[task_id]:
                if consumer in inside:
                    for tile in layers.op(consumer).inputs:
                        needed += source_rows(tile, task_id, batch_slice, found[consumer].read)
            rows = hull(needed)
            if rows is None:
                raise SlicingRefused(f"{layer.describe()} computes nothing for slice {len(slices)}")
            read, pad = backward_rows(layer, rows)
            found[task_id] = LayerSlice(batch_slice, rows, read, pad, owned)
        slices.append(found)
    slicing = Slicing(ordered, n, h, tuple(slices))
    check_halo(layers, slicing)
    return slicing


def check_halo(layers: LayerGraph, slicing: Slicing) -> None:
    """Refuse a slicing whose duplicated input rows exceed half some layer's input height."""
    if slicing.h == 1:
        return
    for task_id in slicing.members:
        layer = layers.op(task_id)
        height = layer.in_height
        for batch_index in range(slicing.n):
            reads = [found[task_id].read for found in slicing.slices[batch_index * slicing.h :][: slicing.h]]
            if 2 * (duplicated := duplicated_rows(reads)) > height:
                shown = ", ".join(f"[{lo}, {hi})" for lo, hi in reads)
                raise SlicingRefused(
                    f"{layer.describe()} reads input rows {shown} of {height}: "
                    f"{duplicated} duplicated rows > {height}/2"
                )
