"""Attributes of the `isa` dialect: local-memory tiles, global layouts, core coordinates."""

from __future__ import annotations

import math
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import I64, DenseArrayBase, IntAttr, IntegerType, TensorType, i64
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, ParametrizedAttribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import AttrConstraint, VerificationContext, irdl_attr_definition, prop_def
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    IRDLOperation,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from stc.dialects.integers import i64_array
from stc.dialects.syntax import WithBody, format_int_tuple, parse_int_tuple, parse_tensor_type, print_type

Coord = tuple[int, int]


def ints(attr: Attribute) -> tuple[int, ...]:
    """The values of an i64 dense array, as every list property of a verified `isa` op
    holds (decoded straight from its little-endian bytes, as the machine reads them for
    every instruction it runs)."""
    assert isinstance(attr, DenseArrayBase)
    raw = attr.data.data
    return struct.unpack(f"<{len(raw) // 8}q", raw)


@dataclass(frozen=True)
class I64ArrayConstraint(AttrConstraint[DenseArrayBase[I64]]):
    """A list-valued property: `array<i64: ...>`, whose error names the property and
    what it holds instead (a float array would verify as a plain DenseArrayBase, then
    break printing and execution)."""

    name: str

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        if isinstance(attr, DenseArrayBase) and attr.elt_type == i64:
            return
        raise VerifyException(f"{self.name} must be an array<i64: ...>, got {attr}")

    def get_bases(self) -> set[type[Attribute]]:
        return {DenseArrayBase}

    def mapping_type_vars(self, type_var_mapping: Mapping[Any, Any]) -> I64ArrayConstraint:
        return self


def i64_array_def(
    name: str, default_value: DenseArrayBase[I64] | None = None, prop_name: str | None = None
) -> DenseArrayBase[I64]:
    """`prop_def` of a list-valued property, an i64 array (`name` is how errors call it)."""
    return prop_def(I64ArrayConstraint(name), default_value, prop_name=prop_name)


format_coord = format_int_tuple
"""`(y, x)`, a core as the `isa` dialect writes it."""


def coords(values: Sequence[int]) -> tuple[Coord, ...]:
    """Cores held as one flat list of (y, x) pairs: `[0, 1, 1, 1]` is ((0, 1), (1, 1))."""
    return tuple((values[i], values[i + 1]) for i in range(0, len(values) - 1, 2))


def destinations_problem(values: Sequence[int]) -> str | None:
    """What is wrong with a flat list of destination cores (a multicast's), if anything:
    none, an odd count, a negative coordinate or a core listed twice."""
    if not values or len(values) % 2 or min(values) < 0:
        return f"the destinations are cores (y, x) with y, x >= 0, got {list(values)}"
    cores = coords(values)
    if len(set(cores)) < len(cores):
        twice = next(core for core in cores if cores.count(core) > 1)
        return f"destination {format_coord(twice)} is listed twice"
    return None


def parse_coord(parser: AttrParser) -> Coord:
    """Parse a core coordinate `(y, x)`."""
    start = parser.pos
    values = parse_int_tuple(parser)
    if len(values) != 2:
        parser.raise_error("a core coordinate is (y, x)", start, parser.pos)
    return values[0], values[1]


@irdl_custom_directive
class CoreCoord(CustomDirective):
    """A core coordinate `(y, x)`, held as an i64 array."""

    coord: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.coord.set(state, i64_array(parse_coord(parser)))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        coord = self.coord.get(op)
        assert coord is not None
        state.print_whitespace(printer)
        printer.print_string(format_coord(ints(coord)))


class GlobalLayout(StrEnum):
    """How a network input or output is laid out in global memory."""

    NCHW = "nchw"
    NHWC = "nhwc"


@irdl_attr_definition
class GlobalLayoutAttr(EnumAttribute[GlobalLayout], SpacedOpaqueSyntaxAttribute):
    """The layout of a global tensor: `#isa<layout nhwc>`."""

    name = "isa.layout"


@irdl_attr_definition
class TileAttr(ParametrizedAttribute, WithBody):
    """
    A tensor in a core's local memory: its byte address and its type. The elements are
    stored densely in row-major order (NHWC for activations, F×Ky×Kx×R for weights).

    ```mlir
    #isa.tile<512 : tensor<1x4x16x16xi8>>
    ```
    """

    name = "isa.tile"
    address_: IntAttr
    tensor_type: TensorType[Attribute]

    def __init__(self, address: int, tensor_type: TensorType[Attribute]):
        super().__init__(IntAttr(address), tensor_type)

    @property
    def address(self) -> int:
        return self.address_.data

    @property
    def shape(self) -> tuple[int, ...]:
        return self.tensor_type.get_shape()

    @property
    def element_bits(self) -> int:
        element = self.tensor_type.get_element_type()
        assert isinstance(element, IntegerType)
        return element.width.data

    @property
    def dtype(self) -> np.dtype:
        return np.dtype(np.int8 if self.element_bits == 8 else np.int32)

    @property
    def nbytes(self) -> int:
        return math.prod(self.shape) * self.element_bits // 8

    @property
    def end(self) -> int:
        return self.address + self.nbytes

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return cls.parse_body(parser).parameters

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            self.print_body(printer)

    @classmethod
    def parse_body(cls, parser: AttrParser) -> TileAttr:
        """Parse `512 : tensor<1x4x16x16xi8>`, the tile as instructions write it."""
        address = parser.parse_integer(allow_boolean=False)
        parser.parse_punctuation(":")
        return TileAttr(address, parse_tensor_type(parser))

    def print_body(self, printer: Printer) -> None:
        printer.print_string(f"{self.address} : ")
        print_type(printer, self.tensor_type)

    def verify(self) -> None:
        if self.address < 0:
            raise VerifyException(f"tile address {self.address} is negative")
        element = self.tensor_type.get_element_type()
        if not isinstance(element, IntegerType) or element.width.data not in (8, 32):
            raise VerifyException(f"tiles hold i8 or i32 elements, got {self.tensor_type}")
        if not self.shape or min(self.shape) < 1:
            raise VerifyException(f"tiles have a static non-empty shape, got {self.tensor_type}")
