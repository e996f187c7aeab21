"""Tests for compiler/irdl_accessors.py: every named operand, result and region of stc's
ops reads the object IRDL's accessor reads (or raises the same error), on every op of every
lit test and of a network through stc-pipeline; none of IRDL's single accessors is left."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import TensorType, i8
from xdsl.ir import Operation
from xdsl.irdl.operations import AfterVariadicSingleAccessor, BeforeVariadicSingleAccessor
from xdsl.utils.exceptions import DiagnosticException, ParseError

from stc.compiler.ir_files import parse_source
from stc.compiler.irdl_accessors import DirectAccessor
from stc.compiler.zoo import build_network
from stc.dialects import get_all_dialects, stc_context
from stc.dialects.task import ReluOp
from stc.passes.stc_pipeline import StcPipelinePass

LIT = Path(__file__).parent.parent / "lit"
OP_TYPES = [op for factory in get_all_dialects().values() for op in factory().operations]


def accessors(op_type: type) -> dict[str, object]:
    return {name: value for klass in reversed(op_type.__mro__) for name, value in vars(klass).items()}


def read(accessor, op: Operation) -> object:
    """What an accessor reads from `op`, or the type of error it raises."""
    try:
        return accessor.__get__(op, type(op))
    except IndexError as error:
        return type(error)


def check_alike(op: Operation) -> int:
    """Read every direct accessor of `op` both ways; the number compared."""
    compared = 0
    for accessor in accessors(type(op)).values():
        if isinstance(accessor, DirectAccessor):
            assert read(accessor, op) is read(accessor.upstream, op)
            compared += 1
    return compared


def test_no_single_accessor_of_irdl_is_left():
    single = (BeforeVariadicSingleAccessor, AfterVariadicSingleAccessor)
    left = [(op.name, name) for op in OP_TYPES for name, value in accessors(op).items() if type(value) in single]
    assert left == []
    assert sum(isinstance(value, DirectAccessor) for op in OP_TYPES for value in accessors(op).values()) > 20


def test_every_op_of_every_lit_test_reads_alike():
    compared = 0
    for path in sorted(LIT.glob("[!x]*/*.mlir")):
        for index, chunk in enumerate(re.split(r"^// -----", path.read_text(), flags=re.MULTILINE)):
            try:
                module = parse_source(stc_context(), chunk.encode(), f"{path.name}#{index}")
            except (DiagnosticException, ParseError, ValueError):
                continue
            compared += sum(check_alike(op) for op in module.walk())
    assert compared > 2000


@pytest.mark.parametrize("network", ["lenet"])
def test_every_op_of_a_network_and_its_programs_reads_alike(network: str):
    module = build_network(network)
    assert sum(check_alike(op) for op in module.walk()) > 20
    StcPipelinePass(target="tianjicx").apply(Context(), module)
    assert sum(check_alike(op) for op in module.walk()) > 0  # isa ops keep their data in properties


def test_an_op_with_too_few_operands_raises_as_irdl_does():
    """An op built without its operand (as the generic format allows) fails alike."""
    relu = ReluOp.create(operands=[], result_types=[TensorType(i8, [1, 4, 4, 32])])
    for name in ("input", "result"):
        accessor = accessors(ReluOp)[name]
        assert isinstance(accessor, DirectAccessor)
        assert read(accessor, relu) is read(accessor.upstream, relu)
    assert read(accessors(ReluOp)["input"], relu) is IndexError


def test_writing_a_named_operand_is_refused_as_irdl_does():
    relu = next(op for op in build_network("lenet").walk() if isinstance(op, ReluOp))
    with pytest.raises(NotImplementedError, match="Cannot write to named operands"):
        relu.input = relu.input  # pyright: ignore[reportAttributeAccessIssue]
