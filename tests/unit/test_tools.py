"""The command-line contracts of stc-opt, stc-run and stc-zoo (DESIGN §6)."""

import json
import re
import subprocess
import sys
from io import BytesIO
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import limited_memory
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.ir_files import module_text
from stc.compiler.zoo import build_network
from stc.tools import bench_search
from stc.tools.bench_search import machine_cases
from stc.tools.stc_opt import main as stc_opt
from stc.tools.stc_run import cli as stc_run
from stc.tools.stc_zoo import cli as stc_zoo

RELU = """task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x8xi8>
  %in = task.buffer 1 si %x : tensor<1x4x4x8xi8>
  %r = task.relu 2 %in : tensor<1x4x4x8xi8>
  %out = task.buffer 3 so %r : tensor<1x4x4x8xi8>
  task.output 4 "y" %out
}
"""


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
    assert f"stc-run: error: {bad}: task.output 1: an output reads an activation buffer (task.buffer)" in result.output


def test_zoo_lists_and_writes(tmp_path):
    listing = run(stc_zoo, "--list")
    assert listing.output.split() == [
        "tiny",
        "lenet",
        "resnet18",
        "resnet50",
        "resnet50-v1",
        "vgg19",
        "vgg19-conv",
        "darknet19",
        "googlenet",
    ]
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


def test_console_scripts_that_end_at_once_write_all_their_output(lenet_file, tmp_path):
    """stc-run and stc-opt end without Python's teardown (`exit_at_once`): what they print
    or write is whole, and the exit code is the run's, as when run in process."""
    bin_dir = Path(sys.executable).parent
    printed = subprocess.run([bin_dir / "stc-opt", lenet_file], capture_output=True, text=True, check=True)
    saved = tmp_path / "lenet.mlir"
    subprocess.run([bin_dir / "stc-opt", lenet_file, "-o", saved], check=True)
    assert saved.read_text() == printed.stdout
    assert printed.stdout.rstrip().endswith("}")
    outputs = tmp_path / "out.npz"
    run = subprocess.run([bin_dir / "stc-run", lenet_file, "--stats", "-o", outputs], capture_output=True, text=True)
    assert run.returncode == 0
    assert json.loads(run.stdout)["outputs"]
    with np.load(outputs) as archive:
        assert {name.removesuffix(".npy") for name in archive.files} == set(json.loads(run.stdout)["outputs"])
    compare = [bin_dir / "stc-run", lenet_file, "--compare", lenet_file]
    compared = subprocess.run(compare, capture_output=True, text=True)
    assert (compared.returncode, compared.stdout.strip()) == (0, "1 outputs bit-identical")


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def write_bytes(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def npy(path: Path, array: np.ndarray) -> Path:
    np.save(path, array, allow_pickle=True)
    return path


def npz(path: Path, **arrays: np.ndarray) -> Path:
    np.savez(path, **arrays)
    return path


def npy_bytes(array: np.ndarray) -> bytes:
    out = BytesIO()
    np.save(out, array)
    return out.getvalue()


@pytest.mark.parametrize(
    ("make_input", "message"),
    [
        (
            lambda d: write(d / "x.txt", "1 2 3 4 5 6 7 8\n"),
            r"'.*x.txt' is not an .npy array of numbers \(the magic string is not correct",
        ),
        (
            lambda d: npy(d / "objects.npy", np.array([1, "a", None], dtype=object)),
            r"'.*objects.npy' holds Python objects, not numbers",
        ),
        (
            lambda d: write_bytes(d / "cut.npy", npy_bytes(np.zeros((1, 8, 4, 4), np.int8))[:-5]),
            r"'.*cut.npy': its header declares int8\[1, 8, 4, 4\], 128 bytes, but 123 follow",
        ),
        (
            lambda d: npz(d / "x.npz", x=np.zeros((1, 8, 4, 4), np.int8)),
            r"'.*x.npz' is an .npz archive; give each input as an .npy file",
        ),
        (lambda d: npy(d / "f.npy", np.zeros((1, 8, 4, 4))), "input 'x' must hold int8 values, got float64"),
        (lambda d: npy(d / "b.npy", np.zeros((1, 8, 4, 4), bool)), "input 'x' must hold int8 values, got bool"),
        (lambda d: npy(d / "s.npy", np.full((1, 8, 4, 4), "a")), "input 'x' must hold int8 values, got <U1"),
    ],
)
def test_bad_input_files_are_one_line_errors(tmp_path, make_input, message):
    graph = write(tmp_path / "relu.mlir", RELU)
    result = run(stc_run, graph, "--input", f"x={make_input(tmp_path)}")
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)
    assert re.fullmatch(f"stc-run: error: (--input x: )?{message}.*\n", result.output)


