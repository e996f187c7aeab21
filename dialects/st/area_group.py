"""
Area groups (UG1079's area location constraints): `st.area_group` and the rectangles it
confines its members to.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, StringAttr, UnitAttr
from xdsl.ir import Data
from xdsl.irdl import irdl_attr_definition, irdl_op_definition, opt_prop_def, prop_def
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    IRDLOperation,
    OptionalUnitAttrVariable,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from stc.dialects.integers import i64_array
from stc.dialects.st.mapping import ActionOp
from stc.dialects.syntax import IntList


@irdl_attr_definition
class RectAttr(Data[tuple[str, int, int, int, int]]):
    """
    One rectangle of an area group: a tile type and its column and row bounds, inclusive,
    counted inside the tile type as UG1079 does (aie-ml's aie_tile row 0 is array row 3).

    ```mlir
    #st.rect<aie_tile columns 0 to 1 rows 0 to 7>
    ```
    """

    name = "st.rect"

    @staticmethod
    def of(tile_type: str, columns: tuple[int, int], rows: tuple[int, int]) -> RectAttr:
        return RectAttr((tile_type, columns[0], rows[0], columns[1], rows[1]))

    @property
    def tile_type(self) -> str:
        return self.data[0]

    @property
    def columns(self) -> tuple[int, int]:
        return self.data[1], self.data[3]

    @property
    def rows(self) -> tuple[int, int]:
        return self.data[2], self.data[4]

    def text(self) -> str:
        (c0, c1), (r0, r1) = self.columns, self.rows
        return f"{self.tile_type} columns {c0} to {c1} rows {r0} to {r1}"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[str, int, int, int, int]:
        with parser.in_angle_brackets():
            return cls.parse_body(parser).data

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.text()}>")

    def verify(self) -> None:
        (c0, c1), (r0, r1) = self.columns, self.rows
        if min(c0, r0) < 0 or c1 < c0 or r1 < r0:
            raise VerifyException(f"rectangle {self.text()} is empty or negative")

    @classmethod
    def parse_body(cls, parser: AttrParser) -> RectAttr:
        """Parse `aie_tile columns 0 to 1 rows 0 to 7`."""
        tile_type = parser.parse_identifier("tile type")
        bounds: list[int] = []
        for axis in ("columns", "rows"):
            parser.parse_keyword(axis)
            bounds.append(parser.parse_integer(allow_boolean=False))
            parser.parse_keyword("to")
            bounds.append(parser.parse_integer(allow_boolean=False))
        return RectAttr.of(tile_type, (bounds[0], bounds[1]), (bounds[2], bounds[3]))


@irdl_custom_directive
class Rects(CustomDirective):
    """The rectangles of an area group, in braces: `{core columns 0 to 1 rows 0 to 9}`."""

    rects: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        rects = parser.parse_comma_separated_list(parser.Delimiter.BRACES, lambda: RectAttr.parse_body(parser))
        self.rects.set(state, ArrayAttr(rects))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        rects = self.rects.get(op)
        assert isinstance(rects, ArrayAttr)
        state.print_whitespace(printer)
        printer.print_string("{" + ", ".join(cast(RectAttr, rect).text() for rect in rects) + "}")


AREA_FLAGS = ("contain_routing", "exclusive_routing", "exclusive_placement")


@irdl_custom_directive
class AreaFlags(CustomDirective):
    """The flags of an area group, each at most once, in any order."""

    contain_routing: OptionalUnitAttrVariable
    exclusive_routing: OptionalUnitAttrVariable
    exclusive_placement: OptionalUnitAttrVariable

    def flags(self) -> tuple[OptionalUnitAttrVariable, ...]:
        return self.contain_routing, self.exclusive_routing, self.exclusive_placement

    def parse(self, parser: Parser, state: ParsingState) -> None:
        given: set[str] = set()
        while name := parser.parse_optional_keyword_in(AREA_FLAGS):
            if name in given:
                group = cast(StringAttr, state.properties["name"]).data
                parser.raise_error(f"area group {group!r}: {name} is given twice")
            given.add(name)
        for flag in self.flags():
            if flag.name in given:
                flag.set(state, UnitAttr())

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        for flag in self.flags():
            if flag.is_present(op):
                state.print_whitespace(printer)
                printer.print_string(flag.name)


@irdl_op_definition
class AreaGroupOp(ActionOp):
    """
    An area location constraint (UG1079): the member blocks must be placed inside the
    rectangles, one per tile type. `contain_routing` keeps the routes between members
    inside, `exclusive_routing` keeps every route between non-members out, and
    `exclusive_placement` keeps non-members out. A member compute block brings its input
    storage blocks; a member that a later split removes is replaced by the blocks the
    split creates.

    ```mlir
    st.area_group "g" [3, 4] {aie_tile columns 0 to 1 rows 0 to 7,
                              shim_tile columns 0 to 1 rows 0 to 0} contain_routing
    ```
    """

    name = "st.area_group"
    group_name = prop_def(StringAttr, prop_name="name")
    members = prop_def(DenseArrayBase)
    rects = prop_def(ArrayAttr[RectAttr])
    contain_routing = opt_prop_def(UnitAttr)
    exclusive_routing = opt_prop_def(UnitAttr)
    exclusive_placement = opt_prop_def(UnitAttr)
    assembly_format = (
        "$name custom<IntList>($members) custom<Rects>($rects) "
        "custom<AreaFlags>($contain_routing, $exclusive_routing, $exclusive_placement) attr-dict"
    )
    custom_directives = (IntList, Rects, AreaFlags)

    def __init__(
        self,
        name: str,
        members: Sequence[int],
        rects: Sequence[RectAttr],
        contain_routing: bool = False,
        exclusive_routing: bool = False,
        exclusive_placement: bool = False,
    ):
        flags = (contain_routing, exclusive_routing, exclusive_placement)
        super().__init__(
            properties={
                "name": StringAttr(name),
                "members": i64_array(members),
                "rects": ArrayAttr(rects),
                **{flag: UnitAttr() if on else None for flag, on in zip(AREA_FLAGS, flags, strict=True)},
            }
        )

    @property
    def member_ids(self) -> tuple[int, ...]:
        return self.members.get_values()  # pyright: ignore[reportReturnType]

    def flag(self, name: str) -> bool:
        return name in self.properties

    def verify_(self) -> None:
        if not self.rects:
            raise VerifyException(f"{self.name} {self.group_name.data!r}: needs at least one rectangle")
        tile_types = [rect.tile_type for rect in self.rects]
        if len(set(tile_types)) != len(tile_types):
            raise VerifyException(
                f"{self.name} {self.group_name.data!r}: one rectangle per tile type, got {tile_types}"
            )
