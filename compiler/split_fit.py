"""
Split vectors that make every compute block fit one core: for each block whose input
storage (activation buffers, weight, bias, table) exceeds a core's usable local memory,
the split with the fewest pieces whose largest piece fits, preferring splits that keep
the reduction whole (an r-split adds a `task.add` of partial sums, which may need a
split of its own in turn). ResNet-50's first conv, for instance, reads a
224×224×3 image padded to 16 B per pixel (802,816 B) and is split into 7 row bands.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from xdsl.dialects.builtin import TensorType
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.hardware import HardwareTarget
from stc.compiler.storage_size import bias_bytes, buffer_bytes, weight_bytes
from stc.dialects import task
from stc.dialects.task.base import element_width
from stc.passes.task_split import AXES, average_split, axis_lengths, partial_sum_problem, spatial_pieces, split_task

Counts = tuple[int, int, int, int]


def longest(intervals: list[tuple[int, int]]) -> int:
    return max(hi - lo for lo, hi in intervals)


def piece_bytes(op: task.ComputeBlock, counts: Counts, target: HardwareTarget) -> int:
    """Local memory the largest piece of `op` split by `counts` reads (its input storage)."""
    ny, nx, nf, nr = counts
    batch, _, _, channels = op.result.type.get_shape()
    rows = max(piece.read[1] - piece.read[0] for piece in spatial_pieces(op, 0, ny))
    columns = max(piece.read[1] - piece.read[0] for piece in spatial_pieces(op, 1, nx))
    f = longest(average_split(channels, nf))
    reduces = isinstance(op, task.ConvOp | task.FcOp)
    read_channels = longest(average_split(op.data_inputs[0].type.get_shape()[3], nr)) if reduces else f  # pyright: ignore
    total = 0
    for value in op.data_inputs:
        assert isinstance(value.type, TensorType)
        total += buffer_bytes((batch, rows, columns, read_channels), element_width(value.type) or 8, target)
    if isinstance(op, task.ConvOp | task.FcOp):
        _, ky, kx, _ = op.weight.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
        total += weight_bytes((f, ky, kx, read_channels), target)
    if isinstance(op, task.LutOp):
        total += target.aligned_bytes("bias", 256)
    if op.optional_bias is not None and nr == 1:
        total += bias_bytes(f, target)
    return total


def candidate_counts(op: task.ComputeBlock, pieces: int) -> Iterator[Counts]:
    """Every split vector of `op` with `pieces` pieces."""
    lengths = axis_lengths(op)
    limits = [lengths[axis] or 1 for axis in AXES]
    for ny, nx, nf in itertools.product(*(range(1, min(limit, pieces) + 1) for limit in limits[:3])):
        nr, rest = divmod(pieces, ny * nx * nf)
        if rest == 0 and nr <= limits[3] and (nr == 1 or partial_sum_problem(op, nr) is None):
            yield ny, nx, nf, nr


def fitting_counts(op: task.ComputeBlock, target: HardwareTarget, max_pieces: int = 4096) -> Counts | None:
    """The split with the fewest pieces whose largest piece fits a core, None if none does."""
    capacity = target.usable_memory_bytes
    for pieces in range(1, max_pieces + 1):
        fits = [
            (counts[3] > 1, size, counts)
            for counts in candidate_counts(op, pieces)
            if (size := piece_bytes(op, counts, target)) <= capacity
        ]
        if fits:
            return min(fits)[2]
    return None


def fit_splits(graph: task.GraphOp, target: HardwareTarget) -> list[tuple[int, Counts]]:
    """Split every block of `graph` that does not fit a core, then the blocks those splits
    create, until all fit; return the (block, vector) splits made, in order."""
    made: list[tuple[int, Counts]] = []
    while True:
        too_big = [
            op
            for op in graph.tasks()
            if isinstance(op, task.ComputeBlock) and piece_bytes(op, (1, 1, 1, 1), target) > target.usable_memory_bytes
        ]
        if not too_big:
            return made
        for op in too_big:
            counts = fitting_counts(op, target)
            if counts is None:
                raise PassFailedException(
                    f"{op.name} {op.task_id}: no split makes its pieces fit {target.usable_memory_bytes} B"
                )
            split_task(graph, op.task_id, counts)
            made.append((op.task_id, counts))
