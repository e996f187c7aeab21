"""
Benchmark of the whole path: zoo networks through stc-pipeline's passes to per-core
programs, run on the machine against the golden executor.

    python -m stc.tools.bench_pipeline                      # every zoo network on every target
    python -m stc.tools.bench_pipeline -n resnet18 -t tianjicx --runs 3

Per network and target it prints the compile time of each pass and of the verification
after it (min and median of `--runs`), the ops after each pass, whether the machine's
outputs are bit-identical to the golden executor's, the machine's cycles against two
floors — the compute bound (MACs / (cores · MACs per cycle)) and the weight-load bound
(weight bytes / global-memory bandwidth) — the machine's run time against the golden
executor's (min and median), and the allocator's figures: the fullest core's peak
address against its capacity, and, allocating each core's regions in one bank (where
banks and `apart_from` do not spread them on purpose), the worst core's peak address
against its peak live bytes. Times are CPU seconds of the process. A compilation that
fails prints its error and the matrix goes on.
"""

from __future__ import annotations

import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence

import click
import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException

from stc.compiler.diagnostics import StcError
from stc.compiler.heap import frozen_between_passes
from stc.compiler.mapping.actions import mapped_graphs, mapping_target
from stc.compiler.memory.allocation import allocate
from stc.compiler.memory.lmem import alignment_of, core_memory
from stc.compiler.memory.plan import MemoryPlan
from stc.compiler.memory.rectangles import Memory, Request, peak_live_bytes
from stc.compiler.targets.hardware import HardwareTarget, load_target
from stc.compiler.verification import Verifier
from stc.compiler.zoo import build_network, network_names
from stc.dialects.st.local_memory import declared_regions
from stc.dialects.task.stats import graph_stats
from stc.passes.stc_pipeline import StcPipelinePass
from stc.runtime.golden import find_graph, random_inputs, run_module
from stc.runtime.machine import run_isa_module

TARGETS = ("tianjicx", "set-8x8", "tpu-like", "aie-ml")


def timed(action: Callable[[], object]) -> float:
    """CPU seconds of this process: the development machine is shared, so wall time
    measures the other jobs too."""
    start = time.process_time()
    action()
    return time.process_time() - start


def spread(times: Sequence[float]) -> str:
    return f"min {min(times):7.2f} s  median {statistics.median(times):7.2f} s"


class Compilation:
    """One run of stc-pipeline's passes on a zoo network, verifying after each as stc-opt
    does (only what changed, or everything with `verify_each`): seconds, verification
    seconds and ops per pass, and the allocator's figures taken right after
    st-lmem-alloc. With `trace_memory`, also each pass's peak MiB of Python allocations
    (tracemalloc, which slows the run: time such a run apart)."""

    def __init__(
        self, network: str, target: str, batch: int = 1, trace_memory: bool = False, verify_each: bool = False
    ):
        self.module = build_network(network, batch=batch)
        self.seconds: dict[str, float] = {}
        self.verify_seconds: dict[str, float] = {}
        self.ops: dict[str, int] = {}
        self.peak_mib: dict[str, float] = {}
        self.allocation = ""
        ctx = Context()
        verifier = Verifier(full=verify_each)
        verifier.verify(self.module)  # the input, as stc-opt verifies it before the first pass
        stages = StcPipelinePass(target=target).passes()
        with frozen_between_passes() as settle:  # as stc-pipeline runs them
            for stage in stages:
                if trace_memory:
                    tracemalloc.start()
                self.seconds[stage.name] = timed(lambda stage=stage: stage.apply(ctx, self.module))
                if trace_memory:
                    self.peak_mib[stage.name] = tracemalloc.get_traced_memory()[1] / 2**20
                    tracemalloc.stop()
                last = stage is stages[-1]
                self.verify_seconds[stage.name] = timed(lambda last=last: verifier.verify(self.module, last))
                self.ops[stage.name] = sum(1 for _ in self.module.walk())
                if stage.name == "st-lmem-alloc":
                    self.allocation = allocator_figures(self.module)
                settle()

    @property
    def verify(self) -> float:
        return sum(self.verify_seconds.values())

    @property
    def total(self) -> float:
        return sum(self.seconds.values()) + self.verify


