"""Tests for runtime/plain: the plain-data reader of `stc-run` takes only what xDSL's reader
accepts and verifies, and reads it to the same graph, on every lit test, on every zoo
network (plain and mapped) and on drawn mutations of them; its tables of compute blocks,
operand roles and tensors are the dialect's."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from test_op_lines import MUTATIONS, lit_chunks, network_texts
from xdsl.utils.exceptions import DiagnosticException, ParseError

from stc.compiler.diagnostics import StcError
from stc.compiler.references import references_within
from stc.compiler.spelling import STAGE_NAMES
from stc.compiler.zoo import network_names
from stc.dialects import task
from stc.dialects.st import Stage
from stc.dialects.syntax import clause_default
from stc.runtime.blocks import Graph
from stc.runtime.from_ops import clause_value, plain_graph
from stc.runtime.golden import find_graph
from stc.runtime.plain import read_plain
from stc.runtime.plain_rules import ACTIVATION, COMPUTE, DATA, ROLES
from stc.tools.stc_run import plain_graph as graph_of_bytes
from stc.tools.stc_run import read_confined


def xdsl_graph(text: str, tmp_path: Path):
    """The plain graph of what xDSL reads and verifies from `text`, or None when it rejects it."""
    path = tmp_path / "t.mlir"
    path.write_text(text)
    try:
        module = read_confined(path, "", (), plain=False)
        return plain_graph(find_graph(module))
    except (ParseError, DiagnosticException, StcError, ValueError):
        return None


def agree(text: str, tmp_path: Path) -> bool:
    """Whether the plain reader takes `text`; when it does, xDSL must read the same graph."""
    with references_within((tmp_path,)):
        read = read_plain(text)
    if read is None:
        return False
    assert read == xdsl_graph(text, tmp_path)
    return True


@pytest.mark.parametrize(("name", "text"), lit_chunks(), ids=[name for name, _ in lit_chunks()])
def test_every_lit_test_the_plain_reader_takes_is_xdsl_s_graph(name: str, text: str, tmp_path: Path):
    agree(text, tmp_path)


@pytest.mark.parametrize("name", [*network_names(), "tiny-mapped", "lenet-mapped"])
def test_every_zoo_network_is_read_plain_to_xdsl_s_graph(name: str, tmp_path: Path):
    """Every network, but those with inline `dense<...>` data, which xDSL reads."""
    text = network_texts()[name]
    assert agree(text, tmp_path) == ("dense<" not in text)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(
    name=hs.sampled_from(["tiny", "lenet", "tiny-mapped", "lenet-mapped"]),
    edits=hs.lists(hs.tuples(hs.floats(0, 1), hs.integers(0, 12), hs.sampled_from(MUTATIONS)), min_size=1, max_size=3),
)
def test_mutated_networks_read_plain_only_as_xdsl_reads_them(
    name: str, edits: list[tuple[float, int, str]], tmp_path: Path
):
    """Text cut, inserted or replaced at drawn places: what the plain reader takes, xDSL
    reads and verifies to the same graph."""
    text = network_texts()[name]
    for where, cut, inserted in edits:
        at = int(where * len(text))
        text = text[:at] + inserted + text[at + cut :]
    agree(text, tmp_path)


INTEGER = re.compile(r"(?<![%\w])-?[0-9]+")
"""An integer of the text (ids, sizes, boxes, offsets, clauses, coordinates), not a value's name."""


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(
    name=hs.sampled_from(["lenet", "lenet-mapped", "resnet18"]),
    edits=hs.lists(
        hs.tuples(hs.floats(0, 1), hs.sampled_from([0, 1, 2, 3, 4, 7, 8, 16, 31, 32, 64, 127, 128, 255, 256, 10**6])),
        min_size=1,
        max_size=2,
    ),
)
def test_networks_with_integers_changed_are_read_plain_exactly_when_xdsl_accepts_them(
    name: str, edits: list[tuple[float, int]], tmp_path: Path
):
    """Integers replaced at drawn places, the text still spelled as stc prints it: the
    rules alone decide, and the plain reader takes the text exactly when xDSL reads and
    verifies it, to the same graph."""
    text = network_texts()[name]
    for where, value in edits:
        found = list(INTEGER.finditer(text))
        match = found[int(where * (len(found) - 1))]
        text = text[: match.start()] + str(value) + text[match.end() :]
    assert agree(text, tmp_path) == (xdsl_graph(text, tmp_path) is not None)


def test_a_file_that_is_not_utf8_is_left_to_xdsl():
    assert graph_of_bytes(b"task.graph @g {\xff\n}\n") is None


@pytest.mark.parametrize("op_type", [task.ConvOp, task.FcOp, task.AvgPoolOp, task.MaxPoolOp, task.ReluOp, task.LutOp,
                                     task.AddOp, task.MulOp])  # fmt: skip
def test_the_table_of_compute_blocks_is_the_dialect_s(op_type: type[task.ComputeBlock]):
    compute = COMPUTE[op_type.name]
    assert compute.operands == op_type.OPERAND_NAMES
    assert compute.bias == op_type.has_bias()
    assert compute.input_kind == op_type.INPUT_KIND.value
    assert set(op_type.DATA_ROLES) <= set(compute.operands)
    defaults = {name: clause_default(op_type, name) for name in op_type.CLAUSES}
    assert compute.clauses == {name: None if d is None else clause_value(d) for name, d in defaults.items()}
    for name in compute.operands:
        assert ROLES.get(name, "task.buffer") == op_type.DATA_ROLES.get(name, task.BufferOp).name


def test_the_tensors_of_data_blocks_and_buffers_are_the_dialect_s():
    for op_type in (task.WeightOp, task.BiasOp, task.TableOp):
        assert DATA[op_type.name] == (op_type.RANK, op_type.ELEMENT_WIDTHS)
    assert ACTIVATION == (task.BufferOp.RANK, task.BufferOp.ELEMENT_WIDTHS)


def test_the_stages_spelled_are_the_dialect_s():
    assert STAGE_NAMES == tuple(stage.value for stage in Stage)


RUN_AND_LIST_XDSL = """
import sys
from stc.tools.stc_run import main
try:
    main(sys.argv[1:])
except SystemExit as end:
    assert end.code == 0, end.code
print(" ".join(sorted(name for name in sys.modules if name.startswith("xdsl"))))
"""


def test_stc_run_runs_a_mapped_graph_without_xdsl_s_ir(tmp_path: Path):
    """The plain path imports only xDSL's exception classes (which stc's errors name)."""
    path = tmp_path / "mapped.mlir"
    path.write_text(network_texts()["lenet-mapped"])
    assert isinstance(read_confined(path, "", ()), Graph)
    command = [sys.executable, "-c", RUN_AND_LIST_XDSL, str(path), "-o", str(tmp_path / "out.npz")]
    printed = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    assert printed.split() == ["xdsl", "xdsl.utils", "xdsl.utils.exceptions"]
