"""Attributes of the `task` dialect: boxes, storage kinds and weight-data references."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Data, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from stc.compiler.rules.blocks import box_inside, box_problem
from stc.compiler.rules.blocks import format_box as format_intervals
from stc.compiler.spelling import BOX_TEXT, INTERVAL_TEXT
from stc.dialects.by_identity import by_identity
from stc.dialects.syntax import take_text

Interval = tuple[int, int]
DataT = TypeVar("DataT")


def checked_parameter(parser: AttrParser, start: int, attr: type[Data[DataT]], parameter: DataT) -> DataT:
    """Run `attr`'s verifier on a parameter parsed from `start`, so that a broken rule
    underlines the text instead of surfacing without a position."""
    try:
        attr(parameter)
    except VerifyException as error:
        parser.raise_error(str(error), start, parser.pos)
    return parameter


def parse_optional_box(parser: AttrParser) -> tuple[Interval, ...] | None:
    """Parse `[lo:hi, lo:hi, ...]` (half-open intervals, one per dimension) if present."""

    def parse_interval() -> Interval:
        lo = parser.parse_integer(allow_boolean=False)
        parser.parse_punctuation(":")
        return lo, parser.parse_integer(allow_boolean=False)

    start = parser.pos
    if match := take_text(parser, BOX_TEXT):
        intervals = [(int(lo), int(hi)) for lo, hi in INTERVAL_TEXT.findall(match[0])]
    else:
        intervals = parser.parse_optional_comma_separated_list(parser.Delimiter.SQUARE, parse_interval)
    return None if intervals is None else checked_parameter(parser, start, BoxAttr, tuple(intervals))


def parse_box(parser: AttrParser) -> tuple[Interval, ...]:
    box = parse_optional_box(parser)
    if box is None:
        parser.raise_error("expected a box `[lo:hi, ...]`")
    return box


def format_box(box: BoxAttr) -> str:
    """The intervals of a box as written in the IR: `[0:1, 4:8]`."""
    return format_intervals(box.data)


@irdl_attr_definition
class BoxAttr(Data[tuple[Interval, ...]]):
    """
    A box of a tensor: one half-open interval `lo:hi` per dimension.

    ```mlir
    #task.box<[0:1, 4:8, 0:8, 0:32]>
    ```
    """

    name = "task.box"

    @staticmethod
    def whole(shape: Sequence[int]) -> BoxAttr:
        return BoxAttr(tuple((0, n) for n in shape))

    @property
    def lo(self) -> tuple[int, ...]:
        return tuple(lo for lo, _ in self.data)

    @property
    def hi(self) -> tuple[int, ...]:
        return tuple(hi for _, hi in self.data)

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(hi - lo for lo, hi in self.data)

    def covers(self, shape: Sequence[int]) -> bool:
        return self.data == tuple((0, n) for n in shape)

    def inside(self, shape: Sequence[int]) -> bool:
        return box_inside(self.data, shape)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[Interval, ...]:
        with parser.in_angle_brackets():
            return parse_box(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(format_box(self))

    def verify(self) -> None:
        if problem := box_problem(self.data):
            raise VerifyException(problem)


@by_identity
def box_shape(box: BoxAttr) -> tuple[int, ...]:
    """`box.shape`, computed once per box object."""
    return box.shape


class StorageKind(StrEnum):
    """Activation storage kinds of TianjicX (BiMap SI/SIC/SIFC/SO)."""

    SI = "si"
    """Input of a vector block (pool, relu, lut, add, mul)."""
    SIC = "sic"
    """Input of a convolution."""
    SIFC = "sifc"
    """Input of a fully connected block."""
    SO = "so"
    """Output storage, read only by network outputs."""


@irdl_attr_definition
class StorageKindAttr(EnumAttribute[StorageKind], SpacedOpaqueSyntaxAttribute):
    """The kind of an activation buffer: `#task<kind sic>`."""

    name = "task.kind"


@irdl_attr_definition
class RandomDataAttr(Data[int]):
    """
    Deterministic pseudo-random data: the same seed and shape always give the same
    tensor on every host (int8 uniform over [-128, 127], int32 uniform over
    [-2^15, 2^15)), drawn from the raw words of numpy's PCG64 seeded with `seed`.

    ```mlir
    #task.random<7>
    ```
    """

    name = "task.random"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> int:
        with parser.in_angle_brackets():
            start = parser.pos
            return checked_parameter(parser, start, cls, parser.parse_integer(allow_boolean=False))

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data}>")

    def verify(self) -> None:
        if not 0 <= self.data < 2**63:
            raise VerifyException(f"random seed must be in [0, 2^63), got {self.data}")


@irdl_attr_definition
class NpzDataAttr(Data[tuple[str, str]]):
    """
    A key of an external `.npz` archive; a relative path is resolved against the
    directory of the IR file, and the archive must lie inside it (or a `--data-dir`).

    ```mlir
    #task.npz<"resnet18.npz", "conv1.weight">
    ```
    """

    name = "task.npz"

    @property
    def path(self) -> str:
        return self.data[0]

    @property
    def key(self) -> str:
        return self.data[1]

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[str, str]:
        with parser.in_angle_brackets():
            start = parser.pos
            path = parser.parse_str_literal(" for the npz file path")
            parser.parse_punctuation(",")
            key = parser.parse_str_literal(" for the npz key")
            return checked_parameter(parser, start, cls, (path, key))

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string_literal(self.path)
        printer.print_string(", ")
        printer.print_string_literal(self.key)
        printer.print_string(">")

    def verify(self) -> None:
        if not self.path or not self.key:
            raise VerifyException("npz path and key must not be empty")
