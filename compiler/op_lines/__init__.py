"""
Whole-op reading: an op of stc's dialects, spelled as stc's printers write it, is read
from one regex match of its text and built directly, instead of token by token through
xDSL's parser (some 20 tokens and a hundred Python calls per op).

`OpLines.read` is tried at the start of every op `StcParser` parses. It takes the op only
when its text is one the op's reader knows, every value it names is defined, every
attribute and type in it is one the parser has already read (or one built the same way
without a parser), its attribute dictionary is absent or the mapping `st-place` and
`st-route` write, and nothing after it (`{`, `loc(...)`) belongs to the op. Otherwise it
takes nothing and xDSL's parser reads the op, so what is accepted or rejected, and every
message with its position, is xDSL's (tests/unit/test_op_lines.py compares both readers
on every lit test, every zoo network and drawn mutations of them).

```mlir
%r2 = task.relu 2 %b1 : tensor<1x4x4x32xi8>     // one match, then ReluOp.create(...)
%r2 = task.relu 2 %b1 // c
  : tensor<1x4x4x32xi8>                          // xDSL's parser
```

The readers of each dialect are in this package (`task.py`, `isa.py`), imported with the
dialect's first op.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import ArrayAttr, TensorType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.irdl import VariadicDef
from xdsl.utils.lexer import Span

from stc.compiler.spelling import AFTER_OP, BETWEEN_OPS, OP_HEAD
from stc.dialects.prechecked import prechecked
from stc.dialects.syntax import tensor_type_of, tensor_types

if TYPE_CHECKING:
    from xdsl.parser import Parser

Build = Callable[[dict[str, Attribute]], Operation]
"""Builds the op matched, with its discardable attributes."""

Reader = Callable[["OpLines", type[Operation], int], tuple[Build, int] | None]
"""Reads the text of an op after its name (at the given position): a builder of the op
and where its text ends, or None when the text is not one the reader knows."""

READER_MODULES = {"task": "stc.compiler.op_lines.task", "isa": "stc.compiler.op_lines.isa"}


class OpLines:
    """The whole-op reader of one parser, with what it has read (types, attributes by text)."""

    def __init__(self, parser: Parser):
        self.parser = parser
        self.text = parser.lexer.input.content
        self.ops: dict[str, tuple[type[Operation], Reader, bool] | None] = {}
        self.attributes: dict[str, Attribute] = {}
        """Attributes by their text, built once each."""
        self.arrays: dict[tuple[int, ...], ArrayAttr] = {}
        """Arrays by the identities of their elements (kept alive by the array)."""

    def read(self) -> Operation | None:
        """The op at the parser's position, read whole, or None (and nothing consumed)."""
        if (read := self.read_at(self.parser.pos)) is None:
            return None
        op, end = read
        self.parser._resume_from(end)  # pyright: ignore[reportPrivateUsage]
        return op

    def read_run(self) -> list[Operation]:
        """
        The ops from the parser's position on that are read whole, up to the first that
        is not; the parser resumes after the last. The token after each op is not lexed,
        only the whitespace and comments before the next skipped, as upstream's lexer
        skips them (a mapped ResNet-50 is one run of 3,398 ops).
        """
        ops: list[Operation] = []
        start = self.parser.pos
        end = start
        while (read := self.read_at(start)) is not None:
            op, end = read
            ops.append(op)
            start = BETWEEN_OPS.match(self.text, end).end()  # pyright: ignore[reportOptionalMemberAccess]
        if ops:
            self.parser._resume_from(end)  # pyright: ignore[reportPrivateUsage]
        return ops

    def read_at(self, start: int) -> tuple[Operation, int] | None:
        """The op whose text starts at `start`, read whole, and where its text ends; None
        when it is not one the readers take. Its result is registered with the parser."""
        parser = self.parser
        text = self.text
        if not isinstance(text, str) or (head := OP_HEAD.match(text, start)) is None:
            return None
        if (found := self.reader_of(head["name"], head["dialect"])) is None:
            return None
        op_type, reader, one_result = found
        result = head["result"]
        if result is not None and (
            not one_result or result in parser.ssa_values or result in parser.forward_ssa_references
        ):
            return None
        if (read := reader(self, op_type, head.end())) is None:
            return None
        build, end = read
        attributes: dict[str, Attribute] = {}
        if text.startswith(" {", end):
            if head["dialect"] != "task" or (dictionary := self.mapping(end + 1)) is None:
                return None
            attributes, end = dictionary
        if AFTER_OP.match(text, end) is None:
            return None
        op = build(attributes)
        if result is not None:
            span = Span(head.start("result") - 1, head.end("result"), parser.lexer.input)
            parser._register_ssa_definition(result, op.results, span)  # pyright: ignore[reportPrivateUsage]
        return op, end

    def reader_of(self, name: str, dialect: str) -> tuple[type[Operation], Reader, bool] | None:
        """The class the parser's context gives `name`, its reader and whether it has
        one result, if it has a reader."""
        if name in self.ops:
            return self.ops[name]
        readers: dict[type[Operation], Reader] = import_module(READER_MODULES[dialect]).READERS
        op_type = self.parser.ctx.get_optional_op(name)
        found = None
        if op_type is not None and op_type in readers:
            results = op_type.get_irdl_definition().results  # pyright: ignore[reportAttributeAccessIssue]
            one_result = len(results) == 1 and not isinstance(results[0][1], VariadicDef)
            found = (op_type, readers[op_type], one_result)
        self.ops[name] = found
        return found

    def mapping(self, start: int) -> tuple[dict[str, Attribute], int] | None:
        """The attribute dictionary at `start` and its end, if it is a mapping as
        st-place and st-route write it (`stc.compiler.op_lines.st`)."""
        if not self.text.startswith("{st.coord = ", start):
            return None
        from stc.compiler.op_lines.st import valid_mapping_attributes

        return valid_mapping_attributes(self.attributes, self.text, start)

    def value(self, name: str) -> SSAValue | None:
        """The value `%name` names (its first, as `%name` reads), if it is defined."""
        values = self.parser.ssa_values.get(name)
        return values[0] if values else None

    def array(self, elements: Sequence[Attribute]) -> ArrayAttr:
        """`ArrayAttr(elements)`, built once per sequence of element objects: a module's
        buffers repeat the same boxes and offsets."""
        key = tuple(map(id, elements))
        if (known := self.arrays.get(key)) is None:
            known = self.arrays[key] = prechecked(ArrayAttr, tuple(elements))  # of attributes the reader built
        return known

    def tensor_type(self, text: str) -> TensorType:
        """The tensor type of `text`, a spelling TENSOR_TYPE_TEXT matches, built once per parser."""
        return tensor_type_of(tensor_types(self.parser), text)


