"""The `task.graph` op: one network as a task graph."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Block, Operation, Region
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, region_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, NoTerminator, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

from stc.dialects.task.base import TaskOp
from stc.dialects.task.storage import InputOp, OutputOp


@irdl_op_definition
class GraphOp(IRDLOperation):
    """
    A network as a task graph: storage and compute blocks in an order where every block
    follows its producers. Block ids are unique, as are input and output names.

    ```mlir
    task.graph @tiny {
      %x = task.input 0 "x" : tensor<1x8x8x16xi8>
      %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
      %r = task.relu 2 %in : tensor<1x8x8x16xi8>
      %out = task.buffer 3 so %r : tensor<1x8x8x16xi8>
      task.output 4 "y" %out
    }
    ```
    """

    name = "task.graph"
    sym_name = prop_def(StringAttr, prop_name="sym_name")
    body = region_def("single_block")
    traits = traits_def(NoTerminator(), IsolatedFromAbove(), SymbolOpInterface())

    def __init__(self, name: str, body: Region | list[Operation] | None = None):
        if not isinstance(body, Region):
            body = Region(Block(body or []))
        if not body.blocks:
            body.add_block(Block())
        super().__init__(properties={"sym_name": StringAttr(name)}, regions=[body])

    @property
    def graph_name(self) -> str:
        return self.sym_name.data

    @property
    def block(self) -> Block:
        return self.body.block

    def tasks(self) -> list[TaskOp]:
        return [op for op in self.block.ops if isinstance(op, TaskOp)]

    def inputs(self) -> list[InputOp]:
        return [op for op in self.block.ops if isinstance(op, InputOp)]

    def outputs(self) -> list[OutputOp]:
        return [op for op in self.block.ops if isinstance(op, OutputOp)]

    def fresh_ids(self) -> Iterator[int]:
        """Unused block ids for new blocks: counting up from one more than the largest in use."""
        return itertools.count(max((op.task_id for op in self.tasks()), default=-1) + 1)

    @classmethod
    def parse(cls, parser: Parser) -> GraphOp:
        name = parser.parse_symbol_name().data
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls(name, parser.parse_region())
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.graph_name)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)

    def verify_(self) -> None:
        seen: dict[int, str] = {}
        for op in self.block.ops:
            if not isinstance(op, TaskOp):
                raise VerifyException(f"task.graph @{self.graph_name} holds only task blocks, got {op.name}")
            if (other := seen.get(op.task_id)) is not None:
                raise VerifyException(
                    f"task.graph @{self.graph_name}: id {op.task_id} is used by both {other} and {op.name}"
                )
            seen[op.task_id] = op.name
        for what, ops in (("input", self.inputs()), ("output", self.outputs())):
            names = [op.properties["name"] for op in ops]
            duplicates = {n.data for n in names if names.count(n) > 1}  # pyright: ignore
            if duplicates:
                raise VerifyException(
                    f"task.graph @{self.graph_name}: {what} name {sorted(duplicates)[0]!r} is used twice"
                )
