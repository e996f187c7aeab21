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


def expect(problem: str | None) -> None:
    if problem:
        raise Unknown


def check_graph(graph: Graph) -> None:
    """Every rule of the graph and its blocks (`task.graph` and each op's `verify_`)."""
    blocks = graph.blocks
    ids: set[int] = set()
    readers: list[list[tuple[Block, int]]] = [[] for _ in blocks]  # per block: who reads it, as which operand
    for block in blocks:
        expect(id_problem(block.id))
        if block.id in ids:
            raise Unknown
        ids.add(block.id)
        for index, operand in enumerate(block.operands):
            readers[operand].append((block, index))
        CHECKS[block.name](block, [blocks[o] for o in block.operands])
    expect(names_problem("input", [b.label for b in blocks if b.name == "task.input"]))
    expect(names_problem("output", [b.label for b in blocks if b.name == "task.output"]))
    for block, read in zip(blocks, readers, strict=True):
        if block.name == "task.buffer":
            computes = [f"operand #{i} of {r.name} {r.id}" for r, i in read if r.name != "task.output"]
            expect(consumers_problem(block.label, computes))
        elif block.name in COMPUTE and any(r.name != "task.buffer" for r, _ in read):
            raise Unknown


def check_tensor(block: Block, rank: int, widths: tuple[int, ...]) -> None:
    """The tensor `block` produces (a data block: the box it holds) is one a task graph holds."""
    expect(tensor_problem(block.shape, block.width, rank, widths, ""))


def check_input(block: Block, operands: Sequence[Block]) -> None:
    check_tensor(block, 4, (8,))


def check_output(block: Block, operands: Sequence[Block]) -> None:
    if operands[0].name != "task.buffer":
        raise Unknown


def check_buffer(block: Block, operands: Sequence[Block]) -> None:
    check_tensor(block, *ACTIVATION)
    for index, (source, (box, offset)) in enumerate(zip(operands, block.pieces, strict=True)):
        if source.name not in COMPUTE and source.name != "task.input":
            raise Unknown
        check_tensor(source, *ACTIVATION)
        same = source.width == block.width
        expect(source_problem(index, source.shape, same, source.width, block.width, box, offset, 4))
    placed = [(offset, tuple(hi - lo for lo, hi in box)) for box, offset in block.pieces]
    expect(tiling_error(block.shape, placed))


def check_data(block: Block, operands: Sequence[Block]) -> None:
    expect(tensor_problem(block.full_shape, block.width, *DATA[block.name], ""))
    expect(data_box_problem(block.box, block.full_shape))
    if block.name == "task.table":
        expect(table_problem(block.full_shape, block.box is not None, ""))


def check_compute(block: Block, operands: Sequence[Block]) -> None:
    """A compute block's rules, as `ComputeBlock.verify_` and its op's checks state them."""
    compute = COMPUTE[block.name]
    check_tensor(block, *ACTIVATION)
    if "shift" in compute.clauses:
        expect(shift_problem(block.int("shift")))
    roles = [*compute.operands] if compute.operands != ("inputs",) else ["inputs"] * (len(operands) - block.has_bias)
    if block.has_bias:
        roles.append("bias")
    activations: list[Block] = []
    for role, source in zip(roles, operands, strict=True):
        kind = "task.bias" if role == "bias" else ROLES.get(role, "task.buffer")
        if source.name != kind:
            raise Unknown
        check_tensor(source, *DATA.get(kind, ACTIVATION))
        if kind == "task.buffer":
            activations.append(source)
            expect(kind_problem(source.id, source.label, compute.input_kind))
    if block.has_bias:
        expect(bias_problem(operands[-1].shape, None, block.shape[3]))
    SHAPES[block.name](block, activations, operands)
    if "cmp" in compute.clauses:
        expect(compare_problem(block.int("cmp"), activations[0].width))


def input8(width: int) -> None:
    expect(width_problem("", width, (8,), None))


def window_shapes(block: Block, activations: Sequence[Block], operands: Sequence[Block]) -> None:
    input_shape = activations[0].shape
    if block.name == "task.conv":
        input8(activations[0].width)
        weight = operands[1].shape
        expect(conv_weight_problem(weight, None, input_shape[3]))
        window, channels = (weight[1], weight[2]), weight[0]
    else:
        window, channels = block.ints("window"), input_shape[3]
    dilation = block.ints("dilation") if "dilation" in block.clauses else (1, 1)
    stride, pad = block.ints("stride"), block.ints("pad")
    expect(window_problem(input_shape, window, stride, pad, dilation, channels, block.shape))


def fc_shapes(block: Block, activations: Sequence[Block], operands: Sequence[Block]) -> None:
    input8(activations[0].width)
    expect(fc_problem(activations[0].shape, None, operands[1].shape, None, block.shape))


def same_shapes(block: Block, activations: Sequence[Block], operands: Sequence[Block]) -> None:
    if block.name == "task.lut":
        input8(activations[0].width)
        input8(block.width)
    expect(same_shape_problem(activations[0].shape, None, "input", block.shape))


def add_shapes(block: Block, activations: Sequence[Block], operands: Sequence[Block]) -> None:
    expect(add_problem([(source.shape, None) for source in activations], block.shape))


def mul_shapes(block: Block, activations: Sequence[Block], operands: Sequence[Block]) -> None:
    expect(mul_problem([(source.shape, source.width, None) for source in activations], block.shape))


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
