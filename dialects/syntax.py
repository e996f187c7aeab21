"""
The custom syntax that stc's dialects (`task`, `st`, `isa`) share: the pieces their
hand-written parsers and printers use, and the custom directives of their
`assembly_format`s.

```mlir
task.graph @g { ... }                         // $sym_name attr-dict-with-keyword custom<Body>($body)
st.split_task 3 by [2, 1, 2, 2]               // $task `by` custom<IntList>($vector) attr-dict
st.put_in 3 at (0, 0, 0, 0), (0, 1, axon)     // $task `at` custom<AttrBody>($at) ...
st.take_out at (0, 0, 0, 0), (0, 1, memory)   // (custom<OptionalInt>($task)^)? `at` ...
```
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache
from io import StringIO
from typing import Any, Self, cast

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, IntegerType, TensorType, i8, i16, i32, i64
from xdsl.ir import Attribute, Block, SSAValue
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    IRDLOperation,
    ParsingState,
    PrintingState,
    RegionVariable,
    UniqueBaseAttributeVariable,
    irdl_custom_directive,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer

from stc.compiler.spelling import INT_LIST_TEXT, INT_TUPLE_TEXT, TENSOR_TYPE_TEXT, ints_of
from stc.dialects.integers import i64_array, i64_attr


def take_text(parser: AttrParser, pattern: re.Pattern[str]) -> re.Match[str] | None:
    """
    Match `pattern` at the parser's next token and consume the text it matches, in one
    regex instead of token by token; None, consuming nothing, when it does not match.
    A reader tries the form stc's printers write this way and falls back to xDSL's
    tokens for any other spelling (other spacing, comments, hexadecimal), so both read
    the same values: `[1, 2, 3]` is 7 tokens and 3 integers, one match here.
    """
    match = pattern.match(parser.lexer.input.content, parser.pos)
    if match is not None:
        parser._resume_from(match.end())  # pyright: ignore[reportPrivateUsage]
    return match


def parse_i64(parser: AttrParser, what: str) -> int:
    """Parse an integer literal that must fit in a signed 64-bit integer; `what` names it in the error."""
    start = parser.pos
    value = parser.parse_integer(allow_boolean=False)
    if not -(2**63) <= value < 2**63:
        parser.raise_error(f"{what} {value} does not fit in a 64-bit integer", start, parser.pos)
    return value


def parse_int_list(parser: AttrParser, what: str = "integer") -> list[int]:
    """Parse `[1, 2, 3]` of 64-bit integers."""
    if match := take_text(parser, INT_LIST_TEXT):
        return ints_of(match[0])
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: parse_i64(parser, what))


def int_values(array: Attribute | None) -> tuple[int, ...]:
    """The values of an integer array property (`array<i64: 1, 2, 3>`)."""
    assert isinstance(array, DenseArrayBase)
    assert isinstance(array.elt_type, IntegerType)
    return cast(DenseArrayBase[IntegerType], array).get_values()


def format_int_list(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def parse_int_tuple(parser: AttrParser) -> list[int]:
    """Parse `(1, 2, 3)`, a coordinate."""
    if match := take_text(parser, INT_TUPLE_TEXT):
        return ints_of(match[0])
    return parser.parse_comma_separated_list(parser.Delimiter.PAREN, lambda: parser.parse_integer(allow_boolean=False))


def format_int_tuple(values: Sequence[int]) -> str:
    return "(" + ", ".join(str(v) for v in values) + ")"


INTEGER_TYPES = {str(typ.width.data): typ for typ in (i8, i16, i32, i64)}


def tensor_type_of(known: dict[str, TensorType], text: str) -> TensorType:
    """
    The type a spelling TENSOR_TYPE_TEXT matches names, the one xDSL's parser reads from
    it (tests/unit/test_fast_reading.py), built once per spelling and kept in `known`.
    """
    if (typ := known.get(text)) is None:
        dims, _, width = text[len("tensor<") : -1].rpartition("xi")
        typ = known[text] = TensorType(INTEGER_TYPES[width], [int(size) for size in dims.split("x")])
    return typ


def tensor_types(parser: AttrParser) -> dict[str, TensorType]:
    """The tensor types `parser` has read, by spelling."""
    return parser.__dict__.setdefault("tensor_types", {})


def parse_tensor_type(parser: AttrParser) -> TensorType:
    """
    Parse a tensor type. A graph spells the same few types over and over (a 100,000-op
    chain, one): a spelling TENSOR_TYPE_TEXT matches is read in one match, its type built
    once per parser and then looked up by its text; any other goes to xDSL's parser.
    """
    start = parser.pos
    if (spelled := TENSOR_TYPE_TEXT.match(parser.lexer.input.content, start)) is not None:
        parser._resume_from(spelled.end())  # pyright: ignore[reportPrivateUsage]
        return tensor_type_of(tensor_types(parser), spelled[0])
    typ = parser.parse_type()
    if not isinstance(typ, TensorType):
        parser.raise_error("expected a tensor type", start, parser.pos)
    return typ


def print_type(printer: Printer, typ: Attribute) -> None:
    """Print a type; a graph prints the same few tensor types over and over, each
    rendered by xDSL's printer once per process and then written as text."""
    printer.print_string(type_text(typ))


@lru_cache(maxsize=1 << 12)
def type_text(typ: Attribute) -> str:
    out = StringIO()
    Printer(stream=out).print_attribute(typ)
    return out.getvalue()


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


def print_attr_dict(printer: Printer, attributes: dict[str, Attribute]) -> None:
    if attributes:
        printer.print_string(" ")
        printer.print_attr_dict(attributes)


