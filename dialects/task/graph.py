"""The `task.graph` op: one network as a task graph."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from xdsl.dialects.builtin import StringAttr, SymbolNameConstraint
from xdsl.ir import Block, Operation, Region
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, region_def, traits_def
from xdsl.traits import IsolatedFromAbove, NoTerminator, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

from stc.compiler.rules.blocks import id_problem, names_problem
from stc.dialects.syntax import Body
from stc.dialects.task.base import TaskOp, task_id_of
from stc.dialects.task.storage import InputOp, OutputOp


class IsolatedGraph(IsolatedFromAbove):
    """
    `IsolatedFromAbove` in one pass over a body of ops without regions (a task graph's):
    every operand is a result of an op of the body. Any other body, or an operand from
    elsewhere, is walked by xDSL's check, which raises its own message.
    """

    def verify(self, op: Operation) -> None:
        if len(op.regions) == 1 and len(op.regions[0].blocks) == 1 and (body := op.regions[0].first_block):
            inside = {id(child) for child in body.ops}
            if all(
                not child.regions and all(id(operand.owner) in inside for operand in child.operands)
                for child in body.ops
            ):
                return
        super().verify(op)


@irdl_op_definition
class GraphOp(IRDLOperation):
    """
    A network as a task graph: storage and compute blocks in an order where every block
    follows its producers. Block ids are unique and non-negative, input and output names
    unique; the body takes no arguments.

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
    sym_name = prop_def(SymbolNameConstraint())
    body = region_def("single_block")
    traits = traits_def(NoTerminator(), IsolatedGraph(), SymbolOpInterface())
    assembly_format = "$sym_name attr-dict-with-keyword custom<Body>($body)"
    custom_directives = (Body,)

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

    def verify_(self) -> None:
        graph = f"task.graph @{self.graph_name}"
        if self.block.args:
            raise VerifyException(f"{graph}: the body takes no arguments, got {len(self.block.args)}")
        blocks: dict[int, TaskOp] = {}
        earlier: set[int] = set()  # the identities of the blocks so far (their ids are unique)
        names: dict[str, list[str]] = {"input": [], "output": []}
        for op in self.block.ops:
            if not isinstance(op, TaskOp):
                raise VerifyException(f"{graph} holds only task blocks, got {op.name}")
            task_id = op.task_id
            if problem := id_problem(task_id):
                raise op.error(problem)
            if (other := blocks.get(task_id)) is not None:
                raise VerifyException(f"{graph}: id {task_id} is used by both {other.name} and {op.name}")
            for value in op.operands:
                producer = value.owner
                if id(producer) in earlier:
                    continue
                read = (
                    f"{producer.name} {task_id_of(producer)}" if isinstance(producer, Operation) else "a block argument"
                )
                raise VerifyException(
                    f"{graph}: {op.name} {op.task_id} reads {read}, which does not come before it "
                    "(every block follows its producers)"
                )
            blocks[task_id] = op
            earlier.add(id(op))
            if isinstance(op, InputOp):
                names["input"].append(op.input_name.data)
            elif isinstance(op, OutputOp):
                names["output"].append(op.output_name.data)
        for what, named in names.items():
            if problem := names_problem(what, named):
                raise VerifyException(f"{graph}: {problem}")
