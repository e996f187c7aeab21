"""Tests for compiler/op_lines: reading an op whole gives what xDSL's parser gives, token by
token, on every lit test, on every zoo network (plain, mapped and compiled) and on drawn
mutations of their text: the same module (printed in custom and generic form), or the same
error with the same message and position."""

from __future__ import annotations

from functools import cache
from io import StringIO
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException, ParseError

from stc.compiler.ir_files import StcParser, module_text
from stc.compiler.zoo import build_network, network_names
from stc.dialects import stc_context

LIT = Path(__file__).parent.parent / "lit"


class TokenParser(StcParser):
    """StcParser without whole-op reading: every op through xDSL's parser."""

    def __init__(self, *args: object, **kwargs: object):
        super().__init__(*args, **kwargs)  # pyright: ignore[reportArgumentType]
        self.op_lines.read = lambda: None
        self.op_lines.read_run = lambda: []


def outcome(parser_type: type[StcParser], text: str) -> tuple[str, ...]:
    """What reading `text` gives: the module printed (custom and generic form) and its
    verification, or the error's type and message."""
    try:
        module = parser_type(stc_context(), text, "t.mlir").parse_module()
    except (ParseError, DiagnosticException, ValueError) as error:
        return type(error).__name__, str(error)
    generic = StringIO()
    Printer(stream=generic, print_generic_format=True).print_op(module)
    try:
        module.verify()
    except DiagnosticException as error:  # the custom form of an op that does not verify may not print
        return str(error), generic.getvalue(), names(module)
    return module_text(module), generic.getvalue(), names(module)


def names(module: ModuleOp) -> str:
    """The name hints of every result, in order (the custom form prints its own)."""
    return " ".join(str(result.name_hint) for op in module.walk() for result in op.results)


def lit_chunks() -> list[tuple[str, str]]:
    chunks: list[tuple[str, str]] = []
    for path in sorted(LIT.glob("*/*.mlir")):
        for index, chunk in enumerate(path.read_text().split("// -----")):
            chunks.append((f"{path.parent.name}/{path.name}#{index}", chunk))
    return chunks


@pytest.mark.parametrize(("name", "text"), lit_chunks(), ids=[name for name, _ in lit_chunks()])
def test_every_lit_test_reads_the_same_whole_and_token_by_token(name: str, text: str):
    assert outcome(StcParser, text) == outcome(TokenParser, text)


@cache
def network_texts() -> dict[str, str]:
    """Every zoo network printed, and the smallest ones mapped and compiled for tianjicx."""
    from xdsl.passes import PassPipeline

    from stc.passes import get_all_passes

    texts = {name: module_text(build_network(name)) for name in network_names()}
    passes = get_all_passes()
    for name in ("tiny", "lenet"):
        for stage, pipeline in (
            ("mapped", ["task-split", "st-place", "st-route"]),
            ("compiled", ["stc-pipeline"]),
        ):
            module = build_network(name)
            options = {"task-split": {"fit": "tianjicx"}, "st-place": {"target": "tianjicx"}}
            options["stc-pipeline"] = {"target": "tianjicx"}
            built = [passes[p]()(**options.get(p, {})) for p in pipeline]
            PassPipeline(tuple(built)).apply(stc_context(), module)
            texts[f"{name}-{stage}"] = module_text(module)
    return texts


@pytest.mark.parametrize("name", [*network_names(), "tiny-mapped", "lenet-mapped", "tiny-compiled", "lenet-compiled"])
def test_every_zoo_network_reads_the_same_whole_and_token_by_token(name: str):
    text = network_texts()[name]
    whole = outcome(StcParser, text)
    assert whole == outcome(TokenParser, text)
    assert whole[0] == text


MUTATIONS = ["", " ", "  ", "\n", "// c\n", "%0", "%x", "%999", ",", ":", "[", "]", "<", ">", "{", "}", "-", "0", "7",
             "99999999999999999999", "bias ", "shift ", "stride [1, 1] ", "at [0, 0, 0, 0]", "[0:1, 0:1, 0:1, 0:1]",
             "si ", "so ", "sic ", "tensor<1x1x1x1xi8>", "i32", '"', '"x" ', "#task.random<3>", "loc(unknown)",
             "{st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}", "{a = 1}", "task.relu ", "isa.sync 1",
             "#st.coord<(0, 0, 0, 0), (0, 1 to 0, memory)>", "#st.route<from 0, 8 bytes, []>", "strides [1] ",
             "strides [] ", "sizes [4] ", "sizes [] ", "16 bytes ", "tag 3", "(0, 1)", "(0, 1, 2)", "0x1f", "1.5",
             "x.y", "global ", "local ", "to ", "from ", "#task.npz<\"a.npz\", \"k\">", "\"\"", "%1#0",
             "-1"]  # fmt: skip


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hs.sampled_from(["tiny", "lenet", "tiny-mapped", "tiny-compiled", "lenet-compiled"]),
    hs.lists(hs.tuples(hs.floats(0, 1), hs.integers(0, 12), hs.sampled_from(MUTATIONS)), min_size=1, max_size=3),
)
def test_mutated_networks_read_the_same_whole_and_token_by_token(name: str, edits: list[tuple[float, int, str]]):
    """Text cut, inserted or replaced at drawn places: both readers accept the same
    module or reject it with the same message at the same position."""
    text = network_texts()[name]
    for where, cut, inserted in edits:
        at = int(where * len(text))
        text = text[:at] + inserted + text[at + cut :]
    assert outcome(StcParser, text) == outcome(TokenParser, text)


