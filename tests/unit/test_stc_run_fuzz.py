"""Mutated task graphs and isa programs never crash stc-run: it executes them or ends in
one clean error (exit 1)."""

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stc.compiler.ir_files import module_text
from stc.compiler.zoo import build_network
from stc.tools.stc_run import cli as stc_run

SOURCES = {
    "task": module_text(build_network("tiny")),
    "isa": (Path(__file__).parents[1] / "lit" / "isa" / "conv-4core.mlir").read_text(),
}
REPLACEMENTS = ["0", "1", "2", "3", "8", "16", "32", "-1", "255", "256", "99999999999999999999", "%0", "%3", "si"]
REPLACEMENTS += ["4294967296", "8589934593", "1" * 1001, "i99999999999", "i128"]
REPLACEMENTS += ["[", "]", ",", "i32"]


@st.composite
def mutated(draw, level: str) -> str:
    tokens = re.findall(r"\s+|\w+|[^\w\s]", SOURCES[level])
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


@pytest.mark.parametrize("level", sorted(SOURCES))
def test_mutated_modules_run_or_fail_cleanly(level, tmp_path):
    @settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(source=mutated(level))
    def check(source):
        path = tmp_path / f"{level}.mlir"
        path.write_text(source)
        result = CliRunner().invoke(stc_run, [str(path), "--stats"])
        assert result.exit_code in (0, 1), result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        if result.exit_code == 1:
            assert "stc-run: error: " in result.output

    check()
