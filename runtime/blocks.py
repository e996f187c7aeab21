"""
A task graph as plain data, as the golden executor runs it: one `Block` per task block, in
order, each naming its operands by their blocks' positions. `stc.runtime.golden` builds it
from a `task.graph` op; `stc.runtime.plain` reads it from text without xDSL.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

Box = tuple[tuple[int, int], ...]
"""Half-open intervals, one per dimension."""


class Block(NamedTuple):
    """A task block: its op's name and id, its operands (positions of earlier blocks; a
    compute block's bias last) and its result's NHWC shape and element width (bits)."""

    name: str
    id: int
    operands: tuple[int, ...] = ()
    shape: tuple[int, ...] = ()
    width: int = 0
    clauses: Mapping[str, int | tuple[int, ...]] = {}
    """A compute block's integer and integer-list properties, defaults included."""
    has_bias: bool = False
    label: str = ""
    """An input's or output's name; a buffer's storage kind."""
    pieces: tuple[tuple[Box, tuple[int, ...]], ...] = ()
    """A buffer's box and offset per source."""
    data: tuple[str, object] = ("", None)
    """A data block's reference: ("random", seed), ("npz", (path, key)) or ("dense", values)."""
    full_shape: tuple[int, ...] = ()
    """The shape of the whole tensor a data block references."""
    box: Box | None = None
    """The box of that tensor a data block holds (None: all of it)."""

    def int(self, name: str) -> int:
        value = self.clauses[name]
        assert isinstance(value, int)
        return value

    def ints(self, name: str) -> tuple[int, ...]:
        value = self.clauses[name]
        assert isinstance(value, tuple)
        return value


class Graph(NamedTuple):
    """A task graph: its name and blocks in order."""

    name: str
    blocks: tuple[Block, ...]

    def input_shapes(self) -> dict[str, tuple[int, ...]]:
        """The NCHW shape of each input, in input order."""
        return {b.label: nchw(b.shape) for b in self.blocks if b.name == "task.input"}


def nchw(shape: tuple[int, ...]) -> tuple[int, ...]:
    n, h, w, c = shape
    return n, c, h, w
