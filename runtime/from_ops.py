"""Task ops as plain data (`stc.runtime.blocks`), as the golden executor and the machine's
data loads take them."""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase, DenseIntOrFPElementsAttr, IntegerAttr, TensorType
from xdsl.ir import Attribute, Operation

from stc.dialects import task
from stc.dialects.integers import array_values
from stc.dialects.task.attrs import BoxAttr
from stc.dialects.task.base import element_width
from stc.runtime.blocks import Block, Graph


def plain_graph(graph: task.GraphOp) -> Graph:
    """The graph as plain data (a verified graph: every operand an earlier block's result)."""
    positions: dict[Operation, int] = {}
    blocks: list[Block] = []
    for op in graph.block.ops:
        positions[op] = len(blocks)
        operands = tuple(positions[value.owner] for value in op.operands)  # pyright: ignore[reportArgumentType]
        blocks.append(plain_block(op, operands))
    return Graph(graph.graph_name, tuple(blocks))


def plain_block(op: Operation, operands: tuple[int, ...] = ()) -> Block:
    """A verified task block as plain data."""
    assert isinstance(op, task.TaskOp)
    if isinstance(op, task.OutputOp):
        return Block(op.name, op.task_id, operands, label=op.output_name.data)
    result = op.results[0].type
    assert isinstance(result, TensorType)
    shape, width = result.get_shape(), element_width(result) or 0
    if isinstance(op, task.InputOp):
        return Block(op.name, op.task_id, operands, shape, width, label=op.input_name.data)
    if isinstance(op, task.BufferOp):
        pieces = tuple((box.data, offset) for _, box, offset in op.pieces)
        return Block(op.name, op.task_id, operands, shape, width, label=op.kind.data.value, pieces=pieces)
    if isinstance(op, task.DataOp):
        return data_block(op.name, op.task_id, op.data, op.full_type, op.box)
    assert isinstance(op, task.ComputeBlock)
    clauses = {name: clause_value(op.properties[name]) for name in op.CLAUSES}
    return Block(op.name, op.task_id, operands, shape, width, clauses, op.optional_bias is not None)


def data_block(name: str, task_id: int, data: Attribute, full_type: TensorType, box: BoxAttr | None) -> Block:
    """A data block's reference and box (a `task.weight` and the like, or an `isa.data`
    of that kind) as plain data."""
    full_shape = full_type.get_shape()
    shape, region = (full_shape, None) if box is None else (box.shape, box.data)
    width = element_width(full_type) or 0
    return Block(name, task_id, (), shape, width, data=data_reference(data), full_shape=full_shape, box=region)


def clause_value(value: Attribute) -> int | tuple[int, ...]:
    """An integer or integer-list property's value."""
    if isinstance(value, DenseArrayBase):
        return array_values(value)
    assert isinstance(value, IntegerAttr)
    return value.value.data


def data_reference(data: object) -> tuple[str, object]:
    """A data block's reference as plain data."""
    if isinstance(data, task.RandomDataAttr):
        return "random", data.data
    if isinstance(data, task.NpzDataAttr):
        return "npz", (data.path, data.key)
    assert isinstance(data, DenseIntOrFPElementsAttr)
    return "dense", tuple(data.get_values())
