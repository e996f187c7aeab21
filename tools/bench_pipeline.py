"""
Benchmark of the whole path: zoo networks through stc-pipeline's passes to per-core
programs, run on the machine against the golden executor.

    python -m stc.tools.bench_pipeline [--network resnet18 --target tianjicx ...] [--runs 3]

Per network and target it prints the compile time of each pass (min and median of
`--runs`), the op counts, the machine's cycles against two floors measured in the same
run — the compute bound (MACs / (cores · MACs per cycle)) and the weight-load bound
(weight bytes / global-memory bandwidth) — the machine's run time against the golden
executor's, and the allocator's peak address against the peak live bytes on the fullest core.
"""

from __future__ import annotations

import statistics
import time
from collections import defaultdict
from collections.abc import Callable

import click
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from stc.compiler.mapping.actions import mapped_graphs, mapping_target
from stc.compiler.memory.allocation import Request, peak_live_bytes
from stc.compiler.memory.lmem import alignment_of, allocate_graph, core_memory
from stc.compiler.targets.hardware import load_target
from stc.compiler.zoo import build_network
from stc.dialects.task.stats import graph_stats
from stc.passes.isa_lower import IsaLowerPass
from stc.passes.st_place import StPlacePass
from stc.passes.st_route import StRoutePass
from stc.passes.task_split import TaskSplitPass
from stc.runtime.golden import find_graph, random_inputs, run_module
from stc.runtime.machine import run_isa_module

NETWORKS = ("lenet", "resnet18", "resnet50")
TARGETS = ("tianjicx", "set-8x8", "tpu-like", "aie-ml")


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def compile_once(network: str, target: str) -> tuple[ModuleOp, dict[str, float], dict[str, int], str]:
    """One compilation: the module after each stage, seconds and ops per stage, and the
    allocator's figures."""
    module = build_network(network)
    ctx = Context()
    stages: list[tuple[str, ModulePass | None]] = [
        ("task-split", TaskSplitPass(fit=target)),
        ("st-place", StPlacePass(target=target)),
        ("st-route", StRoutePass()),
        ("st-lmem-alloc", None),
        ("isa-lower", IsaLowerPass()),
    ]
    seconds: dict[str, float] = {}
    ops: dict[str, int] = {}
    allocation = ""
    for name, stage in stages:
        if stage is None:
            start = time.perf_counter()
            allocation = allocate_all(module)
            seconds[name] = time.perf_counter() - start
        else:
            seconds[name] = timed(lambda stage=stage: stage.apply(ctx, module))
        seconds["verify"] = seconds.get("verify", 0.0) + timed(module.verify)
        ops[name] = sum(1 for _ in module.walk())
    return module, seconds, ops, allocation


def allocate_all(module: ModuleOp) -> str:
    """st-lmem-alloc, and the fullest core's peak address against its peak live bytes."""
    worst = (0.0, "")
    for mapping, graph in mapped_graphs(module, "st-lmem-alloc"):
        target = mapping_target(mapping)
        plan, addresses = allocate_graph(graph, target)
        by_core: dict[tuple[int, int], list[Request]] = defaultdict(list)
        for region in plan.regions:
            alignment = alignment_of(target, region.alignment)
            request = Request(region.key, region.size, alignment, region.start, region.end, region.label)
            by_core[region.core].append(request)
        for core, requests in by_core.items():
            peak = max(addresses[r.key] + r.size for r in requests)
            capacity = core_memory(target, core).capacity
            if peak / capacity > worst[0]:
                live = peak_live_bytes(requests)
                worst = (
                    peak / capacity,
                    f"core {core}: peak address {peak} B = {peak / capacity:.1%} of {capacity} B, "
                    f"{peak / live:.3f} x the peak live bytes ({live} B)",
                )
    return worst[1]


@click.command(help=__doc__.strip().splitlines()[0])
@click.option("--network", "networks", multiple=True, default=["lenet", "resnet18", "resnet50"], show_default=True)
@click.option(
    "--target", "targets", multiple=True, default=["tianjicx", "set-8x8", "tpu-like", "aie-ml"], show_default=True
)
@click.option("--runs", default=3, show_default=True, help="compilations per network and target")
def main(networks: tuple[str, ...], targets: tuple[str, ...], runs: int) -> None:
    for network in networks:
        source = build_network(network)
        graph = find_graph(source)
        stats = graph_stats(graph)
        inputs = random_inputs(graph, 0)
        golden_seconds = min(timed(lambda s=source, i=inputs: run_module(s, i)) for _ in range(runs))
        weight_bytes = stats["bytes"]["weight"]  # pyright: ignore[reportIndexIssue]
        for target_name in targets:
            target = load_target(target_name)
            compilations = [compile_once(network, target_name) for _ in range(runs)]
            module, _, ops, allocation = compilations[0]
            print(f"{network} -> {target_name}")
            for stage in ["task-split", "st-place", "st-route", "st-lmem-alloc", "isa-lower", "verify"]:
                times = [seconds[stage] for _, seconds, _, _ in compilations]
                count = f"{ops[stage]:>8} ops" if stage in ops else " " * 12
                print(f"  {stage:<14} {count}  min {min(times):7.2f} s  median {statistics.median(times):7.2f} s")
            totals = [sum(seconds.values()) for _, seconds, _, _ in compilations]
            print(f"  {'total':<14} {'':12}  min {min(totals):7.2f} s  median {statistics.median(totals):7.2f} s")
            print(f"  allocation     {allocation}")
            machine_seconds = min(timed(lambda m=module, i=inputs: run_isa_module(m, i)) for _ in range(runs))
            counters = run_isa_module(module, inputs)[1]
            cores = len(counters["core_cycles"])
            compute_bound = stats["macs"] / (target.mesh.core_count * target.compute.macs_per_cycle)  # pyright: ignore[reportOperatorIssue]
            weight_bound = weight_bytes / target.global_memory.bandwidth_bytes_per_cycle
            cycles = counters["cycles"]
            print(
                f"  machine        {cycles} cycles on {cores} cores, {counters['phases']} phases; "
                f"{cycles / compute_bound:.1f} x the compute bound ({compute_bound:.0f}), "
                f"{cycles / weight_bound:.2f} x the weight-load bound ({weight_bound:.0f})"
            )
            print(
                f"  run time       machine {machine_seconds:.3f} s, golden {golden_seconds:.3f} s: "
                f"{machine_seconds / golden_seconds:.2f} x"
            )
            print(
                f"  traffic        DRAM {counters['dram_bytes']} B, NoC {counters['noc_bytes']} B, "
                f"energy {counters['energy_pj']['total'] / 1e6:.1f} uJ"
            )


if __name__ == "__main__":
    main()
