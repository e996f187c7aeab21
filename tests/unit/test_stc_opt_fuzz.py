"""Mutated IR never crashes stc-opt: every input ends in success or one clean error (exit 1)."""

import re

import pytest
from conftest import fuzz_examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stc.compiler.ir_files import module_text
from stc.compiler.zoo import build_network
from stc.tools.stc_opt import main as stc_opt

SOURCE = module_text(build_network("tiny"))
TOKENS = re.findall(r"\s+|\w+|[^\w\s]", SOURCE)
REPLACEMENTS = ["0", "1", "-1", "2", "7", "1000000", "99999999999999999999", "%0", "%3", "si", "sic", "so"]
REPLACEMENTS += ["[", "]", ":", ",", "i32", "x", "4294967296", "8589934593", "1" * 1001, "i99999999999", "i128"]
PIPELINE = "task-split{task=4 vector=2,1,1,1}"
PIPELINE_TOKENS = re.findall(r"\w+|[^\w]", PIPELINE)
PIPELINE_REPLACEMENTS = ["{", "}", "=", ",", " ", "[", "]", '"', "abc", "-1", "2.5", "true", "task", "tasks", "fit"]


@st.composite
def mutated(draw, tokens: list[str], replacements: list[str]) -> str:
    tokens = list(tokens)
    for _ in range(draw(st.integers(1, 3))):
        index = draw(st.integers(0, len(tokens) - 1))
        action = draw(st.sampled_from(["delete", "replace", "duplicate"]))
        if action == "delete":
            del tokens[index]
        elif action == "replace":
            tokens[index] = draw(st.sampled_from(replacements))
        else:
            tokens.insert(index, tokens[index])
    return "".join(tokens)


@settings(max_examples=fuzz_examples(200), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(source=mutated(TOKENS, REPLACEMENTS))
def test_mutated_ir_ends_cleanly(source, tmp_path, capsys):
    path = tmp_path / "mutated.mlir"
    path.write_text(source)
    assert_ends_cleanly([str(path), "-p", PIPELINE], capsys)


@settings(max_examples=fuzz_examples(100), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pipeline=mutated(PIPELINE_TOKENS, PIPELINE_REPLACEMENTS))
def test_mutated_pipelines_end_cleanly(pipeline, tmp_path, capsys):
    path = tmp_path / "tiny.mlir"
    path.write_text(SOURCE)
    assert_ends_cleanly([str(path), f"--passes={pipeline}"], capsys)


def assert_ends_cleanly(args: list[str], capsys) -> None:
    try:
        status = stc_opt(args)
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
