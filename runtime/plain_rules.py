"""
The rules of the `task` dialect checked on a task graph read as plain data
(`stc.runtime.plain`), each by the function its op's verifier calls
(`stc.compiler.rules`): a broken rule raises `Unknown`, so that xDSL reads the file and
reports it in its own words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from stc.compiler.rules.blocks import (
    add_problem,
    bias_problem,
    compare_problem,
    consumers_problem,
    conv_weight_problem,
    data_box_problem,
    fc_problem,
    id_problem,
    kind_problem,
    mul_problem,
    names_problem,
    same_shape_problem,
    shift_problem,
    source_problem,
    table_problem,
    window_problem,
)
from stc.compiler.rules.tensors import tensor_problem, width_problem
from stc.compiler.rules.tiling import tiling_error
from stc.runtime.blocks import Block, Graph

Clause = int | tuple[int, ...]


class Compute(NamedTuple):
    """What a compute block's syntax and rules need of its op: its positional operands
    (`inputs`: any number of buffers), whether it takes a bias, the kind of buffer its
    activations come from and its clauses with their defaults (None: required)."""

    operands: tuple[str, ...]
    bias: bool
    input_kind: str
    clauses: Mapping[str, Clause | None]


SHIFT: dict[str, Clause | None] = {"shift": 0}
WINDOW: dict[str, Clause | None] = {"stride": (1, 1), "pad": (0, 0, 0, 0)}
COMPUTE = {
    "task.conv": Compute(("input", "weight"), True, "sic", {**WINDOW, "dilation": (1, 1), **SHIFT}),
    "task.fc": Compute(("input", "weight"), True, "sifc", SHIFT),
    "task.avgpool": Compute(("input",), True, "si", {"window": None, **WINDOW, **SHIFT}),
    "task.maxpool": Compute(("input",), False, "si", {"window": None, **WINDOW, "cmp": -128, **SHIFT}),
    "task.relu": Compute(("input",), False, "si", {"cmp": 0, **SHIFT}),
    "task.lut": Compute(("input", "table"), False, "si", {}),
    "task.add": Compute(("inputs",), True, "si", SHIFT),
    "task.mul": Compute(("lhs", "rhs"), True, "si", SHIFT),
}
"""The compute blocks of the `task` dialect (tests/unit/test_plain.py checks each against its op)."""

DATA = {"task.weight": (4, (8,)), "task.bias": (1, (32,)), "task.table": (1, (8,))}
"""Each data block's rank and element widths."""
ROLES = {"weight": "task.weight", "table": "task.table"}
"""Positional operands that come from data blocks; the others from buffers."""
ACTIVATION = (4, (8, 32))
"""The rank and element widths of inputs' (8 only), buffers' and compute results' tensors."""


class Unknown(Exception):
    """The text is not one this reader takes, or breaks a rule: xDSL reads it."""


Type = tuple[tuple[int, ...], int, str]
"""A tensor type's shape, element width and text."""


def expect(problem: str | None) -> None:
    if problem:
        raise Unknown


def check_graph(graph: Graph, types: Sequence[Type | None]) -> None:
    """Every rule of the graph and its blocks (`task.graph` and each op's `verify_`)."""
    blocks = graph.blocks
    ids: set[int] = set()
    readers: list[list[tuple[Block, int]]] = [[] for _ in blocks]  # per block: who reads it, as which operand
    for position, block in enumerate(blocks):
        expect(id_problem(block.id))
        if block.id in ids:
            raise Unknown
        ids.add(block.id)
        for index, operand in enumerate(block.operands):
            readers[operand].append((block, index))
        CHECKS[block.name](block, types[position], [(blocks[o], types[o]) for o in block.operands])
    expect(names_problem("input", [b.label for b in blocks if b.name == "task.input"]))
    expect(names_problem("output", [b.label for b in blocks if b.name == "task.output"]))
    for block, read in zip(blocks, readers, strict=True):
        if block.name == "task.buffer":
            computes = [f"operand #{i} of {r.name} {r.id}" for r, i in read if r.name != "task.output"]
            expect(consumers_problem(block.label, computes))
        elif block.name in COMPUTE and any(r.name != "task.buffer" for r, _ in read):
            raise Unknown


Operands = Sequence[tuple[Block, "Type | None"]]


def checked_type(typ: Type | None, rank: int, widths: tuple[int, ...]) -> Type:
    assert typ is not None
    expect(tensor_problem(typ[0], typ[1], rank, widths, typ[2]))
    return typ


def check_input(block: Block, typ: Type | None, operands: Operands) -> None:
    checked_type(typ, 4, (8,))


