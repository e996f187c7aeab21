"""Tests for compiler/irdl_checks.py and irdl_constraints.py: an op's compiled IRDL check accepts what xDSL's
verifier accepts and, on anything else, raises xDSL's own error, on every op of every lit
test, on the zoo's networks and programs and on drawn mutations of their ops."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import fuzz_examples
from hypothesis import given, settings
from hypothesis import strategies as hs
from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    NoneAttr,
    StringAttr,
    TensorType,
    UnitAttr,
    f32,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import IRDLOperation, OpDef
from xdsl.utils.exceptions import DiagnosticException, ParseError
from xdsl.utils.test_value import create_ssa_value

from stc.compiler.ir_files import module_text, parse_source
from stc.compiler.irdl_checks import op_check
from stc.compiler.irdl_constraints import REMEMBERED
from stc.compiler.zoo import build_network
from stc.dialects import get_all_dialects, stc_context
from stc.dialects.integers import i64_array, i64_attr
from stc.dialects.task.attrs import BoxAttr
from stc.passes.stc_pipeline import StcPipelinePass

LIT = Path(__file__).parent.parent / "lit"


def compiled_ops() -> dict[str, type[IRDLOperation]]:
    """stc's ops whose definitions have a compiled check, by name."""
    ops = [op for factory in get_all_dialects().values() for op in factory().operations]
    return {op.name: op for op in ops if "verify" in op.get_irdl_definition().__dict__}  # pyright: ignore[reportAttributeAccessIssue]


def outcome(verify, op: Operation) -> str | None:
    """The error `verify` raises on `op`, None when it passes."""
    try:
        verify(op)
    except (DiagnosticException, ValueError) as error:
        return f"{type(error).__name__}: {error}"
    return None


def check_alike(op: Operation) -> str | None:
    """Verify `op` both ways: the outcomes must be the same; returns it."""
    op_def = type(op).get_irdl_definition()  # pyright: ignore[reportAttributeAccessIssue]
    upstream = outcome(lambda o: OpDef.verify(op_def, o), op)
    assert outcome(op_def.verify, op) == upstream
    return upstream


def compiled(network: str) -> Operation:
    """A zoo network through stc-pipeline for tianjicx: per-core isa programs."""
    module = build_network(network)
    StcPipelinePass(target="tianjicx").apply(Context(), module)
    return module


def stc_ops(module: Operation) -> list[Operation]:
    names = compiled_ops()
    return [op for op in module.walk() if op.name in names]


def test_every_op_has_a_compiled_check():
    """Every op of stc's dialects, those with operands sized by a property too (task.add)."""
    ops = [op for factory in get_all_dialects().values() for op in factory().operations]
    assert [op.name for op in ops if op.name not in compiled_ops()] == []
    assert any(op.get_irdl_definition().options for op in ops)


CHUNKS = [
    (path, index, chunk)
    for path in sorted(LIT.glob("[!x]*/*.mlir"))
    for index, chunk in enumerate(re.split(r"^// -----", path.read_text(), flags=re.MULTILINE))
]


def test_every_op_of_every_lit_test_verifies_alike():
    checked = rejected = 0
    for path, index, chunk in CHUNKS:
        try:
            module = parse_source(stc_context(), chunk.encode(), f"{path.name}#{index}")
        except (DiagnosticException, ParseError, ValueError):
            continue
        for op in stc_ops(module):
            rejected += check_alike(op) is not None
            checked += 1
    assert checked > 1000
    assert rejected > 0  # the invalid-IR tests hold ops that IRDL rejects: they fail alike


@pytest.mark.parametrize("network", ["tiny", "lenet"])
def test_every_op_of_a_network_and_its_programs_verifies_alike(network: str):
    graph = build_network(network)
    programs = compiled(network)
    for module in (graph, programs):
        ops = stc_ops(parse_source(stc_context(), module_text(module).encode(), network))
        assert ops
        assert all(check_alike(op) is None for op in ops)


POOL: list[Attribute] = [
    i64_attr(3),
    IntegerAttr(3, i32),
    StringAttr("x"),
    NoneAttr(),
    UnitAttr(),
    i64,
    i8,
    f32,
    BoxAttr(((0, 1), (0, 2), (0, 2), (0, 4))),
    ArrayAttr([BoxAttr(((0, 1),))]),
    ArrayAttr([i64_attr(1)]),
    ArrayAttr([]),
    i64_array((0, 0, 0, 0)),
    i64_array(()),
    TensorType(i8, [1, 2, 2, 4]),
    TensorType(i32, [4]),
    TensorType(i8, [2]),
    DenseArrayBase.from_list(i32, [2, 0]),
    DenseArrayBase.from_list(i32, [1, 1]),
    DenseArrayBase.from_list(i32, [3, 1]),
    DenseArrayBase.from_list(i32, [-1, 2]),
    DenseArrayBase.from_list(i32, [1, 2]),
    DenseArrayBase.from_list(i32, [2]),
]
"""Attributes a mutation puts where an op's properties and types were."""

MUTATED = [op for op in [*stc_ops(build_network("tiny")), *stc_ops(compiled("tiny"))] if not op.regions]
"""The ops a mutation starts from: those without regions (an op that holds others is
checked on every lit test)."""


def pick(data: hs.DataObject, values: list):
    """One of `values`, drawn by index (hypothesis need not show or compare the values)."""
    return values[data.draw(hs.integers(0, len(values) - 1))]


@settings(max_examples=fuzz_examples(300), deadline=None)
@given(hs.data())
def test_a_mutated_op_verifies_alike(data: hs.DataObject):
    """A property replaced, dropped or added, an operand or result retyped, added or
    dropped: the compiled check raises xDSL's error or passes as xDSL does."""
    original = pick(data, MUTATED)
    properties = dict(original.properties)
    operands = [value.type for value in original.operands]
    results = list(original.result_types)
    for _ in range(data.draw(hs.integers(1, 3))):
        kind = data.draw(hs.sampled_from(["set", "drop", "add", "operand", "result", "operands"]))
        names = sorted(properties)
        if kind == "set" and names:
            properties[pick(data, names)] = pick(data, POOL)
        elif kind == "drop" and names:
            del properties[pick(data, names)]
        elif kind == "add":
            properties[pick(data, ["bogus", "box", "shift", "name", "operandSegmentSizes"])] = pick(data, POOL)
        elif kind == "operand" and operands:
            operands[data.draw(hs.integers(0, len(operands) - 1))] = pick(data, POOL)
        elif kind == "result" and results:
            results[data.draw(hs.integers(0, len(results) - 1))] = pick(data, POOL)
        elif kind == "operands":
            operands = [pick(data, POOL) for _ in range(data.draw(hs.integers(0, 4)))]
    op = type(original).create(
        operands=[create_ssa_value(typ) for typ in operands], result_types=results, properties=properties
    )
    check_alike(op)


def test_a_check_remembers_a_bounded_number_of_attributes():
    """Each check keeps at most REMEMBERED attributes alive; more still verify alike."""
    buffer = next(op for op in MUTATED if op.name == "task.buffer")
    check = op_check(type(buffer).get_irdl_definition())  # pyright: ignore[reportAttributeAccessIssue]
    assert check is not None

    def retyped(typ: Attribute) -> Operation:
        operands = [create_ssa_value(value.type) for value in buffer.operands]
        return type(buffer).create(operands=operands, result_types=[typ], properties=dict(buffer.properties))

    for shape in range(1, REMEMBERED + 10):
        assert check(retyped(TensorType(i8, [1, 1, 1, shape])))
    assert not check(retyped(f32))
    assert check_alike(retyped(f32)) is not None
