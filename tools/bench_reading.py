"""
What reading, verifying and printing IR cost against the work, in one run:

- `stc-run` on ResNet-50 mapped for tianjicx (`task-split{fit=tianjicx},st-place,st-route`)
  and on it compiled (`stc-pipeline{target=tianjicx}`, isa programs), against the time
  its execution alone takes in the same process (the goal of issue 16: at most 2x);
- `stc-opt` and `stc-run` on a chain of 49,998 relus (100,000 ops), per op;
- `stc-opt resnet18.mlir -p 'task-split{task=4 vector=112,112,1,1}' -o /dev/null`
  (12,544 pieces), per piece.

Each tool runs as its own process: CPU user seconds and peak resident MB of that
process (`os.wait4`, as `/usr/bin/time -v` reports them), min and median of `--runs`.
stc's modules are compiled to bytecode first, as an installed package holds them: with
`PYTHONDONTWRITEBYTECODE` set, a module edited since its last compile is otherwise compiled
again by every process measured.
Execution alone is timed in another process on the module the file holds, in CPU
seconds. Every process runs BLAS on one thread: an idle BLAS thread spins and counts as
CPU time on a loaded machine, so CPU seconds then measure the work alone.

    python -m stc.tools.bench_reading [--runs 3] [--only mapped,isa,chain,split] [--keep DIR]
"""

from __future__ import annotations

import argparse
import compileall
import importlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from stc.runtime.inputs import completed_inputs
from stc.tools.stc_run import execute, input_shapes, read_confined

CHAIN_RELUS = 49_998
SPLIT = "task-split{task=4 vector=112,112,1,1}"
CASES = ("mapped", "isa", "chain", "split")


def tool(name: str) -> str:
    """The console script `name` of this environment."""
    return str(Path(sys.executable).parent / name)


ONE_THREAD = {name: "1" for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}


