"""Extreme but legal numbers (phase and step 2^40, spans of 10^8 phases, addresses near
2^63, cores off the mesh) in a mapping script, in a mapped and allocated graph and in an
isa program, through st-apply, st-place, st-route, st-lmem-alloc, isa-lower and the
machine: each ends in a result that computes bit-identically or in one clean error
(exit 1), fast and never in a traceback; a few bombs run under a memory limit."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import fuzz_examples, limited_memory
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stc.tools.stc_opt import main as stc_opt
from stc.tools.stc_run import cli as stc_run

HALO = (Path(__file__).parents[1] / "lit" / "isa-lower" / "halo.mlir").read_text().replace("tianjicx", "set-8x8")
SCRIPT = "".join(line for line in HALO.splitlines(keepends=True) if not line.startswith("//"))
"""A conv and a maxpool split in two row bands on two cores, on a target without a phase limit."""

EXTREMES = [0, 1, 2, 7, 8, 31, 32, 64, 4095, 4096, 10**8, 2**31, 2**32, 2**40, 2**40 + 1, 2**62, 2**63 - 1]
EXTREMES += [2**63, 2**64, -1]
INTEGER = re.compile(r"(?<![\w.%#-])-?\d+(?![\w.])")
"""A plain integer literal: not part of a name, a shape (`1x8xi8`) or a float."""

PIPELINE = "st-apply,st-place,st-route,st-lmem-alloc,isa-lower"


def run_stc_opt(args: list[str], capsys) -> tuple[int, str]:
    try:
        status = stc_opt(args)
    except SystemExit as exit:
        status = exit.code
    captured = capsys.readouterr()
    assert status in (0, 1), captured.err
    if status == 1:
        assert captured.err.startswith("stc-opt: error: "), captured.err
        assert "Traceback" not in captured.err
    return status or 0, captured.err


def run_stc_run(args: list[str]) -> int:
    result = CliRunner().invoke(stc_run, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 1), result.output
    if result.exit_code == 1:
        assert "stc-run: error: " in result.output, result.output
        assert "Traceback" not in result.output
    return result.exit_code


@pytest.fixture(scope="module")
def sources(tmp_path_factory) -> dict[str, str]:
    """The script, the graph it maps with addresses (st-lmem-alloc), and its isa program."""
    folder = tmp_path_factory.mktemp("far")
    (folder / "script.mlir").write_text(SCRIPT)
    for name, passes in (("allocated", "st-apply,st-route,st-lmem-alloc"), ("program", PIPELINE)):
        assert stc_opt([str(folder / "script.mlir"), "-p", passes, "-o", str(folder / f"{name}.mlir")]) == 0
    return {name: (folder / f"{name}.mlir").read_text() for name in ("script", "allocated", "program")}


@st.composite
def extreme(draw, source: str) -> str:
    """`source` with one to three of its integers after the graph's types (in attributes,
    actions and instructions) replaced by extreme values."""
    start = min(i for mark in ("{st.", "st.mapping", "isa.program") if (i := source.find(mark)) >= 0)
    spots = [m for m in INTEGER.finditer(source) if m.start() > start]
    chosen = draw(st.lists(st.sampled_from(spots), min_size=1, max_size=3, unique_by=lambda m: m.start()))
    text, end = [], 0
    for match in sorted(chosen, key=lambda m: m.start()):
        text += [source[end : match.start()], str(draw(st.sampled_from(EXTREMES)))]
        end = match.end()
    return "".join(text) + source[end:]


@st.composite
def fewer_actions(draw, source: str) -> str:
    """`source` without some of its put actions, so st-place places those blocks."""
    lines = source.splitlines(keepends=True)
    puts = [i for i, line in enumerate(lines) if line.lstrip().startswith("st.put")]
    dropped = set(draw(st.lists(st.sampled_from(puts), max_size=3)))
    return "".join(line for i, line in enumerate(lines) if i not in dropped)


@pytest.mark.parametrize("level", ["script", "allocated", "program"])
def test_extreme_numbers_compile_and_run_or_end_in_one_error(level, sources, tmp_path, capsys):
    @settings(max_examples=fuzz_examples(8), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(data=st.data())
    def compiles_and_runs_or_fails_cleanly(data):
        source = data.draw(extreme(sources[level]))
        if level == "script":
            source = data.draw(fewer_actions(source))
        path, out = tmp_path / f"{level}.mlir", tmp_path / "out.mlir"
        path.write_text(source)
        if level == "program":
            run_stc_run([str(path)])
            return
        passes = PIPELINE if level == "script" else "isa-lower"
        status, _ = run_stc_opt([str(path), "-p", passes, "-o", str(out)], capsys)
        if status == 0:  # what compiled computes what the graph does
            assert run_stc_run([str(path), "--compare", str(out)]) == 0

    compiles_and_runs_or_fails_cleanly()


def test_the_unmutated_sources_compile_and_compare(sources, tmp_path, capsys):
    path = tmp_path / "script.mlir"
    path.write_text(sources["script"])
    (tmp_path / "program.mlir").write_text(sources["program"])
    assert run_stc_run([str(path), "--compare", str(tmp_path / "program.mlir")]) == 0
    assert "isa.sync 0" in sources["program"]


def far_script(phase: int, span: int) -> str:
    """The script with every block moved to `phase` and every storage block spanning `span` more phases."""

    def moved(match: re.Match[str]) -> str:
        stage = match.group(2)
        end = f" to {match.group(1)}, (0, {phase + span}, memory)" if stage == "memory" else ""
        return f"{match.group(1)}, (0, {phase}, {stage}){end}"

    body = re.sub(r"(\(0, 0, 0, [01]\)), \(0, 0, (\w+)\)", moved, SCRIPT.split("st.mapping")[1])
    return SCRIPT.split("st.mapping")[0] + "st.mapping" + body


FULL_CORE = """task.graph @full {
  %x = task.input 0 "x" : tensor<1x128x1024x16xi8>
  %a = task.buffer 1 si %x : tensor<1x128x1024x16xi8>
  %b = task.buffer 2 si %x : tensor<1x128x1024x16xi8>
  %r = task.relu 3 %b : tensor<1x128x1024x16xi8>
  %c = task.buffer 4 si %r : tensor<1x128x1024x16xi8>
  %s = task.relu 5 %c : tensor<1x128x1024x16xi8>
  %o = task.buffer 6 so %s : tensor<1x128x1024x16xi8>
  task.output 7 "y" %o
}
st.mapping @full target "tpu-like" {
  st.put_in 1 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1099511627775, memory)
  st.put_group_in 5 at (0, 0, 0, 0), (0, 1099511627776, soma1)
}
"""
"""On the one-core tpu-like, a buffer takes half the memory over phases 0 to 2^40 - 1 and the
second relu is pinned at 2^40: no phase before it has room for the first relu (st-place
once walked all 2^40 of them and ran out of memory)."""


@pytest.mark.parametrize(
    ("source", "error"),
    [
        (far_script(2**40, 10**8), None),
        (far_script(2**62, 2**62), None),
        # only the conv's first piece pinned, at phase 2^40: st-place places the rest around it
        (
            SCRIPT.split("st.mapping")[0] + 'st.mapping @halo target "set-8x8" {\n  st.split_task 4 by [2, 1, 1, 1]\n'
            "  st.put_group_in 12 at (0, 0, 0, 0), (0, 1099511627776, axon)\n}\n",
            None,
        ),
        (FULL_CORE, "no allowed core has room in phases 0 to 1099511627775"),
    ],
    ids=["phase-2^40-span-10^8", "phase-2^62", "pin-2^40-st-place", "full-core-2^40"],
)
def test_far_phases_end_within_seconds_under_a_memory_limit(source: str, error: str | None, tmp_path: Path):
    """Within 60 s and 1 GiB each: programs that run bit-identically, or the one error expected."""
    path, out = tmp_path / "far.mlir", tmp_path / "out.mlir"
    path.write_text(source)
    tools = Path(sys.executable).parent
    compiled = subprocess.run(
        [tools / "stc-opt", path, "-p", PIPELINE, "-o", out],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=limited_memory,
    )
    if error is not None:
        assert compiled.returncode == 1
        assert compiled.stderr.startswith("stc-opt: error: st-place: ")
        assert error in compiled.stderr
        return
    assert compiled.returncode == 0, compiled.stderr
    ran = subprocess.run(
        [tools / "stc-run", path, "--compare", out],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=limited_memory,
    )
    assert ran.returncode == 0, ran.stderr