def link_before(block: Block, ops: Sequence[Operation], existing: Operation) -> None:
    """
    `block.insert_ops_before(ops, existing)` for detached ops without regions (as `created`
    makes them): none can contain the block, so xDSL's walk up its parents per op is not
    needed (a tenth of a split's cost), and they are linked in one pass.
    """
    if existing.parent is not block:
        raise ValueError("Can't insert operation before operation not in current block")
    linked(block, ops, existing.prev_op, existing)


def link_at_end(block: Block, ops: Sequence[Operation]) -> None:
    """`block.add_ops(ops)` for detached ops without regions, linked in one pass as `link_before` links them."""
    linked(block, ops, block.last_op, None)


def linked(block: Block, ops: Sequence[Operation], previous: Operation | None, following: Operation | None) -> None:
    """Link `ops` into `block` between `previous` and `following` (None: the block's start or end)."""
    for op in ops:
        if op.parent is not None or op.regions:
            raise ValueError("Only detached ops without regions are linked in bulk")
        op.parent = block
        op._prev_op = previous  # pyright: ignore[reportPrivateUsage]
        if previous is None:
            block._first_op = op  # pyright: ignore[reportPrivateUsage]
        else:
            previous._next_op = op  # pyright: ignore[reportPrivateUsage]
        previous = op
    if previous is None:
        return
    previous._next_op = following  # pyright: ignore[reportPrivateUsage]
    if following is None:
        block._last_op = previous  # pyright: ignore[reportPrivateUsage]
    else:
        following._prev_op = previous  # pyright: ignore[reportPrivateUsage]
