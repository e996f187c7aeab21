"""
What every hand-made `isa` example is built from: the example itself (program and task
twin), a bump allocator for global and local addresses, and tile and type text helpers.

    local = local_allocator(load_target("tianjicx"))
    source = local.take(4 * 16 * 16)   # an address aligned for every storage kind
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
from xdsl.dialects.builtin import IntegerType, ModuleOp, TensorType

from stc.compiler.targets.hardware import HardwareTarget
from stc.dialects import isa
from stc.dialects.isa import TileAttr

GLOBAL_ALIGNMENT = 64
"""Where global regions start: no target requires it, it only keeps addresses round."""


@attrs.frozen
class Example:
    """An isa program, the task graph it must agree with, and what it shows."""

    name: str
    description: str
    module: ModuleOp
    """A module holding the isa.program."""
    twin: str
    """The text of a task graph that computes the same outputs from the same inputs."""


@attrs.define
class Allocator:
    """Hands out addresses from 0 upwards, each a multiple of `alignment`."""

    alignment: int
    next_address: int = 0

    def take(self, nbytes: int) -> int:
        address = self.next_address
        self.next_address = -(-(address + nbytes) // self.alignment) * self.alignment
        return address


def local_allocator(target: HardwareTarget) -> Allocator:
    """An allocator whose addresses suit every storage kind and vec_trans_scatter."""
    alignment = target.local_memory.alignment_bytes
    return Allocator(
        max(
            alignment.activation,
            alignment.partial_sum,
            alignment.weight,
            alignment.bias,
            isa.BLOCK_BYTES,
        )
    )


def tile(address: int, element: IntegerType, shape: Sequence[int]) -> TileAttr:
    return TileAttr(address, TensorType(element, shape))


def shape_text(shape: Sequence[int], element: str = "i8") -> str:
    return f"tensor<{'x'.join(str(n) for n in shape)}x{element}>"
