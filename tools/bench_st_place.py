"""
Placement quality and speed: a zoo network split to fit each target's cores, then placed
by st-place and, as the baseline, row-major on the same blocks and phases.

    python -m stc.tools.bench_st_place [--network resnet50] [--target tianjicx --target set-8x8]
                                       [--seed 0] [--iterations 20000]

Every compute block whose input storage exceeds a core's usable memory is split by the
vector with the fewest pieces whose largest piece fits (`stc.compiler.tiling.fit`); the
task.adds that r-splits create are split the same way in turn. Prints, per target, the
splits, the placement time, Σ bytes × hops for both placements and their ratio, the
phases and cores used, the peak local memory per core (the most any phase of a core
uses), the MACs of the busiest core for both placements, and the time st-place and
st-route take with one contain_routing area group over every compute block.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter

import click
from xdsl.utils.exceptions import DiagnosticException

from stc.compiler.diagnostics import StcError, reported_errors
from stc.compiler.mapping.area_groups import AreaGroup, Rect
from stc.compiler.mapping.matrix import STMatrix
from stc.compiler.mapping.nets import graph_nets, hop_bytes
from stc.compiler.mapping.phase_ranges import union
from stc.compiler.mapping.placement import place
from stc.compiler.mapping.routing import route_graph
from stc.compiler.targets.hardware import HardwareTarget, load_target
from stc.compiler.tiling.fit import fit_splits
from stc.compiler.zoo import build_network
from stc.dialects import task
from stc.dialects.task.stats import macs


def split_graph(network: str, target: HardwareTarget) -> tuple[task.GraphOp, list[str]]:
    """The network's graph split to fit `target`, and one line per split made."""
    module = build_network(network)
    graph = next(op for op in module.ops if isinstance(op, task.GraphOp))
    names = {op.task_id: op.name for op in graph.tasks()}
    splits = fit_splits(graph, target)
    kinds = Counter(f"{names.get(task_id, 'task.add')} by {list(counts)}" for task_id, counts in splits)
    return graph, [f"{count:4d} x {kind}" for kind, count in sorted(kinds.items())]


def placed(
    graph: task.GraphOp, target: HardwareTarget, strategy: str, seed: int, iterations: int
) -> tuple[STMatrix, float]:
    """A matrix with every block of a copy of `graph` placed, and the seconds it took."""
    matrix = STMatrix(graph.clone(), target)
    start = time.perf_counter()
    place(matrix, seed=seed, iterations=iterations, strategy=strategy)
    return matrix, time.perf_counter() - start


def total_hop_bytes(matrix: STMatrix) -> int:
    spaces = {task_id: where.space for task_id, where in matrix.places.items()}
    return hop_bytes(graph_nets(matrix.graph), spaces, matrix.mesh)


def peak_memory(matrix: STMatrix) -> dict[tuple[int, int, int, int], int]:
    """The most local memory any phase of each used core holds."""
    peaks: dict[tuple[int, int, int, int], int] = {}
    for (space, _), use in matrix.memory.items():
        peaks[space] = max(peaks.get(space, 0), use.peak())
    return peaks


def busiest_core(matrix: STMatrix) -> int:
    """The most multiply-accumulates any core runs, over all phases."""
    load: dict[tuple[int, int, int, int], int] = {}
    for task_id, where in matrix.places.items():
        if isinstance(op := matrix.blocks[task_id], task.ComputeBlock):
            load[where.space] = load.get(where.space, 0) + macs(op)
    return max(load.values())


def area_group_seconds(graph: task.GraphOp, target: HardwareTarget, seed: int, iterations: int) -> tuple[float, float]:
    """Seconds st-place and st-route take on a copy of `graph` with one contain_routing area
    group over every compute block and every computing tile."""
    matrix = STMatrix(graph.clone(), target)
    members = {op.task_id for op in matrix.graph.tasks() if isinstance(op, task.ComputeBlock)}
    rects = [
        Rect(tile.name, (tile.row_min, tile.row_max), (tile.column_min, tile.column_max))
        for tile in target.tile_types
        if tile.computes
    ]
    start = time.perf_counter()
    matrix.add_group("bench", AreaGroup("all", members, rects, contain_routing=True))
    place(matrix, seed=seed, iterations=iterations)
    placed = time.perf_counter()
    route_graph(matrix)
    return placed - start, time.perf_counter() - placed


@click.command(help=__doc__.strip().splitlines()[0])
@click.option("--network", default="resnet50", show_default=True, help="zoo network")
@click.option(
    "--target",
    "target_names",
    multiple=True,
    default=("tianjicx", "set-8x8"),
    show_default=True,
    help="target name or TOML path (repeat for several)",
)
@click.option("--seed", default=0, show_default=True, help="annealing seed")
@click.option("--iterations", default=20000, show_default=True, help="annealing moves")
def main(network: str, target_names: tuple[str, ...], seed: int, iterations: int) -> None:
    with reported_errors("bench_st_place"):
        try:
            for index, name in enumerate(target_names):
                if index:
                    print()
                run(network, load_target(name), seed, iterations)
        except DiagnosticException as error:
            raise StcError(str(error)) from None


def run(network: str, target: HardwareTarget, seed: int, iterations: int) -> None:
    start = time.perf_counter()
    graph, splits = split_graph(network, target)
    seconds = time.perf_counter() - start
    compute = sum(isinstance(op, task.ComputeBlock) for op in graph.tasks())
    usable = target.usable_memory_bytes
    phases = target.max_phases or "unlimited"
    cores = target.mesh.core_count
    print(f"{network} on {target.name} ({cores} cores, {usable} B usable per core, {phases} phases)")
    blocks = f"{len(graph.tasks())} blocks ({compute} compute blocks)"
    print(f"split to fit in {seconds:.1f} s: {blocks}, by these splits:")
    for line in splits:
        print(f"  {line}")
    greedy, seconds = placed(graph, target, "greedy", seed, iterations)
    row_major, _ = placed(graph, target, "row-major", seed, 0)
    ours, baseline = total_hop_bytes(greedy), total_hop_bytes(row_major)
    used_phases = sum(last - first + 1 for first, last in union(*(where.ranges for where in greedy.places.values())))
    peaks = sorted(peak_memory(greedy).values())
    print(f"placement time: {seconds:.2f} s (seed {seed}, {iterations} annealing moves)")
    print(f"hop x bytes: {ours:,} (st-place) vs {baseline:,} (row-major): {ours / baseline:.3f}")
    cores = f"{len(peaks)} of {target.mesh.core_count}"
    print(f"phases holding blocks: {used_phases}; cores used: {cores}")
    print(
        f"peak memory per core: max {peaks[-1]:,} B ({peaks[-1] / usable:.1%} of usable), "
        f"median {int(statistics.median(peaks)):,} B, min {peaks[0]:,} B"
    )
    total = sum(macs(op) for op in graph.tasks() if isinstance(op, task.ComputeBlock))
    ours, baseline = busiest_core(greedy), busiest_core(row_major)
    print(f"busiest core: {ours:,} MACs, {ours / total:.1%} of all (row-major: {baseline:,}, {baseline / total:.1%})")
    place_seconds, route_seconds = area_group_seconds(graph, target, seed, iterations)
    print(
        f"one contain_routing area group over all {compute} compute blocks: "
        f"st-place {place_seconds:.2f} s, st-route {route_seconds:.2f} s"
    )


if __name__ == "__main__":
    main()
