"""
The byte ranges `isa` instructions touch, and the rules `isa.program` checks them
against: the target's local-memory capacity and alignments.
"""

from __future__ import annotations

import attrs

from stc.compiler.hardware import HardwareTarget
from stc.dialects.isa.attrs import Coord, TileAttr
from stc.runtime.kernels.vec_trans_scatter import BLOCK_BYTES


@attrs.frozen
class Access:
    """A byte range an instruction touches, and the alignment rule its start follows:
    a storage kind of the target (`activation`, `partial_sum`, `weight`, `bias`),
    `transfer` (the target's smallest alignment), `block` (32 bytes, always) or `none`
    (global memory)."""

    role: str
    start: int
    size: int
    alignment: str

    @property
    def end(self) -> int:
        return self.start + self.size


def tile_kind(tile: TileAttr) -> str:
    """The storage kind of an activation tile: int8 activations or int32 partial sums."""
    return "activation" if tile.element_bits == 8 else "partial_sum"


def required_alignment(target: HardwareTarget, rule: str) -> int:
    if rule == "block":
        return BLOCK_BYTES
    alignment = target.local_memory.alignment_bytes
    if rule == "transfer":
        return min(alignment.activation, alignment.partial_sum, alignment.weight, alignment.bias)
    return getattr(alignment, rule)


def local_capacity(target: HardwareTarget, coord: Coord) -> int:
    """Bytes of a core's local memory that programs may address, from 0."""
    memory = target.tile_type_at(*coord).memory_bytes
    return max(memory - target.local_memory.reserved_bytes, 0)
