"""
Benchmark of the foundation: the golden executor against the BLAS bound, and stc-opt's
parse-verify-print throughput.

    python -m stc.tools.bench_golden [--runs 5]

The BLAS bound is the time this machine takes for one float64 matmul with as many
multiply-adds as the network, measured in the same run.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import click
import numpy as np
from xdsl.parser import Parser

from stc.compiler.ir_files import module_text, stc_context
from stc.compiler.zoo import build_network
from stc.dialects.task.stats import graph_stats
from stc.runtime.golden import find_graph, run_module


def median_seconds(action, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def blas_bound_seconds(macs: int, runs: int) -> float:
    """Median time of one float64 (m×k)·(k×n) matmul with m·k·n ≈ macs."""
    side = round(macs ** (1 / 3))
    lhs = np.random.default_rng(0).standard_normal((side, side))
    rhs = np.random.default_rng(1).standard_normal((side, side))
    return median_seconds(lambda: lhs @ rhs, runs) * macs / side**3


@click.command()
@click.option("--runs", default=5, show_default=True, help="Repetitions; medians are printed.")
def main(runs: int) -> None:
    module = build_network("resnet18")
    macs = graph_stats(find_graph(module))["macs"]
    run_module(module)  # warm up: data generation, BLAS threads
    golden = median_seconds(lambda: run_module(module), runs)
    bound = blas_bound_seconds(macs, runs)
    print(f"resnet18 224x224: {macs / 1e9:.3f} G MACs")
    print(f"  golden executor      {golden:.3f} s")
    print(f"  float64 BLAS bound   {bound:.3f} s")
    print(f"  ratio                {golden / bound:.2f}  (target <= 3)")

    resnet50 = build_network("resnet50")
    ops = sum(1 for _ in resnet50.walk())
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "resnet50.mlir"
        path.write_text(module_text(resnet50))
        stc_opt = Path(sys.executable).parent / "stc-opt"
        command = [str(stc_opt), str(path), "-o", str(Path(folder) / "out.mlir")]
        seconds = median_seconds(lambda: subprocess.run(command, check=True), max(1, runs // 2))
        text = path.read_text()
    in_process = median_seconds(lambda: round_trip(text), runs)
    startup = median_seconds(lambda: subprocess.run([str(stc_opt), "--version"], check=True, capture_output=True), runs)
    print(f"resnet50 ({ops} ops, {len(text) / 1e3:.0f} kB of IR) through stc-opt:")
    print(f"  command line         {seconds:.2f} s (start-up alone {startup:.2f} s)")
    print(f"  parse+verify+print   {in_process:.3f} s = {ops / in_process:.0f} ops/s")


def round_trip(text: str) -> None:
    module = Parser(stc_context(), text).parse_module()
    module.verify()
    module_text(module)


if __name__ == "__main__":
    main()