def clause_default(op_type: type[IRDLOperation], clause: str) -> Attribute | None:
    """The default of a clause, the integer or integer-list property `clause` of `op_type`;
    None when it has none and must be given."""
    return op_type.get_irdl_definition().properties[clause].default_value


def check_clauses_given(
    parser: Parser, op_type: type[IRDLOperation], clauses: Sequence[str], given: Collection[str], start: int
) -> None:
    """Raise a parse error, from `start`, naming the first clause without a default that is not given."""
    if missing := [c for c in clauses if c not in given and clause_default(op_type, c) is None]:
        parser.raise_error(f"{op_type.name} needs the clause `{missing[0]}`", start, parser.pos)


def clauses_text(op: IRDLOperation, clauses: Sequence[str]) -> str:
    """` clause value` for each clause not equal to its default: ` stride [2, 2] shift 7`."""
    text: list[str] = []
    for clause in clauses:
        value = op.properties[clause]
        if value == clause_default(type(op), clause):
            continue
        if isinstance(value, IntegerAttr):
            text.append(f" {clause} {value.value.data}")
        else:
            text.append(f" {clause} {format_int_list(int_values(value))}")
    return "".join(text)


def print_clauses(printer: Printer, op: IRDLOperation, clauses: Sequence[str]) -> None:
    """Print the clauses not equal to their defaults (`clauses_text`)."""
    printer.print_string(clauses_text(op, clauses))


class DeclaredPropertyOrder(IRDLOperation):
    """
    An op whose `assembly_format` names its properties in another order than it declares
    them. `build`, which the format's parser calls, stores them in declaration order, the
    order of the op's constructor, so that a parsed op and a built one print alike in
    generic form.
    """

    @classmethod
    def build(cls, *, properties: Mapping[str, Attribute | None] | None = None, **kwargs: Any) -> Self:
        if properties is not None:
            declared = [name for name in cls.get_irdl_definition().properties if name in properties]
            properties = {name: properties[name] for name in [*declared, *properties]}
        return super().build(properties=properties, **kwargs)


@irdl_custom_directive
class Body(CustomDirective):
    """
    The single block of an op that holds others, written as a region without a block
    label, `{` and `}` alone when it is empty.
    """

    body: RegionVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        self.body.set(state, region)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_region(self.body.get(op), print_entry_block_args=False, print_empty_block=False)


@irdl_custom_directive
class IntList(CustomDirective):
    """An array of 64-bit integers written as a list: `[1, 2, 3]`."""

    values: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.values.set(state, i64_array(parse_int_list(parser)))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_string(format_int_list(int_values(self.values.get(op))))


@irdl_custom_directive
class IntValue(CustomDirective):
    """
    A 64-bit integer property written as its value, `7`, as `$value` writes it; each
    value is built once (`i64_attr`): programs repeat the same addresses and phases.
    """

    value: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.value.set(state, i64_attr(parser.parse_integer(allow_boolean=False)))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        value = self.value.get(op)
        assert isinstance(value, IntegerAttr)
        state.print_whitespace(printer)
        printer.print_string(str(value.value.data))


@irdl_custom_directive
class OptionalInt(CustomDirective):
    """An optional 64-bit integer, the anchor of an optional group: `(custom<OptionalInt>($task)^)?`."""

    value: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.value.set(state, i64_attr(parser.parse_integer(allow_boolean=False)))

    def parse_optional(self, parser: Parser, state: ParsingState) -> None:
        if (value := parser.parse_optional_integer(allow_boolean=False)) is not None:
            self.value.set(state, i64_attr(value))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        value = self.value.get(op)
        assert isinstance(value, IntegerAttr)
        state.print_whitespace(printer)
        printer.print_string(str(value.value.data))

    def is_present(self, op: IRDLOperation) -> bool:
        return self.value.is_present(op)

    def is_anchorable(self) -> bool:
        return True

    def is_optional_like(self) -> bool:
        return True


@irdl_custom_directive
class TypeProperty(CustomDirective):
    """
    A property that holds a type, written as the type: `i8`. A tensor-typed property
    takes only a tensor type.
    """

    type: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        constraint = state.op_type.get_irdl_definition().properties[self.type.name].constr
        tensor = constraint.get_bases() == {TensorType}
        self.type.set(state, parse_tensor_type(parser) if tensor else parser.parse_type())

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        print_type(printer, cast(Attribute, self.type.get(op)))


class WithBody(ABC):
    """An attribute that ops may write as its body alone, without `#name<` and `>`."""

    @classmethod
    @abstractmethod
    def parse_body(cls, parser: AttrParser) -> Self: ...

    @abstractmethod
    def print_body(self, printer: Printer) -> None: ...


@irdl_custom_directive
class AttrBody(CustomDirective):
    """
    An attribute written as its body, without its name and angle brackets: the
    coordinate `(0, 0, 2, 3), (0, 1, axon)` of `#st.coord<(0, 0, 2, 3), (0, 1, axon)>`.
    Its class must derive from `WithBody`. As the anchor of an optional group, it is present
    when the op holds the attribute.
    """

    attr: UniqueBaseAttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        attr = cast(type[WithBody], self.attr.unique_base).parse_body(parser)
        assert isinstance(attr, Attribute)
        self.attr.set(state, attr)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        attr = self.attr.get(op)
        assert isinstance(attr, WithBody)
        state.print_whitespace(printer)
        attr.print_body(printer)

    def is_present(self, op: IRDLOperation) -> bool:
        return self.attr.is_present(op)

    def is_anchorable(self) -> bool:
        return True
