"""Mutated IR never crashes stc-opt: every input ends in success or one clean error (exit 1)."""

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stc.compiler.ir_files import module_text
from stc.compiler.zoo import build_network
from stc.tools.stc_opt import main as stc_opt

SOURCE = module_text(build_network("tiny"))
TOKENS = re.findall(r"\s+|\w+|[^\w\s]", SOURCE)
REPLACEMENTS = ["0", "1", "-1", "2", "7", "1000000", "%0", "%3", "si", "sic", "so", "[", "]", ":", ",", "i32", "x"]


@st.composite
def mutated_sources(draw) -> str:
    tokens = list(TOKENS)
    for _ in range(draw(st.integers(1, 3))):
        index = draw(st.integers(0, len(tokens) - 1))
        action = draw(st.sampled_from(["delete", "replace", "duplicate"]))
        if action == "delete":
            del tokens[index]
        elif action == "replace":
            tokens[index] = draw(st.sampled_from(REPLACEMENTS))
        else:
            tokens.insert(index, tokens[index])
    return "".join(tokens)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(source=mutated_sources())
def test_mutated_ir_ends_cleanly(source, tmp_path, capsys):
    path = tmp_path / "mutated.mlir"
    path.write_text(source)
    try:
        status = stc_opt([str(path), "-p", "task-split{task=4 vector=2,1,1,1}"])
    except SystemExit as exit:
        status = exit.code
    captured = capsys.readouterr()
    assert status in (0, 1)
    if status == 1:
        assert captured.err.startswith("stc-opt: error: ")
        assert "Traceback" not in captured.err


def test_the_unmutated_source_passes(tmp_path, capsys):
    path = tmp_path / "tiny.mlir"
    path.write_text(SOURCE)
    assert stc_opt([str(path)]) == 0
    assert capsys.readouterr().out.startswith("builtin.module {")


@pytest.mark.parametrize(
    "args", [["-p", "task-split{task=4 vector=0,1,1,1}"], ["-p", "task-split{task=999 vector=2,1,1,1}"]]
)
def test_bad_split_requests_end_cleanly(tmp_path, capsys, args):
    path = tmp_path / "tiny.mlir"
    path.write_text(SOURCE)
    with pytest.raises(SystemExit) as exit:
        stc_opt([str(path), *args])
    assert exit.value.code == 1
    assert capsys.readouterr().err.startswith("stc-opt: error: ")
