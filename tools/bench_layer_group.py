"""
Benchmark of task-layer-group: zoo networks on a one-core target, grouped by each search
against layer by layer, measured by the machine in the same run; on a many-core target
(`--target tianjicx`), the one group whose buffers st-place holds on their readers' cores
against layer by layer, and with st-place's late spills against without them (`delay=false`).

    python -m stc.tools.bench_layer_group [--network resnet50 ...] [--target tpu-like] [--batch 1] [--runs 3]

Per network it prints the groups each search finds (count, largest, how many are sliced),
the time each search takes (min and median of `--runs`), and, compiled by stc-pipeline,
the machine's global-memory bytes and cycles with the better search's groups
(`group=best`) and layer by layer, their ratios, the compulsory bytes (weights, biases,
tables, the input and the output: the floor no grouping goes below), the DRAM bytes and
cycles the groups' plan predicted, and the most bytes a group keeps live in local memory. Every
compiled program is checked bit-identical against the golden executor. Each program is run
once more on its target with `global_memory.dma_overlaps_compute` set (the DMA engines
beside the compute units, as TPU-MLIR's GDMA): the cycles that timing model gives. On a
one-core target the networks are also compiled for that target itself (a copy of its TOML
with `dma_overlaps_compute = true`), with software pipelining of the slices and delayed
stores, with pipelining but every store in its own timestep (`stc-pipeline{delay=false}`),
and with neither (`pipeline=false delay=false`), and all three run on the machine.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

import click
import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.grouping.layers import LayerGraph
from stc.compiler.grouping.search import Group, Groups
from stc.compiler.references import references_within
from stc.compiler.targets.hardware import TARGETS_DIR, load_target, names_a_file
from stc.compiler.zoo import build_network
from stc.dialects import task
from stc.dialects.task.stats import tensor_bytes
from stc.passes.stc_pipeline import StcPipelinePass
from stc.passes.task_split import TaskSplitPass
from stc.runtime.data import DataStore
from stc.runtime.golden import find_graph, random_inputs, run_module
from stc.runtime.machine import Machine, find_program, run_isa_module

NETWORKS = ("lenet", "resnet18", "resnet50", "vgg19", "darknet19", "googlenet")


def compulsory_bytes(graph: task.GraphOp) -> int:
    """Bytes every execution moves through global memory: the data blocks, the network
    inputs once, the outputs once."""
    loaded = [op.result.type for op in graph.tasks() if isinstance(op, task.DataOp | task.InputOp)]
    return sum(tensor_bytes(typ) for typ in loaded) + sum(tensor_bytes(op.source.type) for op in graph.outputs())


def fitted(network: str, batch: int, target: str) -> task.GraphOp:
    """The network as stc-pipeline gives it to task-layer-group: split to fit a core."""
    module = build_network(network, batch)
    TaskSplitPass(fit=target).apply(Context(), module)
    return find_graph(module)


def searched(network: str, batch: int, target: str, strategy: str, runs: int) -> tuple[list[Group], list[float]]:
    graph = fitted(network, batch, target)
    seconds, found = [], []
    for _ in range(runs):
        start = time.perf_counter()
        groups = Groups(LayerGraph(graph, load_target(target)), load_target(target))
        found = groups.dp() if strategy == "dp" else groups.greedy()
        seconds.append(time.perf_counter() - start)
    return found, seconds


def machine_run(
    network: str,
    batch: int,
    target: str,
    group: str,
    pipeline: bool = True,
    base_dir: Path | None = None,
    delay: bool = True,
) -> dict | str:
    """The machine's counters, or why the pipeline refused the network."""
    module = build_network(network, batch)
    inputs = random_inputs(find_graph(module), 0)
    expected = run_module(module, inputs)
    try:
        StcPipelinePass(target=target, group=group, pipeline=pipeline, delay=delay, search=False).apply(
            Context(), module
        )
    except PassFailedException as error:
        return str(error)
    outputs, counters = run_isa_module(module, inputs, base_dir=base_dir)
    for name, array in expected.items():
        np.testing.assert_array_equal(outputs[name], array, err_msg=f"{network} ({group}) is not bit-identical")
    return counters | {"cycles with DMA beside compute": overlapped_cycles(module, inputs, base_dir)}