def test_ops_created_directly_are_those_xdsl_creates():
    """`created` sets the fields `Operation.create` sets, to the same values, and adds the
    property defaults in the same order."""
    from xdsl.dialects.builtin import TensorType, i8
    from xdsl.utils.test_value import create_ssa_value

    from stc.dialects.created import created
    from stc.dialects.integers import i64_attr
    from stc.dialects.task import AddOp

    typ = TensorType(i8, (1, 2, 2, 4))
    operands = [create_ssa_value(typ), create_ssa_value(typ)]
    properties = {"id": i64_attr(3), "shift": i64_attr(1)}
    ops = [
        created(AddOp, operands=operands, result_types=[typ], properties=dict(properties), attributes={}),
        AddOp.create(operands=operands, result_types=[typ], properties=dict(properties), attributes={}),
    ]
    mine, theirs = (vars(op) for op in ops)
    assert mine.keys() == theirs.keys()
    assert list(ops[0].properties.items()) == list(ops[1].properties.items())
    assert [(use.operation, use.index) for use in operands[0].uses] == [(ops[1], 0), (ops[0], 0)]
    assert [(r.type, r.index, r.op) for r in ops[0].results] == [(typ, 0, ops[0])]
    for name in ("attributes", "location", "regions", "_successors", "_successor_uses", "parent"):
        assert getattr(ops[0], name) == getattr(ops[1], name)


def relus(count: int) -> list[Operation]:
    from xdsl.dialects.builtin import TensorType, i8

    from stc.dialects.created import created
    from stc.dialects.integers import i64_attr
    from stc.dialects.task import ReluOp

    typ = TensorType(i8, (1, 1, 1, 4))
    return [created(ReluOp, result_types=[typ], properties={"id": i64_attr(i)}) for i in range(count)]


@given(hs.integers(1, 5), hs.integers(0, 4), hs.integers(0, 4))
def test_ops_linked_in_bulk_are_those_inserted_one_by_one(existing: int, at: int, count: int):
    """`link_before` leaves the block, its ops' order, parents and links as
    `insert_ops_before` does, wherever the ops go."""
    from stc.compiler.op_lines import link_before

    at = min(at, existing - 1)
    blocks = []
    for link in (link_before, lambda block, ops, before: block.insert_ops_before(ops, before)):
        block = Block(relus(existing))
        new = relus(count)
        link(block, new, list(block.ops)[at])
        blocks.append(block)
        order = [op.task_id for op in block.ops]
        backwards, op = [], block.last_op
        while op is not None:
            backwards.append(op.task_id)
            op = op.prev_op
        assert backwards[::-1] == order
        assert all(op.parent is block for op in block.ops)
    mine, theirs = ([op.task_id for op in block.ops] for block in blocks)
    assert mine == theirs
    assert len(mine) == existing + count
    assert blocks[0].first_op is not None
    assert blocks[0].first_op.task_id == mine[0]


@given(hs.integers(0, 4), hs.integers(0, 4))
def test_ops_linked_at_the_end_are_those_added_one_by_one(existing: int, count: int):
    """`link_at_end` leaves the block, its ops' order, parents and links as `add_ops` does."""
    from stc.compiler.op_lines import link_at_end

    blocks = []
    for link in (link_at_end, Block.add_ops):
        block = Block(relus(existing))
        link(block, relus(count))
        blocks.append(block)
        backwards, op = [], block.last_op
        while op is not None:
            assert op.parent is block
            backwards.append(op.task_id)
            op = op.prev_op
        assert backwards[::-1] == [op.task_id for op in block.ops]
    mine, theirs = ([op.task_id for op in block.ops] for block in blocks)
    assert mine == theirs == [*range(existing), *range(count)]
    assert [op.task_id for op in (blocks[0].last_op,) if op is not None] == mine[-1:]


def test_ops_attached_or_holding_regions_are_not_linked_in_bulk():
    from stc.compiler.op_lines import link_before

    block, other = Block(relus(2)), Block(relus(1))
    with pytest.raises(ValueError, match="detached ops without regions"):
        link_before(block, list(other.ops), block.first_op)  # pyright: ignore[reportArgumentType]
    with pytest.raises(ValueError, match="not in current block"):
        link_before(block, relus(1), other.first_op)  # pyright: ignore[reportArgumentType]
