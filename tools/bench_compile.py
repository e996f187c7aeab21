"""
Benchmark of compile cost against the work: stc-pipeline's passes on zoo networks at
several batches.

    python -m stc.tools.bench_compile                                  # ResNet-50 and VGG-19, tianjicx
    python -m stc.tools.bench_compile -n resnet50 -t tianjicx -b 1 -b 2 -b 8 --runs 3

Per network, target and batch it prints, for each pass and in total: the ops after it,
its CPU seconds (min and median of `--runs`), the seconds verifying the module after it
(as stc-opt does: only the ops the pass changed and the ops with regions; every op with
`--verify-each`),
and its peak MiB of Python allocations (tracemalloc, in one extra untimed run; `--no-memory`
leaves it out); then the share of the time spent verifying and the ops per second. Per
network and target, the scaling exponent of the median time against the MACs (the slope
of a log-log least-squares fit over the batches), and the ops and time at each batch as
multiples of batch 1's. The passes and their timing are bench_pipeline's (`Compilation`).
A compilation that fails prints its error and the matrix goes on.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

import click
import numpy as np
from xdsl.utils.exceptions import DiagnosticException

from stc.compiler.diagnostics import StcError
from stc.compiler.zoo import build_network
from stc.dialects.task.stats import graph_stats
from stc.runtime.golden import find_graph
from stc.tools.bench_pipeline import Compilation, spread


def scaling_exponent(macs: Sequence[float], seconds: Sequence[float]) -> float:
    """The slope of log(seconds) against log(macs): 1 when time grows as the work does.

    >>> round(scaling_exponent([1, 2, 8], [3, 6, 24]), 3)
    1.0
    """
    slope, _ = np.polyfit(np.log(macs), np.log(seconds), 1)
    return float(slope)


def bench_batch(
    network: str, target: str, batch: int, runs: int, memory: bool, verify_each: bool
) -> tuple[int, float] | None:
    """Print one network, target and batch; return its final ops and median total seconds."""
    print(f"{network} -> {target}, batch {batch}", flush=True)
    try:
        compilations = [Compilation(network, target, batch, verify_each=verify_each) for _ in range(runs)]
        traced = Compilation(network, target, batch, trace_memory=True) if memory else None
    except (DiagnosticException, StcError) as error:
        print(f"  compile failed: {str(error).splitlines()[0]}", flush=True)
        return None
    first = compilations[0]
    for stage in first.seconds:
        peak = f"  peak {traced.peak_mib[stage]:7.1f} MiB" if traced else ""
        print(
            f"  {stage:<15} {first.ops[stage]:>8} ops  {spread([c.seconds[stage] for c in compilations])}"
            f"  verify {spread([c.verify_seconds[stage] for c in compilations])}{peak}"
        )
    totals = [c.total for c in compilations]
    shares = [c.verify / c.total for c in compilations]
    ops = first.ops[list(first.ops)[-1]]
    created = max(first.ops.values())
    peak = f"  peak {max(traced.peak_mib.values()):7.1f} MiB" if traced else ""
    print(f"  {'total':<15} {ops:>8} ops  {spread(totals)}{peak}")
    print(
        f"  verify share    min {min(shares):.1%}  median {statistics.median(shares):.1%};  "
        f"{created / statistics.median(totals):,.0f} ops/s (the most ops after a pass over the median total)",
        flush=True,
    )
    return ops, statistics.median(totals)


def bench(network: str, target: str, batches: Sequence[int], runs: int, memory: bool, verify_each: bool) -> None:
    points: list[tuple[int, int, float, int]] = []
    for batch in batches:
        macs = graph_stats(find_graph(build_network(network, batch=batch)))["macs"]
        if (result := bench_batch(network, target, batch, runs, memory, verify_each)) is not None:
            points.append((batch, macs, result[1], result[0]))
    if len(points) < 2:
        return
    base_batch, _, base_seconds, base_ops = points[0]
    growth = ", ".join(
        f"batch {b}: {ops / base_ops:.2f}x ops, {seconds / base_seconds:.2f}x time" for b, _, seconds, ops in points[1:]
    )
    exponent = scaling_exponent([p[1] for p in points], [p[2] for p in points])
    print(
        f"{network} -> {target}: time ~ MACs^{exponent:.2f} over batches {', '.join(str(p[0]) for p in points)}; "
        f"against batch {base_batch}: {growth}",
        flush=True,
    )


@click.command(help=__doc__.strip().splitlines()[0])
@click.option("-n", "--network", "networks", multiple=True, help="zoo network (default: resnet50, vgg19)")
@click.option("-t", "--target", "targets", multiple=True, help="target preset (default: tianjicx)")
@click.option("-b", "--batch", "batches", multiple=True, type=int, help="batch (default: 1, 2, 8)")
@click.option("--runs", default=3, show_default=True, help="timed compilations per network, target and batch")
@click.option("--memory/--no-memory", default=True, show_default=True, help="trace peak MiB in one extra run")
@click.option("--verify-each", is_flag=True, help="verify every op after every pass (stc-opt --verify-each)")
def main(
    networks: tuple[str, ...],
    targets: tuple[str, ...],
    batches: tuple[int, ...],
    runs: int,
    memory: bool,
    verify_each: bool,
) -> None:
    if runs < 1 or any(batch < 1 for batch in batches):
        raise click.UsageError(f"--runs and --batch take positive integers, got runs={runs} batch={batches}")
    for network in networks or ("resnet50", "vgg19"):
        for target in targets or ("tianjicx",):
            bench(network, target, sorted(set(batches or (1, 2, 8))), runs, memory, verify_each)


if __name__ == "__main__":
    main()