def overlapped_cycles(module: ModuleOp, inputs: dict[str, np.ndarray], base_dir: Path | None = None) -> int:
    """The machine's cycles for the same program on the target with
    `global_memory.dma_overlaps_compute` set: each phase lasts max(DMA, the rest)."""
    machine = Machine(find_program(module), DataStore(base_dir))
    machine.target = machine.target.with_global_memory(dma_overlaps_compute=True)
    machine.run(inputs)
    return machine.counters()["cycles"]


def overlapping_target(target: str, directory: Path) -> str:
    """A copy of `target`'s TOML whose DMA overlaps compute, written in `directory`."""
    source = Path(target) if names_a_file(target) else TARGETS_DIR / f"{target}.toml"
    text = source.read_text().replace("[global_memory]\n", "[global_memory]\ndma_overlaps_compute = true\n", 1)
    name = load_target(target).name
    path = directory / f"{name}-gdma.toml"
    path.write_text(text.replace(f'name = "{name}"', f'name = "{name}-gdma"', 1))
    return str(path)


def pipelining(network: str, batch: int, target: str) -> None:
    """The groups compiled for `target` with its DMA beside its compute: software pipelining
    of the slices with delayed stores, without delayed stores, and with neither; the
    machine's cycles in one run."""
    with tempfile.TemporaryDirectory() as directory, references_within([Path(directory)]):
        overlapping = overlapping_target(target, Path(directory))
        runs = {
            (pipe, delay): machine_run(network, batch, overlapping, "best", pipe, Path(directory), delay)
            for pipe, delay in ((True, True), (True, False), (False, False))
        }
    late, now, off = runs[True, True], runs[True, False], runs[False, False]
    if refused({"pipelined, stores late": late, "pipelined": now, "not pipelined": off}):
        return
    assert isinstance(late, dict)
    assert isinstance(now, dict)
    assert isinstance(off, dict)
    click.echo(
        f"  compiled with DMA beside compute: cycles pipelined with delayed stores {late['cycles']} / without "
        f"{now['cycles']} = {late['cycles'] / now['cycles']:.3f}; not pipelined {off['cycles']} "
        f"(pipelined with delayed stores / not = {late['cycles'] / off['cycles']:.3f}); "
        f"DRAM bytes {late['dram_bytes']} / {now['dram_bytes']} / {off['dram_bytes']}; bit-identical"
    )


def refused(runs: dict[str, dict | str]) -> bool:
    """Whether a pipeline refused one of the runs; if so, each run described."""
    if all(isinstance(run, dict) for run in runs.values()):
        return False
    for label, run in runs.items():
        click.echo(f"  {label}: {describe_run(run)}")
    return True


def describe_run(run: dict | str) -> str:
    if isinstance(run, str):
        return f"refused: {run}"
    return f"{run['dram_bytes']} DRAM bytes, {run['cycles']} cycles, bit-identical"


def describe(groups: list[Group]) -> str:
    sliced = [g for g in groups if g.plan.slicing.count > 1]
    largest = max(len(g.members) for g in groups)
    return f"{len(groups)} groups, largest {largest} layers, {len(sliced)} sliced"


