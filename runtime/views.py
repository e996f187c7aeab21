"""
Views of the byte memories an isa instruction reads or writes, checked against the memory's
bounds: a compute instruction's tile of local memory as a typed tensor, and a DMA's, copy's
or transfer's strided box of bytes; and how many bytes of global memory a program uses.

    x = tile(core, site, "input", op.inputs.data[0])      # int8 N x H x W x C, writable
    box = strided_view(core.memory, core.capacity, site, "local", address, strides, sizes)

A view outside the memory is an error at `site` (`isa.where`) naming the bytes and the memory.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numpy.lib.stride_tricks import as_strided

from stc.compiler.diagnostics import StcError
from stc.compiler.targets.hardware import Coord
from stc.dialects import isa
from stc.runtime.core import Core


def local_bytes(core: Core, site: str, role: str, address: int, nbytes: int) -> np.ndarray:
    """The `nbytes` bytes of the core's local memory at `address`, the instruction's `role`."""
    if address < 0 or address + nbytes > core.capacity:
        raise StcError(
            f"{site}: {role} bytes [{address}, {address + nbytes}) are outside local memory [0, {core.capacity})"
        )
    return core.memory[address : address + nbytes]


def tile(core: Core, site: str, role: str, placed: isa.TileAttr) -> np.ndarray:
    """A tile of the core's local memory as a writable tensor of its shape and element type."""
    raw = local_bytes(core, site, role, placed.address, placed.nbytes)
    return raw.view(placed.dtype).reshape(placed.shape)


def strided_view(
    memory: np.ndarray,
    capacity: int,
    site: str,
    what: str,
    address: int,
    strides: tuple[int, ...],
    sizes: tuple[int, ...],
) -> np.ndarray:
    """The strided box of a byte memory a DMA reads or writes, as a writable view; the
    memory holds the first bytes of `capacity` addressable ones, all the program touches."""
    end = address + isa.strided_extent(sizes, strides)
    if address < 0 or end > capacity:
        raise StcError(f"{site}: {what} bytes [{address}, {end}) are outside {what} memory [0, {capacity})")
    if strides == isa.dense_strides(sizes):
        return memory[address:end].reshape(sizes)
    return as_strided(memory[address:], shape=sizes, strides=strides)


def global_extent(program: isa.ProgramOp, instructions: Mapping[Coord, list[tuple[int, int, isa.Instruction]]]) -> int:
    """Bytes of global memory a program uses: up to the end of its last declaration or
    DMA box (`instructions` are the cores' numbered instructions)."""
    ends = [op.start + op.nbytes for op in program.body.block.ops if isinstance(op, isa.GlobalOp)]
    ends += [
        access.end for numbered in instructions.values() for _, _, op in numbered for access in op.global_accesses()
    ]
    return max(ends, default=0)
