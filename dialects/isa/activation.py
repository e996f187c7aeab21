"""
A conv's or fc's fused activation (`ComputeInstruction.relu`, `.table`): its syntax after
the clauses and its rules, on targets with `compute.fused_activation`.

    isa.conv ... -> 5760 : tensor<1x4x8x32xi8> pad [0, 0, 1, 1] shift 9 relu 0
    isa.fc ... -> 2880 : tensor<1x1x1x10xi8> shift 7 lut 3072 : tensor<256xi8>
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.printer import Printer

from stc.dialects.integers import i64_attr
from stc.dialects.isa.attrs import TileAttr


def parse_activation(parser: Parser) -> dict[str, Attribute]:
    """The properties of `relu CMP` or `lut TILE`, if either follows."""
    if parser.parse_optional_keyword("relu"):
        return {"relu": i64_attr(parser.parse_integer(allow_boolean=False))}
    if parser.parse_optional_keyword("lut"):
        return {"table": TileAttr.parse_body(parser)}
    return {}


def print_activation(printer: Printer, relu: IntegerAttr | None, table: TileAttr | None) -> None:
    if relu is not None:
        printer.print_string(f" relu {relu.value.data}")
    if table is not None:
        printer.print_string(" lut ")
        table.print_body(printer)


def activation_problem(activates: bool, relu: IntegerAttr | None, table: TileAttr | None, output: TileAttr) -> str:
    """What is wrong with an instruction's fused activation ("" if nothing); `activates`:
    whether its kind may have one (conv, fc)."""
    if relu is None and table is None:
        return ""
    if not activates:
        return "applies no fused activation (only conv and fc do)"
    if relu is not None and table is not None:
        return "applies one fused activation, a relu or a lut, not both"
    if table is not None and (table.element_bits != 8 or table.shape != (256,)):
        return f"the fused lut's table is tensor<256xi8>, got {table.tensor_type}"
    if table is not None and output.element_bits != 8:
        return f"a fused lut writes i8, got {output.tensor_type}"
    return ""