def check_output(block: Block, typ: Type | None, operands: Operands) -> None:
    if operands[0][0].name != "task.buffer":
        raise Unknown


def check_buffer(block: Block, typ: Type | None, operands: Operands) -> None:
    shape, width, _ = checked_type(typ, *ACTIVATION)
    for index, ((source, source_type), (box, offset)) in enumerate(zip(operands, block.pieces, strict=True)):
        if source.name not in COMPUTE and source.name != "task.input":
            raise Unknown
        source_shape, source_width, _ = checked_type(source_type, *ACTIVATION)
        same = source_width == width
        expect(source_problem(index, source_shape, same, source_width, width, box, offset, 4))
    placed = [(offset, tuple(hi - lo for lo, hi in box)) for box, offset in block.pieces]
    expect(tiling_error(shape, placed))


def check_data(block: Block, typ: Type | None, operands: Operands) -> None:
    full_shape, _, text = checked_type((block.full_shape, block.width, ""), *DATA[block.name])
    expect(data_box_problem(block.box, full_shape))
    if block.name == "task.table":
        expect(table_problem(full_shape, block.box is not None, text))


def check_compute(block: Block, typ: Type | None, operands: Operands) -> None:
    """A compute block's rules, as `ComputeBlock.verify_` and its op's checks state them."""
    compute = COMPUTE[block.name]
    result_shape, result_width, _ = checked_type(typ, *ACTIVATION)
    if "shift" in compute.clauses:
        expect(shift_problem(block.int("shift")))
    roles = [*compute.operands] if compute.operands != ("inputs",) else ["inputs"] * (len(operands) - block.has_bias)
    if block.has_bias:
        roles.append("bias")
    activations: list[Type] = []
    for role, (source, source_type) in zip(roles, operands, strict=True):
        kind = "task.bias" if role == "bias" else ROLES.get(role, "task.buffer")
        if source.name != kind:
            raise Unknown
        operand_type = checked_type(source_type, *DATA.get(kind, ACTIVATION))
        if kind == "task.buffer":
            activations.append(operand_type)
            expect(kind_problem(source.id, source.label, compute.input_kind))
    if block.has_bias:
        expect(bias_problem(operands[-1][1][0], None, result_shape[3]))  # pyright: ignore[reportOptionalSubscript]
    SHAPES[block.name](block, result_shape, result_width, activations, [t for _, t in operands])
    if "cmp" in compute.clauses:
        expect(compare_problem(block.int("cmp"), activations[0][1]))


def input8(width: int) -> None:
    expect(width_problem("", width, (8,), None))


def window_shapes(block: Block, result: tuple[int, ...], width: int, activations: list[Type], types: list) -> None:
    input_shape = activations[0][0]
    if block.name == "task.conv":
        input8(activations[0][1])
        weight = types[1][0]
        expect(conv_weight_problem(weight, None, input_shape[3]))
        window, channels = (weight[1], weight[2]), weight[0]
    else:
        window, channels = block.ints("window"), input_shape[3]
    dilation = block.ints("dilation") if "dilation" in block.clauses else (1, 1)
    expect(window_problem(input_shape, window, block.ints("stride"), block.ints("pad"), dilation, channels, result))


def fc_shapes(block: Block, result: tuple[int, ...], width: int, activations: list[Type], types: list) -> None:
    input8(activations[0][1])
    expect(fc_problem(activations[0][0], None, types[1][0], None, result))


def same_shapes(block: Block, result: tuple[int, ...], width: int, activations: list[Type], types: list) -> None:
    if block.name == "task.lut":
        input8(activations[0][1])
        input8(width)
    expect(same_shape_problem(activations[0][0], None, "input", result))


def add_shapes(block: Block, result: tuple[int, ...], width: int, activations: list[Type], types: list) -> None:
    expect(add_problem([(shape, None) for shape, _, _ in activations], result))


def mul_shapes(block: Block, result: tuple[int, ...], width: int, activations: list[Type], types: list) -> None:
    expect(mul_problem([(shape, w, None) for shape, w, _ in activations], result))


SHAPES = {
    "task.conv": window_shapes,
    "task.avgpool": window_shapes,
    "task.maxpool": window_shapes,
    "task.fc": fc_shapes,
    "task.relu": same_shapes,
    "task.lut": same_shapes,
    "task.add": add_shapes,
    "task.mul": mul_shapes,
}
"""Each compute block's shape rules (`verify_roles` and `verify_shapes` of its op)."""

CHECKS = {
    **{name: check_compute for name in COMPUTE},
    "task.buffer": check_buffer,
    **{name: check_data for name in DATA},
    "task.input": check_input,
    "task.output": check_output,
}
