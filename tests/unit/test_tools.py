"""The command-line contracts of stc-run and stc-zoo (DESIGN §6)."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from stc.compiler.ir_files import module_text
from stc.compiler.zoo import build_network
from stc.tools.stc_run import cli as stc_run
from stc.tools.stc_zoo import cli as stc_zoo


@pytest.fixture
def lenet_file(tmp_path: Path) -> Path:
    path = tmp_path / "lenet.mlir"
    path.write_text(module_text(build_network("lenet")))
    return path


def run(cli, *args: str):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_stats_are_one_json_object(lenet_file):
    result = run(stc_run, lenet_file, "--stats")
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["macs"] == 416_520
    assert stats["bytes"]["input"] == 32 * 32
    assert stats["bytes"]["output"] == 10
    assert set(stats["bytes"]) == {"input", "output", "si", "sic", "sifc", "so", "weight", "bias", "table"}
    assert stats["bytes"]["weight"] == 6 * 25 + 16 * 6 * 25 + 120 * 400 + 84 * 120 + 10 * 84


def test_inputs_seed_and_saved_outputs(lenet_file, tmp_path):
    x = np.random.default_rng(3).integers(-128, 128, size=(1, 1, 32, 32), dtype=np.int8)
    np.save(tmp_path / "x.npy", x)
    out = tmp_path / "out.npz"
    assert run(stc_run, lenet_file, "--input", f"image={tmp_path / 'x.npy'}", "-o", out).exit_code == 0
    with np.load(out) as saved:
        given = saved["logits"]
    assert given.shape == (1, 10, 1, 1)
    assert run(stc_run, lenet_file, "--seed", 5, "-o", out).exit_code == 0
    with np.load(out) as saved:
        assert not np.array_equal(saved["logits"], given)


def test_compare_identical_and_different(lenet_file, tmp_path):
    same = run(stc_run, lenet_file, "--compare", lenet_file)
    assert same.exit_code == 0
    assert "1 outputs bit-identical" in same.output
    changed = tmp_path / "changed.mlir"
    changed.write_text(lenet_file.read_text().replace("#task.random<2>", "#task.random<999>"))
    different = run(stc_run, lenet_file, "--compare", changed)
    assert different.exit_code == 1
    assert "logits: " in different.output
    assert "elements differ, first at" in different.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--input", "image"], "--input takes NAME=FILE.npy, got 'image'"),
        (["--input", "image=missing.npy"], "--input image: no such file 'missing.npy'"),
    ],
)
def test_bad_arguments_are_one_line_errors(lenet_file, args, message):
    result = run(stc_run, lenet_file, *args)
    assert result.exit_code == 1
    assert f"stc-run: error: {message}" in result.output


def test_bad_ir_is_reported_with_its_position(tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text('task.graph @g {\n  %x = task.input 0 "x" : tensor<1x1x1x1xi8>\n  task.output 1 "y" %x\n}\n')
    result = run(stc_run, bad)
    assert result.exit_code == 1
    assert "stc-run: error: task.output 1: an output reads an activation buffer (task.buffer)" in result.output


def test_zoo_lists_and_writes(tmp_path):
    listing = run(stc_zoo, "--list")
    assert listing.output.split() == ["tiny", "lenet", "resnet18", "resnet50", "vgg19", "darknet19", "googlenet"]
    out = tmp_path / "tiny.mlir"
    assert run(stc_zoo, "tiny", "--batch", 2, "-o", out).exit_code == 0
    assert 'task.input 0 "image" : tensor<2x16x16x3xi8>' in out.read_text()
    unknown = run(stc_zoo, "alexnet")
    assert unknown.exit_code == 1
    assert "unknown network 'alexnet'" in unknown.output


def test_console_scripts_exit_cleanly(lenet_file):
    """The installed entry points, as a user runs them: no traceback on bad input."""
    bin_dir = Path(sys.executable).parent
    result = subprocess.run([bin_dir / "stc-run", lenet_file.parent / "nope.mlir"], capture_output=True, text=True)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "stc-run: error: no such file" in result.stderr
    result = subprocess.run([bin_dir / "stc-opt", lenet_file], capture_output=True, text=True)
    assert result.returncode == 0
    assert result.stdout.startswith("builtin.module {")
