"""The task dialect's Python API: docstring examples, attribute verifiers, fresh ids, and
verifiers that never crash on malformed or misordered IR."""

import re
from io import StringIO
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import TensorType, i8
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException
from xdsl.utils.test_value import create_ssa_value

from stc.compiler.ir_files import stc_context
from stc.compiler.zoo import build_network
from stc.dialects import task

DOCS = Path(__file__).parents[2] / "docs" / "task-dialect.md"
BLOCK_CODES = dict(re.findall(r"^\| `(task\.\w+)` \| (\w+)", DOCS.read_text(), re.MULTILINE))
"""The TianjicX code of every block, from the table in docs/task-dialect.md."""
OPS = [op for op in task.Task.operations if op is not task.GraphOp]


def mlir_example(cls: type) -> str:
    found = re.search(r"```mlir\n(.*?)```", cls.__doc__ or "", re.DOTALL)
    assert found, f"{cls.__name__} has no MLIR example"
    return found.group(1)


def normalized(text: str) -> str:
    return " ".join(text.split())


def test_the_docs_table_lists_every_block():
    assert sorted(BLOCK_CODES) == sorted(op.name for op in OPS)


@pytest.mark.parametrize("op", OPS, ids=lambda op: op.name)
def test_block_docstrings_name_their_tianjicx_code(op):
    assert f"TianjicX {BLOCK_CODES[op.name]}" in op.__doc__


@pytest.mark.parametrize("op", [*OPS, task.GraphOp], ids=lambda op: op.name)
def test_op_docstring_examples_parse_and_print_back_unchanged(op):
    """Each example parses (its undefined operands stand for tensors) and is in canonical form."""
    example = mlir_example(op)
    defined = set(re.findall(r"^\s*%(\w+) =", example, re.MULTILINE))
    parser = Parser(stc_context(), example)
    for name in set(re.findall(r"%(\w+)", example)) - defined:
        value = create_ssa_value(TensorType(i8, (1, 8, 8, 16)))
        value.name_hint = name
        parser.ssa_values[name] = (value,)
    ops: list[Operation] = []
    while (parsed := parser.parse_optional_operation()) is not None:
        ops.append(parsed)
    assert all(isinstance(parsed, op) for parsed in ops)
    assert normalized("\n".join(str(parsed) for parsed in ops)) == normalized(example)


@pytest.mark.parametrize("attr", [task.BoxAttr, task.RandomDataAttr, task.NpzDataAttr], ids=lambda a: a.name)
def test_attribute_docstring_examples_parse_and_print_back_unchanged(attr):
    example = mlir_example(attr).strip()
    parsed = Parser(stc_context(), example).parse_attribute()
    assert isinstance(parsed, attr)
    assert str(parsed) == example


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: task.BoxAttr(((0, 1), (4, 4))), "box interval 4:4 is empty or negative"),
        (lambda: task.RandomDataAttr(-1), r"random seed must be in \[0, 2\^63\), got -1"),
        (lambda: task.NpzDataAttr(("w.npz", "")), "npz path and key must not be empty"),
    ],
)
def test_attributes_built_in_python_are_verified(build, message):
    with pytest.raises(VerifyException, match=message):
        build()


def test_fresh_ids_count_up_from_the_largest_id_in_use(parse_ir):
    graph = parse_ir(
        """task.graph @g {
          %x = task.input 5 "x" : tensor<1x1x1x1xi8>
          %in = task.buffer 2 so %x : tensor<1x1x1x1xi8>
        }"""
    ).body.block.first_op
    assert isinstance(graph, task.GraphOp)
    ids = graph.fresh_ids()
    assert [next(ids), next(ids)] == [6, 7]
    assert next(task.GraphOp("empty").fresh_ids()) == 0


# ---------------------------------------------------------------------------------------
# Verifiers never crash: the generic form of a small network with one tensor type changed
# everywhere it appears and a producer of that type moved behind its consumers (so that they
# verify first), or any block moved anywhere, ends in success or a diagnostic.


def generic_text(module: Operation) -> str:
    out = StringIO()
    Printer(stream=out, print_generic_format=True).print_op(module)
    return out.getvalue()


GENERIC_LINES = generic_text(build_network("tiny")).splitlines()
BLOCK_LINES = [index for index, line in enumerate(GENERIC_LINES) if line.lstrip().startswith(("%", '"task.output'))]
TENSOR_TYPES = sorted({typ for line in GENERIC_LINES for typ in re.findall(r"tensor<[^<>]*>", line)})


def misshapen(typ: str, change: str, draw: st.DrawFn) -> str:
    """`typ` with its rank, element type, a dimension or its encoding changed."""
    *dims, element = typ[len("tensor<") : -1].split("x")
    if change == "encoding":
        return typ[:-1] + ', "enc">'
    if change == "rank":
        dims = dims[: draw(st.integers(0, len(dims) - 1))] if draw(st.booleans()) else [*dims, "2"]
    elif change == "element":
        element = draw(st.sampled_from(["i16", "ui8", "si32", "f32", "i1"]))
    else:
        dims[draw(st.integers(0, len(dims) - 1))] = "?"
    return "tensor<" + "x".join([*dims, element]) + ">"


@st.composite
def broken_graphs(draw: st.DrawFn) -> str:
    lines = list(GENERIC_LINES)
    old = draw(st.sampled_from(TENSOR_TYPES))
    new = misshapen(old, draw(st.sampled_from(["rank", "element", "dynamic", "encoding"])), draw)
    producers = [index for index in BLOCK_LINES if lines[index].endswith(f"-> {old}")]
    source = (
        draw(st.sampled_from(producers)) if producers and draw(st.booleans()) else draw(st.sampled_from(BLOCK_LINES))
    )
    target = BLOCK_LINES[-1] if source in producers else draw(st.sampled_from(BLOCK_LINES))
    lines.insert(target, lines.pop(source))
    return "\n".join(lines).replace(old, new)


@settings(max_examples=80, deadline=None)
@given(text=broken_graphs())
def test_verifiers_end_in_a_diagnostic_on_misshapen_and_misordered_graphs(text):
    try:
        Parser(stc_context(), text).parse_module().verify()
    except (DiagnosticException, ParseError):
        pass
