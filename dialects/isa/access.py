"""
The byte ranges `isa` instructions touch, and the rules `isa.program` checks them
against: the target's local-memory capacity and alignments.
"""

from __future__ import annotations

import attrs
import numpy as np

from stc.compiler.targets.hardware import HardwareTarget
from stc.dialects.isa.attrs import Coord, TileAttr
from stc.dialects.isa.vec_trans_scatter_rules import BLOCK_BYTES


@attrs.frozen
class Access:
    """A byte range an instruction touches, and the alignment rule its start follows:
    a storage kind of the target (`activation`, `partial_sum`, `weight`, `bias`),
    `transfer` (the target's smallest alignment: DMA boxes), `block` (32 bytes, always),
    `byte` (NoC and local-copy boxes, which address single bytes: a channel slice of a
    tile) or `none` (global memory). A strided box (`sizes`, `strides` in bytes) touches only some
    bytes of its range; without them the access touches all of it."""

    role: str
    start: int
    size: int
    alignment: str
    writes: bool = False
    """Whether the instruction writes the bytes (else it only reads them)."""
    sizes: tuple[int, ...] = ()
    strides: tuple[int, ...] = ()

    @property
    def end(self) -> int:
        return self.start + self.size

    def runs(self) -> np.ndarray:
        """The bytes touched as sorted, disjoint [start, end) runs, shape (runs, 2): one
        run per contiguous piece, so a dense box is one run whatever its size."""
        if not self.sizes:
            return np.array([[self.start, self.end]], dtype=np.int64)
        outer = [(size, stride) for size, stride in zip(self.sizes, self.strides, strict=True) if size > 1]
        length = 1
        while outer and outer[-1][1] == length:
            length *= outer.pop()[0]
        starts = np.array([self.start], dtype=np.int64)
        for size, stride in outer:
            starts = (starts[:, None] + np.arange(size, dtype=np.int64) * stride).ravel()
        starts.sort()
        reach = np.maximum.accumulate(starts + length)
        first = np.flatnonzero(np.r_[True, starts[1:] > reach[:-1]])
        last = np.r_[first[1:] - 1, starts.size - 1]
        return np.stack((starts[first], reach[last]), axis=1)


def shared_bytes(first: np.ndarray, second: np.ndarray) -> tuple[int, int] | None:
    """The lowest [start, end) range that two accesses' runs (`Access.runs`) both cover,
    or None. Each run of `second` is checked against the first run of `first` that ends
    after it starts, the only candidate since `first`'s runs are disjoint and sorted."""
    after = np.searchsorted(first[:, 1], second[:, 0], side="right")
    candidate = first[np.minimum(after, len(first) - 1)]
    hits = np.flatnonzero((after < len(first)) & (candidate[:, 0] < second[:, 1]))
    if not hits.size:
        return None
    run, other = candidate[hits[0]], second[hits[0]]
    return int(max(run[0], other[0])), int(min(run[1], other[1]))


def tile_kind(tile: TileAttr) -> str:
    """The storage kind of an activation tile: int8 activations or int32 partial sums."""
    return "activation" if tile.element_bits == 8 else "partial_sum"


def required_alignment(target: HardwareTarget, rule: str) -> int:
    if rule == "block":
        return BLOCK_BYTES
    if rule in ("byte", "none"):
        return 1
    return getattr(target.local_memory.alignment_bytes, rule)


def local_capacity(target: HardwareTarget, coord: Coord) -> int:
    """Bytes of a core's local memory that programs may address, from 0."""
    memory = target.tile_type_at(*coord).memory_bytes
    return max(memory - target.local_memory.reserved_bytes, 0)