def measured(command: Sequence[str]) -> tuple[float, float]:
    """CPU user seconds and peak resident MB of one run of `command`, which must succeed."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=os.environ | ONE_THREAD)
    _, status, usage = os.wait4(process.pid, 0)
    assert process.stderr is not None
    if status:
        raise SystemExit(f"{' '.join(command)} failed: {process.stderr.read().decode()}")
    return usage.ru_utime, usage.ru_maxrss / 1024


def summary(values: Sequence[float], unit: str = "s") -> str:
    return f"min {min(values):.2f} {unit}, median {statistics.median(values):.2f} {unit}"


def runs_of(command: Sequence[str], runs: int) -> tuple[list[float], list[float]]:
    results = [measured(command) for _ in range(runs)]
    return [seconds for seconds, _ in results], [mb for _, mb in results]


def execution_seconds(path: Path, runs: int) -> list[float]:
    """CPU seconds of executing the module in `path` `runs` times, in another process."""
    command = [sys.executable, "-m", "stc.tools.bench_reading", "--execute", str(path), "--runs", str(runs)]
    printed = subprocess.run(command, check=True, capture_output=True, text=True, env=os.environ | ONE_THREAD)
    return [float(seconds) for seconds in printed.stdout.split()]


def print_execution_seconds(path: Path, runs: int) -> None:
    """Print the CPU seconds of executing the module in `path` (read once, as `stc-run`
    reads it), `runs` times."""
    module = read_confined(path, "", ())
    inputs = completed_inputs(input_shapes(module), {}, 0)
    for _ in range(runs):
        start = time.process_time()
        execute(path, module, inputs, ())
        print(time.process_time() - start)


def relu_chain(length: int) -> str:
    """A graph of `length` relus in a row, 2 * length + 3 ops, its last buffer `so`."""
    tensor = "tensor<1x4x4x32xi8>"
    lines = [f'  %x = task.input 0 "x" : {tensor}', f"  %b1 = task.buffer 1 si %x : {tensor}"]
    for index in range(length):
        block = 2 * index + 2
        kind = "so" if index == length - 1 else "si"
        lines.append(f"  %r{block} = task.relu {block} %b{block - 1} : {tensor}")
        lines.append(f"  %b{block + 1} = task.buffer {block + 1} {kind} %r{block} : {tensor}")
    lines.append(f'  task.output {2 * length + 2} "y" %b{2 * length + 1}')
    return "task.graph @chain {\n" + "\n".join(lines) + "\n}\n"


STC_PACKAGES = ("compiler", "dialects", "passes", "runtime", "tools")


def compiled_bytecode() -> None:
    """Compile every module of stc whose bytecode is missing or older than its source."""
    for name in STC_PACKAGES:
        for directory in importlib.import_module(f"stc.{name}").__path__:
            compileall.compile_dir(directory, quiet=1)


def prepared(directory: Path, cases: Sequence[str]) -> None:
    """Write the input files the cases read, unless they are there."""
    zoo = directory / "resnet50.mlir"
    steps = [
        (zoo, [tool("stc-zoo"), "resnet50", "-o", str(zoo)], "mapped" in cases or "isa" in cases),
        (directory / "resnet18.mlir", [tool("stc-zoo"), "resnet18"], "split" in cases),
        (
            directory / "mapped.mlir",
            [tool("stc-opt"), str(zoo), "-p", "task-split{fit=tianjicx},st-place{target=tianjicx},st-route"],
            "mapped" in cases,
        ),
        (directory / "isa.mlir", [tool("stc-opt"), str(zoo), "-p", "stc-pipeline{target=tianjicx}"], "isa" in cases),
    ]
    for path, command, needed in steps:
        if needed and not path.exists():
            output = [] if "-o" in command else ["-o", str(path)]
            subprocess.run([*command, *output], check=True, stdout=subprocess.DEVNULL)
    chain = directory / "chain.mlir"
    if "chain" in cases and not chain.exists():
        chain.write_text(relu_chain(CHAIN_RELUS))


def run_file_case(directory: Path, name: str, runs: int) -> None:
    path = directory / f"{name}.mlir"
    seconds, mb = runs_of([tool("stc-run"), str(path), "-o", str(directory / "out.npz")], runs)
    executing = execution_seconds(path, runs)
    ratio = statistics.median(seconds) / statistics.median(executing)
    print(f"stc-run {name} ResNet-50 ({path.stat().st_size / 1000:.0f} kB): {summary(seconds)}, peak {max(mb):.0f} MB")
    print(f"  execution alone {summary(executing)}; stc-run / execution {ratio:.2f}x (median; goal <= 2x)")


def run_chain(directory: Path, runs: int) -> None:
    path = str(directory / "chain.mlir")
    ops = 2 * CHAIN_RELUS + 3
    for name, command in (
        ("stc-opt", [tool("stc-opt"), path, "-o", os.devnull]),
        ("stc-run", [tool("stc-run"), path, "-o", str(directory / "out.npz")]),
    ):
        seconds, mb = runs_of(command, runs)
        per_op = statistics.median(seconds) / ops * 1e6
        print(f"{name} on a {ops:,}-op chain: {summary(seconds)}, {per_op:.0f} us per op, peak {max(mb):.0f} MB")


def run_split(directory: Path, runs: int) -> None:
    command = [tool("stc-opt"), str(directory / "resnet18.mlir"), "-p", SPLIT, "-o", os.devnull]
    seconds, mb = runs_of(command, runs)
    per_piece = statistics.median(seconds) / 12_544 * 1e6
    print(f"stc-opt -p '{SPLIT}' on ResNet-18 (12,544 pieces): {summary(seconds)}, ", end="")
    print(f"{per_piece:.0f} us per piece, peak {max(mb):.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", default=",".join(CASES), help=f"comma-separated cases among {', '.join(CASES)}")
    parser.add_argument("--keep", type=Path, help="a directory to keep (and reuse) the input files in")
    parser.add_argument("--execute", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.execute:
        print_execution_seconds(args.execute, args.runs)
        return
    cases = [case for case in args.only.split(",") if case]
    if unknown := [case for case in cases if case not in CASES]:
        parser.error(f"unknown cases {unknown}; choose among {', '.join(CASES)}")
    compiled_bytecode()
    with tempfile.TemporaryDirectory() as scratch:
        directory = args.keep or Path(scratch)
        directory.mkdir(parents=True, exist_ok=True)
        prepared(directory, cases)
        for case in cases:
            if case in ("mapped", "isa"):
                run_file_case(directory, case, args.runs)
            elif case == "chain":
                run_chain(directory, args.runs)
            else:
                run_split(directory, args.runs)


if __name__ == "__main__":
    main()
