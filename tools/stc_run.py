"""
`stc-run`: execute an stc module and show, save or compare its outputs.

    stc-run net.mlir --seed 3 -o out.npz
    stc-run net.mlir --compare split.mlir      # exit 0 only if every output is bit-identical
    stc-run net.mlir --stats                   # one JSON object

Inputs and outputs are NCHW int8 arrays, by name. Inputs not given with --input are drawn
uniformly from the seed, identically for both files of a comparison.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import click
import numpy as np
from xdsl.dialects.builtin import ModuleOp

from stc.compiler.diagnostics import StcError, reported_errors
from stc.compiler.graph_stats import graph_stats
from stc.compiler.ir_files import read_module
from stc.runtime.golden import Arrays, find_graph, random_inputs, run_module
from stc.runtime.machine import holds_program, run_isa_module


def parse_inputs(specs: tuple[str, ...]) -> Arrays:
    inputs: Arrays = {}
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep or not name or not path:
            raise StcError(f"--input takes NAME=FILE.npy, got {spec!r}")
        if not Path(path).is_file():
            raise StcError(f"--input {name}: no such file {path!r}")
        inputs[name] = np.load(path)
    return inputs


def execute(path: Path, module: ModuleOp, inputs: Arrays, seed: int) -> tuple[Arrays, dict[str, Any] | None]:
    """The outputs, and the machine's counters when the module is an isa program."""
    if holds_program(module):
        return run_isa_module(module, inputs, seed, base_dir=path.parent)
    return run_module(module, {**random_inputs(find_graph(module), seed), **inputs}, base_dir=path.parent), None


def differences(name: str, a: np.ndarray, b: np.ndarray) -> str | None:
    """Where two outputs differ, in one line; None when they are bit-identical."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return f"{name}: {a.dtype}{list(a.shape)} vs {b.dtype}{list(b.shape)}"
    if np.array_equal(a, b):
        return None
    diff = np.argwhere(a != b)
    first = tuple(int(i) for i in diff[0])
    worst = int(np.abs(a.astype(np.int64) - b.astype(np.int64)).max())
    return (
        f"{name}: {len(diff)} of {a.size} elements differ, first at {list(first)} "
        f"({a[first]} vs {b[first]}), max |difference| {worst}"
    )


def compare(path: Path, outputs: Arrays, other: Arrays, other_path: Path) -> int:
    if set(outputs) != set(other):
        click.echo(f"outputs differ: {path} has {sorted(outputs)}, {other_path} has {sorted(other)}")
        return 1
    problems = [p for name in sorted(outputs) if (p := differences(name, outputs[name], other[name]))]
    for problem in problems:
        click.echo(problem)
    if problems:
        click.echo(f"{len(problems)} of {len(outputs)} outputs differ")
        return 1
    click.echo(f"{len(outputs)} outputs bit-identical")
    return 0


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--input", "input_specs", multiple=True, metavar="NAME=X.npy", help="An NCHW input array.")
@click.option("--seed", default=0, show_default=True, help="Seed of the inputs not given.")
@click.option("-o", "--output", type=click.Path(path_type=Path), help="Save the outputs to an .npz file.")
@click.option(
    "--compare",
    "other",
    type=click.Path(path_type=Path),
    help="Run this file too; exit 1 unless outputs are bit-identical.",
)
@click.option("--stats", is_flag=True, help="Print statistics as one JSON object.")
def cli(
    file: Path, input_specs: tuple[str, ...], seed: int, output: Path | None, other: Path | None, stats: bool
) -> None:
    """Execute an stc module."""
    status = 0
    with reported_errors("stc-run"):
        module = read_module(file)
        inputs = parse_inputs(input_specs)
        start = time.perf_counter()
        outputs, counters = execute(file, module, inputs, seed)
        seconds = time.perf_counter() - start
        if output is not None:
            np.savez(output, **outputs)
        if other is not None:
            status = compare(file, outputs, execute(other, read_module(other), inputs, seed)[0], other)
        if stats:
            report = (graph_stats(find_graph(module)) if counters is None else counters) | {
                "run_seconds": round(seconds, 4),
                "outputs": {name: list(array.shape) for name, array in outputs.items()},
            }
            click.echo(json.dumps(report))
        elif other is None and output is None:
            for name, array in outputs.items():
                click.echo(f"{name}: {array.dtype}{list(array.shape)} checksum {int(array.astype(np.int64).sum())}")
    sys.exit(status)


def main() -> None:
    cli()