@pytest.mark.parametrize(
    ("tool", "args", "message"),
    [
        ("stc-run", ["--seed", "-1"], "Invalid value for '--seed': -1 is not in the range x>=0."),
        ("stc-run", ["--seed", "abc"], "Invalid value for '--seed': 'abc' is not a valid integer."),
        ("stc-run", ["--bogus"], "No such option '--bogus'."),
        ("stc-zoo", ["lenet", "--batch", "0"], "Invalid value for '--batch': 0 is not in the range x>=1."),
        ("stc-opt", ["--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_usage_errors_are_exit_2_in_every_tool(tmp_path, tool, args, message):
    graph = write(tmp_path / "relu.mlir", RELU)
    result = subprocess.run([Path(sys.executable).parent / tool, graph, *args], capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr.startswith(f"usage: {tool} ")
    assert result.stderr.endswith(f"{tool}: error: {message}\n")


@pytest.mark.parametrize("tool", ["stc-run", "stc-opt"])
def test_non_utf8_ir_is_an_error_at_its_position(tmp_path, tool):
    bad = write_bytes(tmp_path / "bad.mlir", RELU.replace('"y"', '"\xff"').encode("latin-1"))
    result = subprocess.run([Path(sys.executable).parent / tool, bad], capture_output=True, text=True)
    assert result.returncode == 1
    assert result.stderr == f"{tool}: error: {bad}:6:18: byte 0xff is not UTF-8 (IR is UTF-8 text)\n"


def test_out_of_range_dense_data_is_an_error_at_its_op(tmp_path):
    ir = RELU.replace("  %out =", "  %w = task.weight 5 dense<300> : tensor<1x1x1x8xi8>\n  %out =")
    result = run(stc_run, write(tmp_path / "dense.mlir", ir))
    assert result.exit_code == 1
    assert result.output.startswith(f"stc-run: error: {tmp_path / 'dense.mlir'}:5:3\n  %w = task.weight 5 dense<300>")
    assert "Integer value 300 is out of range for type i8" in result.output


def test_huge_tensors_are_reported_by_block_and_bytes(tmp_path):
    huge_weight = RELU.replace(
        "  %out =", "  %w = task.weight 5 #task.random<1> : tensor<99999x99999x99999x8xi8>\n  %out ="
    )
    result = run(stc_run, write(tmp_path / "weight.mlir", huge_weight))
    assert result.exit_code == 1
    assert result.output.endswith(
        "task.weight 5: data holds 7999760002399992 bytes, more than any target holds (8589934592 bytes), "
        "in tensor<99999x99999x99999x8xi8>\n"
    )


@pytest.mark.parametrize(
    ("replace", "message"),
    [
        (("  %out =", "  %w = task.weight 5 #task.random<1> : tensor<2048x1024x1024x1xi8>\n  %out ="), "task.weight 5"),
        (("1x4x4x8", "1x2048x1024x1024"), "input 'x'"),
    ],
)
def test_running_out_of_memory_names_the_block(tmp_path, replace, message):
    """Within the bound (2 GiB) but past the memory the process may take (1 GiB)."""
    ir = write(tmp_path / "big.mlir", RELU.replace(*replace))
    stc_run_bin = Path(sys.executable).parent / "stc-run"
    result = subprocess.run([stc_run_bin, ir], capture_output=True, text=True, timeout=120, preexec_fn=limited_memory)
    assert result.returncode == 1
    assert re.fullmatch(
        rf"stc-run: error: {message}: out of memory \(Unable to allocate [\d.]+ GiB .*\)\n", result.stderr
    )


def test_outputs_with_any_name_are_saved(tmp_path):
    """np.savez takes names as keyword arguments: `file` broke it, `allow_pickle` vanished."""
    ir = RELU.replace('"y"', '"file"').replace(
        "  task.output 4",
        '  %out2 = task.buffer 5 so %r : tensor<1x4x4x8xi8>\n  task.output 6 "allow_pickle" %out2\n  task.output 4',
    )
    out = tmp_path / "outputs"
    result = run(stc_run, write(tmp_path / "names.mlir", ir), "-o", out)
    assert result.exit_code == 0, result.output
    with np.load(out) as saved:
        assert sorted(saved.files) == ["allow_pickle", "file"]
        assert np.array_equal(saved["file"], saved["allow_pickle"])
        assert saved["file"].dtype == np.int8
        assert saved["file"].shape == (1, 8, 4, 4)


def test_outputs_have_the_graphs_element_type_whatever_the_input_dtype(tmp_path):
    passthrough = """task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x8xi8>
  %out = task.buffer 1 so %x : tensor<1x4x4x8xi8>
  task.output 2 "y" %out
}
"""
    x = np.arange(-64, 64, dtype=np.int64).reshape(1, 8, 4, 4)
    out = tmp_path / "out.npz"
    result = run(
        stc_run, write(tmp_path / "copy.mlir", passthrough), "--input", f"x={npy(tmp_path / 'x.npy', x)}", "-o", out
    )
    assert result.exit_code == 0, result.output
    with np.load(out) as saved:
        assert saved["y"].dtype == np.int8
        assert np.array_equal(saved["y"], x)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('"x"', '"z"'), r"input 'x' is NCHW \[1, 8, 4, 4\] in .*a.mlir but missing in .*b.mlir"),
        (("1x4x4x8", "1x4x2x8"), r"input 'x' is NCHW \[1, 8, 4, 4\] in .*a.mlir but NCHW \[1, 8, 4, 2\] in .*b.mlir"),
        (
            ("  %in =", '  %x2 = task.input 9 "x2" : tensor<1x2x2x8xi8>\n  %in ='),
            r"input 'x2' is missing in .*a.mlir but NCHW \[1, 8, 2, 2\] in .*b.mlir",
        ),
    ],
)
def test_compare_needs_the_same_inputs(tmp_path, change, message):
    a = write(tmp_path / "a.mlir", RELU)
    b = write(tmp_path / "b.mlir", RELU.replace(*change))
    result = run(stc_run, a, "--compare", b)
    assert result.exit_code == 1
    assert re.fullmatch(f"stc-run: error: --compare: {message}\n", result.output)


def test_compare_names_the_file_that_does_not_verify(tmp_path):
    a = write(tmp_path / "a.mlir", RELU)
    b = write(tmp_path / "b.mlir", RELU.replace('task.output 4 "y" %out', 'task.output 4 "y" %r'))
    result = run(stc_run, a, "--compare", b)
    assert result.exit_code == 1
    assert (
        result.output
        == f"stc-run: error: {b}: task.relu 2: a compute result is read only by buffers, not by task.output\n"
    )


def test_compare_draws_inputs_once_whatever_their_order(tmp_path):
    """Random inputs drawn per file in its own input order would differ."""
    passthrough = """task.graph @g {{
  {first}
  {second}
  %oa = task.buffer 2 so %a : tensor<1x2x2x8xi8>
  %ob = task.buffer 3 so %b : tensor<1x2x2x8xi8>
  task.output 4 "ya" %oa
  task.output 5 "yb" %ob
}}
"""
    a_input = '%a = task.input 0 "a" : tensor<1x2x2x8xi8>'
    b_input = '%b = task.input 1 "b" : tensor<1x2x2x8xi8>'
    one = write(tmp_path / "one.mlir", passthrough.format(first=a_input, second=b_input))
    other = write(tmp_path / "other.mlir", passthrough.format(first=b_input, second=a_input))
    result = run(stc_run, one, "--compare", other)
    assert result.exit_code == 0, result.output
    assert result.output == "2 outputs bit-identical\n"


def test_stats_with_compare_is_one_json_object(lenet_file, tmp_path):
    same = run(stc_run, lenet_file, "--stats", "--compare", lenet_file)
    assert same.exit_code == 0
    assert json.loads(same.output)["compare"] == {"file": str(lenet_file), "bit_identical": True, "differences": []}
    changed = write(tmp_path / "changed.mlir", lenet_file.read_text().replace("#task.random<2>", "#task.random<999>"))
    different = run(stc_run, lenet_file, "--stats", "--compare", changed)
    assert different.exit_code == 1
    report = json.loads(different.output)
    assert report["macs"] == 416_520
    assert report["compare"]["bit_identical"] is False
    assert [line.split(":")[0] for line in report["compare"]["differences"]] == ["logits"]


@pytest.mark.parametrize(
    ("passes", "message"),
    [
        ("task-split{task=3", "malformed -p argument at pass-pipeline:1:18"),
        ("task-split{task=4 vector=}", "malformed -p argument at pass-pipeline:1:26"),
        ("task-split{task=abc}", "task-split: option task takes an integer, got task=abc"),
    ],
)
def test_bad_pipelines_end_cleanly(tmp_path, capsys, passes, message):
    with pytest.raises(SystemExit) as exit:
        stc_opt([str(write(tmp_path / "relu.mlir", RELU)), "-p", passes])
    assert exit.value.code == 1
    assert capsys.readouterr().err.startswith(f"stc-opt: error: {message}")


def test_bench_compile_prints_each_pass_the_verify_share_and_the_scaling_exponent():
    from stc.tools.bench_compile import main as bench_compile
    from stc.tools.bench_compile import scaling_exponent

    assert scaling_exponent([1, 2, 8], [3, 6, 24]) == pytest.approx(1.0)
    assert scaling_exponent([1, 2, 8], [1, 4, 64]) == pytest.approx(2.0)
    result = CliRunner().invoke(bench_compile, ["-n", "lenet", "-b", "2", "-b", "1", "--runs", "2"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line for line in lines if line.startswith("lenet -> tianjicx, batch")] == [
        "lenet -> tianjicx, batch 1",
        "lenet -> tianjicx, batch 2",
    ]
    stages = ["task-split", "st-place", "st-route", "st-lmem-alloc", "isa-lower"]
    for stage in [*stages, "total"]:
        rows = [line for line in lines if line.split()[:1] == [stage]]
        assert len(rows) == 2
        assert all(re.search(r"\d+ ops  min +[\d.]+ s  median +[\d.]+ s.* peak +[\d.]+ MiB$", row) for row in rows)
    share = r"  verify share +min [\d.]+%  median [\d.]+%;  [\d,]+ ops/s"
    assert len([line for line in lines if re.match(share, line)]) == 2
    exponent = r"lenet -> tianjicx: time ~ MACs\^-?[\d.]+ over batches 1, 2; against batch 1: batch 2: "
    assert re.match(exponent, lines[-1])
    usage = CliRunner().invoke(bench_compile, ["--runs", "0"])
    assert usage.exit_code == 2


def test_stc_opt_verifies_what_changed_or_everything_with_verify_each(lenet_file, tmp_path, capsys):
    """Both print the same; a pass that breaks an op is caught either way (here the
    input: a relu reading a conv's buffer kind)."""
    passes = "task-split{fit=tianjicx},st-place{target=tianjicx},st-route,st-lmem-alloc,isa-lower"
    outputs = []
    for flags in ([], ["--verify-each"]):
        out = tmp_path / f"out{len(flags)}.mlir"
        assert stc_opt([str(lenet_file), "-p", passes, "-o", str(out), *flags]) in (0, None)
        outputs.append(out.read_text())
    assert outputs[0] == outputs[1]
    assert "isa.program" in outputs[0]
    bad = write(tmp_path / "bad.mlir", RELU.replace("task.buffer 1 si", "task.buffer 1 sic"))
    for flags in ([], ["--verify-each"]):
        with pytest.raises(SystemExit) as exit:
            stc_opt([str(bad), "-p", "st-place{target=tianjicx}", *flags])
        assert exit.value.code == 1
        assert "reads buffer 1 of kind sic, expected si" in capsys.readouterr().err


def test_bench_anneal_prints_both_kinds_of_rounds_and_every_move():
    from stc.compiler.search.moves import MOVES
    from stc.tools.bench_anneal import main as bench_anneal

    result = CliRunner().invoke(bench_anneal, ["--only", "lenet", "--rounds-per-layer", "2", "--seeds", "1"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "lenet b1 on tianjicx: 7 layers, 14 rounds, seeds 0-0"
    assert [line.split()[0] for line in lines if line.startswith("  SET") or line.startswith("  stc")] == ["SET", "stc"]
    for move in MOVES:
        assert sum(line.split()[0] == move.__name__ for line in lines) == 2


def test_bench_search_machine_runs_each_case_or_only_those_asked():
    """`bench_search --machine` runs tiny, LeNet and ResNet-18 on three targets at batch 1
    and 2, or only the network, target and batch given (any of the zoo at any batch)."""
    assert len(machine_cases(None, None, None)) == 18
    assert machine_cases("resnet18", "tianjicx", None) == (("resnet18", "tianjicx", 1), ("resnet18", "tianjicx", 2))
    assert machine_cases("darknet19", "set-8x8", 8) == (("darknet19", "set-8x8", 8),)


def test_bench_search_machine_reports_a_schedule_that_does_not_compile(monkeypatch):
    """A case whose searched schedule stops a pass is a row with the pass's message, and
    the others still run (searched VGG-19 convs b64 stops st-search's lowering)."""

    def run_searched(module, target, **_):
        raise PassFailedException("st-lmem-alloc: local memory of core (0, 0) in phase 14: 9 B live > 8 B usable")

    monkeypatch.setattr(bench_search, "run_searched", run_searched)
    lines = bench_search.machine_rows((("tiny", "set-8x8", 1), ("tiny", "tianjicx", 2)), 1, 1)
    assert lines[1:] == [
        "  tiny b1        set-8x8   does not compile: st-lmem-alloc: local memory of core (0, 0) in phase 14: "
        "9 B live > 8 B usable",
        "  tiny b2        tianjicx  does not compile: st-lmem-alloc: local memory of core (0, 0) in phase 14: "
        "9 B live > 8 B usable",
    ]
