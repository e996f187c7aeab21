"""Progress bars: drawn on stderr when it is a terminal (a pty here), silent otherwise."""

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from stc.compiler.ir_files import module_text
from stc.compiler.progress import progress, track
from stc.compiler.zoo import build_network

PIPELINE = "task-split{fit=tianjicx},st-place{target=tianjicx iterations=3000}"


@pytest.fixture(scope="module")
def lenet_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("progress") / "lenet.mlir"
    path.write_text(module_text(build_network("lenet")))
    return path


def stc_opt(path: Path, stderr) -> subprocess.CompletedProcess:
    command = [Path(sys.executable).parent / "stc-opt", path, "-p", PIPELINE]
    return subprocess.run(command, stdout=subprocess.PIPE, stderr=stderr, timeout=120, check=True)


def stderr_on_terminal(path: Path) -> str:
    """What stc-opt writes to stderr when stderr is a pseudo-terminal."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a fresh pty is 0 wide
    try:
        stc_opt(path, follower)
    finally:
        os.close(follower)
    written = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal is closed once everything was read
            break
        if not chunk:
            break
        written += chunk
    os.close(leader)
    return written.decode(errors="replace")


def test_no_terminal_no_output(lenet_file):
    result = stc_opt(lenet_file, subprocess.PIPE)
    assert result.stderr == b""
    assert b"st.mapping" in result.stdout


def test_bars_on_a_terminal(lenet_file):
    written = stderr_on_terminal(lenet_file)
    assert "task-split: fit" in written
    assert "st-place: annealing" in written
    assert "/3000 " in written  # the annealing counts its moves


def test_silent_helpers_pass_everything_through(capsys):
    assert list(track(iter("abc"), "letters")) == ["a", "b", "c"]
    with progress("work", total=2) as bar:
        bar.advance()
        bar.add_total(3)
        bar.advance(4)
    assert capsys.readouterr().err == ""