def spatial(network: str, batch: int, target: str, floor: int) -> None:
    """A many-core target: stc-pipeline with the one group (its buffers held on their
    readers' cores) against layer by layer, and the pipeline's compile time."""
    runs = {}
    for group in ("best", "none"):
        start = time.perf_counter()
        runs[group] = machine_run(network, batch, target, group)
        runs[group, "seconds"] = time.perf_counter() - start
    grouped, alone, now = runs["best"], runs["none"], machine_run(network, batch, target, "best", delay=False)
    click.echo(f"{network} batch {batch} on {target}: one group, buffers held on their readers' cores")
    if refused({"grouped": grouped, "layer by layer": alone, "grouped, no late spills": now}):
        return
    assert isinstance(grouped, dict)
    assert isinstance(alone, dict)
    assert isinstance(now, dict)
    click.echo(
        f"  DRAM bytes: grouped {grouped['dram_bytes']} / layer by layer {alone['dram_bytes']} = "
        f"{grouped['dram_bytes'] / alone['dram_bytes']:.3f}; compulsory floor {floor} "
        f"(grouped / floor = {grouped['dram_bytes'] / floor:.3f})"
    )
    click.echo(
        f"  cycles: grouped {grouped['cycles']} / layer by layer {alone['cycles']} = "
        f"{grouped['cycles'] / alone['cycles']:.3f}; NoC bytes {grouped['noc_bytes']} / {alone['noc_bytes']}; "
        f"compile + run {runs['best', 'seconds']:.1f} s / {runs['none', 'seconds']:.1f} s; bit-identical"
    )
    echo_overlap(grouped, alone)
    click.echo(
        f"  late spills (st-place): cycles {grouped['cycles']} / without (delay=false) {now['cycles']} = "
        f"{grouped['cycles'] / now['cycles']:.4f}; DRAM bytes {grouped['dram_bytes']} / {now['dram_bytes']}; "
        "bit-identical"
    )


def echo_overlap(grouped: dict, alone: dict) -> None:
    key = "cycles with DMA beside compute"
    click.echo(
        f"  {key}: grouped {grouped[key]} / layer by layer {alone[key]} = {grouped[key] / alone[key]:.3f}; "
        f"against serial DMA: grouped {grouped[key] / grouped['cycles']:.3f}, layer by layer "
        f"{alone[key] / alone['cycles']:.3f}"
    )


@click.command()
@click.option("--network", "networks", multiple=True, default=NETWORKS, show_default=True)
@click.option("--target", default="tpu-like", show_default=True)
@click.option("--batch", default=1, show_default=True)
@click.option("--runs", default=3, show_default=True, help="search timings: min and median of this many runs")
def main(networks: tuple[str, ...], target: str, batch: int, runs: int) -> None:
    many_core = load_target(target).mesh.core_count > 1
    for network in networks:
        floor = compulsory_bytes(find_graph(build_network(network, batch)))
        if many_core:
            spatial(network, batch, target, floor)
            continue
        layers = len(LayerGraph(fitted(network, batch, target), load_target(target)))
        click.echo(f"{network} batch {batch} on {target}: {layers} layers after task-split{{fit}}")
        found: dict[str, list[Group]] = {}
        for strategy in ("greedy", "dp"):
            groups, seconds = searched(network, batch, target, strategy, runs)
            found[strategy] = groups
            click.echo(
                f"  {strategy:6}: {describe(groups)}; estimate {sum(g.cycles for g in groups)} cycles; "
                f"search {min(seconds):.2f} s min, {statistics.median(seconds):.2f} s median"
            )
        grouped, alone = machine_run(network, batch, target, "best"), machine_run(network, batch, target, "none")
        if refused({"grouped": grouped, "layer by layer": alone}):
            continue
        assert isinstance(grouped, dict)
        assert isinstance(alone, dict)
        better = min(found, key=lambda strategy: sum(group.cycles for group in found[strategy]))
        chosen = found[better]
        planned = sum(group.plan.work.dram_bytes for group in chosen)
        peak = max(group.plan.peak_bytes for group in chosen)
        click.echo(
            f"  DRAM bytes: grouped {grouped['dram_bytes']} / layer by layer {alone['dram_bytes']} = "
            f"{grouped['dram_bytes'] / alone['dram_bytes']:.3f}; compulsory floor {floor} "
            f"(grouped / floor = {grouped['dram_bytes'] / floor:.3f}); {better}'s plan predicted {planned}"
        )
        estimate = sum(group.cycles for group in chosen)
        click.echo(
            f"  cycles: grouped {grouped['cycles']} / layer by layer {alone['cycles']} = "
            f"{grouped['cycles'] / alone['cycles']:.3f}; {better}'s price {estimate} "
            f"(price / machine = {estimate / grouped['cycles']:.4f}); peak live local memory of a group {peak} B; "
            "bit-identical"
        )
        echo_overlap(grouped, alone)
        pipelining(network, batch, target)


if __name__ == "__main__":
    main()