def allocator_figures(module: ModuleOp) -> str:
    """The fullest core's peak address against its capacity (from the addresses written),
    and the worst core's peak address in one bank against its peak live bytes."""
    fullest, worst = (0.0, ""), (0.0, "")
    for mapping, graph in mapped_graphs(module, "bench"):
        target = mapping_target(mapping)
        for core, placed in declared_regions(graph, target).items():
            peak = max(region.address + region.size for region in placed)
            capacity = core_memory(target, core).capacity
            if peak / capacity > fullest[0]:
                fullest = (peak / capacity, f"fullest core {core}: peak address {peak} B = {peak / capacity:.1%}")
        by_core: dict[tuple[int, int], list[Request]] = {}
        for region in MemoryPlan(graph, target, "bench").regions:
            request = Request(
                region.key, region.size, alignment_of(target, region.alignment), region.start, region.end, region.label
            )
            by_core.setdefault(region.core, []).append(request)
        for core, requests in by_core.items():
            live = peak_live_bytes(requests)
            addresses = allocate(requests, Memory(2 * live))
            ratio = max(addresses[r.key] + r.size for r in requests) / live
            if ratio > worst[0]:
                worst = (ratio, f"one bank: worst core {core} {ratio:.3f} x its peak live bytes ({live} B)")
    return f"{fullest[1]}; {worst[1]}"


def bounds(stats: dict, target: HardwareTarget) -> tuple[float, float]:
    """The compute bound and the weight-load bound, in cycles."""
    compute = stats["macs"] / (target.mesh.core_count * target.compute.macs_per_cycle)
    weight = stats["bytes"]["weight"] / target.global_memory.bandwidth_bytes_per_cycle
    return compute, weight


def bench(network: str, target_name: str, runs: int, source: ModuleOp, golden_seconds: list[float]) -> None:
    print(f"{network} -> {target_name}", flush=True)
    try:
        compilations = [Compilation(network, target_name) for _ in range(runs)]
    except (DiagnosticException, StcError) as error:
        print(f"  compile failed: {str(error).splitlines()[0]}", flush=True)
        return
    first = compilations[0]
    for stage in first.seconds:
        print(f"  {stage:<17} {first.ops[stage]:>8} ops  {spread([c.seconds[stage] for c in compilations])}")
    print(f"  {'verify (all)':<17} {'':12}  {spread([c.verify for c in compilations])}")
    print(f"  {'total':<17} {'':12}  {spread([c.total for c in compilations])}")
    print(f"  allocation        {first.allocation}")
    graph = find_graph(source)
    inputs = random_inputs(graph, 0)
    expected = run_module(source, inputs)
    machine_seconds: list[float] = []
    for _ in range(runs):
        start = time.process_time()
        outputs, counters = run_isa_module(first.module, inputs)
        machine_seconds.append(time.process_time() - start)
    same = outputs.keys() == expected.keys() and all(np.array_equal(outputs[k], v) for k, v in expected.items())
    compute_bound, weight_bound = bounds(graph_stats(graph), load_target(target_name))
    cycles = counters["cycles"]
    print(
        f"  machine           {cycles} cycles on {len(counters['core_cycles'])} cores, {counters['phases']} phases; "
        f"{cycles / compute_bound:.1f} x the compute bound ({compute_bound:.0f}), "
        f"{cycles / weight_bound:.2f} x the weight-load bound ({weight_bound:.0f}); "
        f"outputs {'bit-identical' if same else 'DIFFER'}"
    )
    print(
        f"  run time          machine {spread(machine_seconds)}, golden {spread(golden_seconds)}: "
        f"{min(machine_seconds) / min(golden_seconds):.2f} x (min), "
        f"{statistics.median(machine_seconds) / statistics.median(golden_seconds):.2f} x (median)"
    )
    print(
        f"  traffic           DRAM {counters['dram_bytes']} B, NoC {counters['noc_bytes']} B, "
        f"energy {counters['energy_pj']['total'] / 1e6:.1f} uJ",
        flush=True,
    )


@click.command(help=__doc__.strip().splitlines()[0])
@click.option("-n", "--network", "networks", multiple=True, help="zoo network (default: every one)")
@click.option("-t", "--target", "targets", multiple=True, help="target preset (default: all four)")
@click.option("--runs", default=1, show_default=True, help="compilations and machine runs per network and target")
def main(networks: tuple[str, ...], targets: tuple[str, ...], runs: int) -> None:
    for network in networks or network_names():
        source = build_network(network)
        inputs = random_inputs(find_graph(source), 0)
        golden_seconds = [timed(lambda s=source, i=inputs: run_module(s, i)) for _ in range(runs)]
        for target in targets or TARGETS:
            bench(network, target, runs, source, golden_seconds)


if __name__ == "__main__":
    main()
