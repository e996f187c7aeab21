"""Parsing and printing pieces shared by the `task` ops' custom syntax."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import I64, DenseArrayBase, IntegerAttr, TensorType, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer


def parse_defined_operand(parser: Parser) -> SSAValue:
    """
    Parse `%name` and return the value it names. Task graphs list every block after
    its producers, so operand types never need to be spelled out.
    """
    start = parser.pos
    operand = parser.parse_unresolved_operand()
    values = parser.ssa_values.get(operand.operand_name)
    if values is None or operand.index >= len(values):
        parser.raise_error(
            f"%{operand.operand_name} is used before it is defined "
            "(a task graph lists every block after its producers)",
            start,
            parser.pos,
        )
    return values[operand.index]


def parse_i64(parser: Parser, what: str) -> int:
    """Parse an integer literal that must fit in a signed 64-bit integer; `what` names it in the error."""
    start = parser.pos
    value = parser.parse_integer(allow_boolean=False)
    if not -(2**63) <= value < 2**63:
        parser.raise_error(f"{what} {value} does not fit in a 64-bit integer", start, parser.pos)
    return value


def parse_int_list(parser: Parser, what: str = "integer") -> list[int]:
    """Parse `[1, 2, 3]` of 64-bit integers."""
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: parse_i64(parser, what))


def format_int_list(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def parse_tensor_type(parser: Parser) -> TensorType:
    start = parser.pos
    typ = parser.parse_type()
    if not isinstance(typ, TensorType):
        parser.raise_error("expected a tensor type", start, parser.pos)
    return typ


def i64_attr(value: int) -> IntegerAttr[I64]:
    return IntegerAttr(value, i64)


def i64_array(values: Sequence[int]) -> DenseArrayBase[I64]:
    return DenseArrayBase.from_list(i64, list(values))


def print_attr_dict(printer: Printer, attributes: dict[str, Attribute]) -> None:
    if attributes:
        printer.print_string(" ")
        printer.print_attr_dict(attributes)
