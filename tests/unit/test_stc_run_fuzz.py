"""Mutated task graphs and isa programs never crash stc-run: it executes them or ends in
one clean error (exit 1)."""

import os
import re
from io import BytesIO
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import fuzz_examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stc.compiler.ir_files import module_text
from stc.compiler.zoo import build_network
from stc.tools.stc_run import cli as stc_run
from stc.tools.stc_run import main as stc_run_main

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
    @settings(
        max_examples=fuzz_examples(80), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(source=mutated(level))
    def runs_or_fails_cleanly(source):
        path = tmp_path / f"{level}.mlir"
        path.write_text(source)
        result = CliRunner().invoke(stc_run, [str(path), "--stats"])
        assert result.exit_code in (0, 1), result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        if result.exit_code == 1:
            assert "stc-run: error: " in result.output

    runs_or_fails_cleanly()


# Hostile arguments: every file argument that is not what it should be (a cut or lying
# .npy, a directory, a FIFO, a device, a file that cannot be read or written) ends in one
# message that names the argument, exit 1; a malformed command line is a usage error,
# exit 2. Never a traceback, never an allocation the file does not back.
RELU = """task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x8xi8>
  %in = task.buffer 1 si %x : tensor<1x4x4x8xi8>
  %r = task.relu 2 %in : tensor<1x4x4x8xi8>
  %out = task.buffer 3 so %r : tensor<1x4x4x8xi8>
  task.output 4 "y" %out
}
"""


def npy_bytes(array: np.ndarray) -> bytes:
    out = BytesIO()
    np.save(out, array)
    return out.getvalue()


GOOD_NPY = npy_bytes(np.zeros((1, 8, 4, 4), np.int8))


@st.composite
def hostile_npy(draw) -> bytes:
    kind = draw(st.sampled_from(["cut", "shape", "flipped", "garbage"]))
    if kind == "cut":
        return GOOD_NPY[: draw(st.integers(0, len(GOOD_NPY) - 1))]
    if kind == "shape":
        dims = draw(st.lists(st.integers(0, 10**18), min_size=0, max_size=5))
        shape = repr(tuple(dims)).encode()
        return GOOD_NPY.replace(b"(1, 8, 4, 4)", shape.ljust(12)[: max(12, len(shape))])
    if kind == "flipped":
        data = bytearray(GOOD_NPY)
        index = draw(st.integers(0, len(data) - 1))
        data[index] = draw(st.integers(0, 255))
        return bytes(data)
    return draw(st.binary(max_size=200))


def special_path(kind: str, tmp_path: Path) -> str:
    if kind == "fifo":
        fifo = tmp_path / "fifo"
        if not fifo.exists():
            os.mkfifo(fifo)
        return str(fifo)
    return {"dir": str(tmp_path), "mem": "/proc/self/mem", "null": "/dev/null", "zero": "/dev/zero"}.get(
        kind, str(tmp_path / "missing.npy")
    )


ARGUMENT_KINDS = st.sampled_from(["npy", "npy", "npy", "special", "output", "seed", "compare", "spec"])
SPECIALS = st.sampled_from(["fifo", "dir", "mem", "null", "zero", "missing"])


def test_hostile_arguments_end_in_one_message(tmp_path, capsys):
    graph = tmp_path / "relu.mlir"
    graph.write_text(RELU)
    tried = []

    @settings(
        max_examples=fuzz_examples(120), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(kind=ARGUMENT_KINDS, data=st.data())
    def ends_in_one_message(kind, data):
        if kind == "npy":
            path = tmp_path / "x.npy"
            path.write_bytes(data.draw(hostile_npy()))
            args, role = ["--input", f"x={path}"], "--input x"
        elif kind == "special":
            args, role = ["--input", f"x={special_path(data.draw(SPECIALS), tmp_path)}"], "--input x"
        elif kind == "output":
            target = data.draw(st.sampled_from(["/dev/null", str(tmp_path), "/proc/version", str(tmp_path / "no/x")]))
            args, role = ["-o", target], "-o"
        elif kind == "compare":
            args, role = ["--compare", special_path(data.draw(SPECIALS), tmp_path)], "--compare"
        elif kind == "spec":
            args, role = ["--input", data.draw(st.sampled_from(["x", "=a", "x=", "y=/dev/null"]))], "--input"
        else:
            args, role = (
                ["--seed", data.draw(st.one_of(st.text(max_size=5), st.integers(-(10**30), 10**30).map(str)))],
                "--seed",
            )
        tried.append(kind)
        try:
            stc_run_main([str(graph), *args])
        except SystemExit as exit:
            status = exit.code
        captured = capsys.readouterr()
        assert status in (0, 1, 2), captured
        assert "Traceback" not in captured.err
        if status == 1:
            named = (f"stc-run: error: {role}", "stc-run: error: input 'x' ")  # the file, or the array in it
            assert captured.err.startswith(named), captured.err
            assert captured.err.count("\n") == 1
        if status == 2:
            assert captured.err.startswith("usage: stc-run ")
            assert f"stc-run: error: Invalid value for '{role}'" in captured.err or role in ("--input", "--seed")

    ends_in_one_message()
    assert set(tried) == {"npy", "special", "output", "seed", "compare", "spec"}


# Files the user did not name: a #task.npz path in IR reaches only the IR file's
# directory (and a --data-dir), and a path outside gets one message whether or not the
# file behind it exists, so the IR cannot probe the machine.
NPZ_GRAPH = """task.graph @g {{
  %x = task.input 0 "x" : tensor<1x1x1x2xi8>
  %in = task.buffer 1 si %x : tensor<1x1x1x2xi8>
  %b = task.bias 2 #task.npz<"{path}", "bias"> : tensor<2xi32>
  %y = task.avgpool 3 %in bias %b window [1, 1] : tensor<1x1x1x2xi8>
  %out = task.buffer 4 so %y : tensor<1x1x1x2xi8>
  task.output 5 "y" %out
}}
"""


def test_data_references_stay_inside_the_ir_files_directory(tmp_path, capsys):
    net, secret = tmp_path / "net", tmp_path / "secret"
    net.mkdir()
    secret.mkdir()
    for folder in (net, secret):
        np.savez(folder / "data.npz", bias=np.array([7, -7], np.int32))
    (net / "link.npz").symlink_to(secret / "data.npz")
    (net / "up").symlink_to(tmp_path)
    outside = st.sampled_from(
        ["../secret/data.npz", "../secret/none.npz", str(secret / "data.npz"), "/etc/passwd", "/nonexistent/x.npz"]
        + ["link.npz", "up/secret/data.npz", "./../net/../secret/data.npz", "/proc/self/mem"]
    )
    inside = st.sampled_from(["data.npz", "./data.npz", str(net / "data.npz"), "sub/../data.npz", "none.npz"])
    tried = {"inside": 0, "outside": 0, "widened": 0}

    @settings(
        max_examples=fuzz_examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(where=st.sampled_from(["inside", "outside", "widened"]), data=st.data())
    def stays_inside(where, data):
        reference = data.draw(inside if where == "inside" else outside)
        graph = net / "g.mlir"
        graph.write_text(NPZ_GRAPH.format(path=reference))
        widen = ["--data-dir", str(secret)] if where == "widened" else []
        tried[where] += 1
        try:
            stc_run_main([str(graph), *widen])
        except SystemExit as exit:
            status = exit.code
        err = capsys.readouterr().err
        assert "Traceback" not in err
        if where == "outside":
            assert status == 1
            assert err == (
                f"stc-run: error: task.bias 2: npz file {reference!r} is outside {net} "
                "(the IR file's directory; --data-dir widens it)\n"
            )
        elif status == 1:
            assert err.startswith("stc-run: error: task.bias 2: npz file"), err
            assert ("none.npz' does not exist" in err) or (where == "widened" and "is outside" in err), err

    stays_inside()
    assert min(tried.values()) > 0
