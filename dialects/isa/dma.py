"""DMA between global and local memory: `isa.dma_load` and `isa.dma_store`, strided boxes;
`isa.dma_multicast`, a load whose one DRAM read other cores also receive."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import I64, IntegerAttr
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, prop_def
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    IRDLOperation,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from stc.dialects.integers import i64_array, i64_attr
from stc.dialects.isa.access import Access
from stc.dialects.isa.attrs import Coord, coords, destinations_problem, format_coord, i64_array_def, ints, parse_coord
from stc.dialects.isa.core import Instruction
from stc.dialects.syntax import DeclaredPropertyOrder, IntList, IntValue, format_int_list, parse_int_list


def dense_strides(sizes: Sequence[int]) -> tuple[int, ...]:
    """Row-major strides of a dense box: (12, 4, 1) for sizes (2, 3, 4)."""
    strides = [1] * len(sizes)
    for axis in range(len(sizes) - 2, -1, -1):
        strides[axis] = strides[axis + 1] * sizes[axis + 1]
    return tuple(strides)


def box_properties(
    sizes: Sequence[int],
    global_address: int,
    local_address: int,
    global_strides: Sequence[int] | None = None,
    local_strides: Sequence[int] | None = None,
) -> dict[str, Attribute]:
    """The properties of a DMA box: its sizes, and each side's address and strides (dense
    where not given)."""
    dense = dense_strides(sizes)
    return {
        "sizes": i64_array(sizes),
        "global_address": i64_attr(global_address),
        "global_strides": i64_array(global_strides or dense),
        "local_address": i64_attr(local_address),
        "local_strides": i64_array(local_strides or dense),
    }


def strided_extent(sizes: Sequence[int], strides: Sequence[int]) -> int:
    """Bytes from the first to one past the last byte a strided box touches."""
    return 1 + sum((size - 1) * stride for size, stride in zip(sizes, strides, strict=True))


def self_overlap(sizes: Sequence[int], strides: Sequence[int]) -> bool:
    """Whether two elements of a strided box could land on one byte: each stride, in
    increasing order, must clear everything the smaller strides span."""
    span = 1
    for stride, size in sorted((st, s) for s, st in zip(sizes, strides, strict=True) if s > 1):
        if stride < span:
            return True
        span += (size - 1) * stride
    return False


@irdl_custom_directive
class Strides(CustomDirective):
    """`strides [...]` of one side of a DMA or copy; not written when they are dense for the sizes."""

    strides: AttributeVariable
    sizes: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        strides = parse_int_list(parser) if parser.parse_optional_keyword("strides") else None
        sizes = ints(state.properties[self.sizes.name])
        self.strides.set(state, i64_array(strides or dense_strides(sizes)))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        strides = ints(self.strides.get(op))
        if strides == dense_strides(ints(self.sizes.get(op))):
            return
        state.print_whitespace(printer)
        printer.print_string(f"strides {format_int_list(strides)}")


class DmaOp(DeclaredPropertyOrder, Instruction):
    """
    A strided copy between global and local memory. `sizes` counts bytes along each
    dimension (innermost last); each side has a byte address and byte strides, dense
    row-major when not written. The destination may not touch a byte twice.
    """

    sizes = i64_array_def("sizes")
    global_address = prop_def(IntegerAttr[I64])
    global_strides = i64_array_def("global_strides")
    local_address = prop_def(IntegerAttr[I64])
    local_strides = i64_array_def("local_strides")

    custom_directives = (IntValue, IntList, Strides)

    FROM_GLOBAL: ClassVar[bool]

    def __init__(
        self,
        sizes: Sequence[int],
        global_address: int,
        local_address: int,
        global_strides: Sequence[int] | None = None,
        local_strides: Sequence[int] | None = None,
    ):
        super().__init__(properties=box_properties(sizes, global_address, local_address, global_strides, local_strides))

    @property
    def byte_count(self) -> int:
        return math.prod(ints(self.sizes))

    def side(self, memory: str) -> tuple[int, tuple[int, ...]]:
        """(address, strides) of the `global` or `local` side."""
        if memory == "global":
            return self.global_address.value.data, ints(self.global_strides)
        return self.local_address.value.data, ints(self.local_strides)

    def local_accesses(self) -> list[Access]:
        """The local box, at any byte: it is a tile or a sub-box of one (a sample of a
        batch, a channel slice, a halo band), and a tile's own alignment is checked where
        the tile is allocated (st's local-memory verifier) and where an instruction computes
        on it."""
        address, strides = self.side("local")
        return [Access("local box", address, strided_extent(ints(self.sizes), strides), "byte")]

    def global_accesses(self) -> list[Access]:
        address, strides = self.side("global")
        sizes = ints(self.sizes)
        extent = strided_extent(sizes, strides)
        return [Access("global box", address, extent, "none", not self.FROM_GLOBAL, sizes, strides)]

    @classmethod
    def memory_order(cls) -> tuple[str, str]:
        return ("global", "local") if cls.FROM_GLOBAL else ("local", "global")

    def verify_(self) -> None:
        sizes = ints(self.sizes)
        if not sizes or min(sizes) < 1:
            raise self.error(f"sizes must be integers >= 1, got {list(sizes)}")
        for memory in ("global", "local"):
            address, strides = self.side(memory)
            if len(strides) != len(sizes) or min(strides) < 0:
                raise self.error(f"{memory} strides must be {len(sizes)} integers >= 0, got {list(strides)}")
            if address < 0:
                raise self.error(f"{memory} address {address} is negative")
        destination = self.memory_order()[1]
        if self_overlap(sizes, self.side(destination)[1]):
            raise self.error(
                f"{destination} strides {list(self.side(destination)[1])} write "
                f"some bytes twice for sizes {list(sizes)}"
            )


@irdl_op_definition
class DmaLoadOp(DmaOp):
    """
    Copy a strided box of global memory into local memory, e.g. 10 rows of a 16-wide
    row-major tensor with 16 channels, from the middle of a 64-row tensor:

    ```mlir
    isa.dma_load sizes [10, 256] from global 1024 to local 512
    isa.dma_load sizes [10, 8, 16] from global 1024 strides [256, 16, 1] to local 0
        strides [128, 16, 1]
    ```
    """

    name = "isa.dma_load"
    assembly_format = (
        "`sizes` custom<IntList>($sizes) `from` `global` custom<IntValue>($global_address) "
        "custom<Strides>($global_strides, ref($sizes)) "
        "`to` `local` custom<IntValue>($local_address) custom<Strides>($local_strides, ref($sizes)) attr-dict"
    )
    FROM_GLOBAL: ClassVar[bool] = True


@irdl_op_definition
class DmaStoreOp(DmaOp):
    """
    Copy a strided box of local memory into global memory.

    ```mlir
    isa.dma_store sizes [4, 128] from local 0 to global 8192 strides [512, 1]
    ```
    """

    name = "isa.dma_store"
    assembly_format = (
        "`sizes` custom<IntList>($sizes) `from` `local` custom<IntValue>($local_address) "
        "custom<Strides>($local_strides, ref($sizes)) "
        "`to` `global` custom<IntValue>($global_address) custom<Strides>($global_strides, ref($sizes)) attr-dict"
    )
    FROM_GLOBAL: ClassVar[bool] = False


@irdl_custom_directive
class Cores(CustomDirective):
    """Core coordinates `(y, x), (y, x)`, held as one flat i64 array."""

    cores: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        cores = [parse_coord(parser)]
        while parser.parse_optional_punctuation(","):
            cores.append(parse_coord(parser))
        self.cores.set(state, i64_array([value for core in cores for value in core]))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        values = ints(self.cores.get(op))
        state.print_whitespace(printer)
        printer.print_string(", ".join(format_coord(values[i : i + 2]) for i in range(0, len(values), 2)))


@irdl_op_definition
class DmaMulticastOp(DmaOp):
    """
    A DMA load whose one DRAM read also reaches other cores (a target with
    `global_memory.multicast_loads`): the box is read once and carried along the XY
    multicast tree from the loading core's port to the loading core and each destination
    (a link the routes share carries it once); each destination takes it with its own
    `isa.recv` of the tag from the loading core, into its own box, in the same phase.

    ```mlir
    isa.dma_multicast sizes [1024] from global 0 to local 0 and (0, 1), (1, 1) tag 7
    ```
    """

    name = "isa.dma_multicast"
    dsts = i64_array_def("dsts")
    tag = prop_def(IntegerAttr[I64])
    custom_directives = (IntValue, IntList, Strides, Cores)
    assembly_format = (
        "`sizes` custom<IntList>($sizes) `from` `global` custom<IntValue>($global_address) "
        "custom<Strides>($global_strides, ref($sizes)) "
        "`to` `local` custom<IntValue>($local_address) custom<Strides>($local_strides, ref($sizes)) "
        "`and` custom<Cores>($dsts) `tag` custom<IntValue>($tag) attr-dict"
    )
    FROM_GLOBAL: ClassVar[bool] = True

    def __init__(
        self,
        sizes: Sequence[int],
        global_address: int,
        local_address: int,
        destinations: Sequence[Coord],
        tag: int,
        global_strides: Sequence[int] | None = None,
        local_strides: Sequence[int] | None = None,
    ):
        IRDLOperation.__init__(
            self,
            properties={
                "dsts": i64_array([value for core in destinations for value in core]),
                "tag": i64_attr(tag),
                **box_properties(sizes, global_address, local_address, global_strides, local_strides),
            },
        )

    @property
    def peers(self) -> tuple[Coord, ...]:
        """The destinations: the cores that receive the box besides the loading one."""
        return coords(ints(self.dsts))

    destinations = peers

    @property
    def tag_value(self) -> int:
        return self.tag.value.data

    def verify_(self) -> None:
        super().verify_()
        if (problem := destinations_problem(ints(self.dsts))) is not None:
            raise self.error(problem)
        if self.tag_value < 0:
            raise self.error(f"tag {self.tag_value} is negative")
