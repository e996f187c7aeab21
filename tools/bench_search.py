"""
Benchmark of the schedule search on SET's workloads and hardware (`set-8x8`): stc's
layer-sequential (LS), layer-pipeline (LP) and unrestricted (SET-space) searches side by
side in one run, with SET's own figures (docs/passes/st-search.md, from set-anchor.md).

    python -m stc.tools.bench_search                          # the four workloads
    python -m stc.tools.bench_search --only darknet19 --rounds-per-layer 20 --seed 1
    python -m stc.tools.bench_search --only resnet50-v1 --batch 1 --spaces set
    python -m stc.tools.bench_search --machine                # estimate against the machine
    python -m stc.tools.bench_search --machine --only darknet19 --target set-8x8 --batch 8  # one case
    python -m stc.tools.bench_search --tianjicx               # searched against st-place
    python -m stc.tools.bench_search --tianjicx --only resnet18 --batch 8  # at another batch
    python -m stc.tools.bench_search --tianjicx --only resnet18 --no-relay  # each core its own copy
    python -m stc.tools.bench_search --against-place set-8x8  # the same on another target
    python -m stc.tools.bench_search --only darknet19 --spaces set --parts  # energy per leaf, EDP floor

For each: latency against the compute bound (MACs / (64 cores × 1024 MAC/cycle)) and, at
batch 1, against the weight-fetch bound (weight bytes / DRAM bytes per cycle), energy, EDP,
wall time and CPU time (all chains), and the DRAM bytes the weights are loaded with over the
weights' bytes ("wDRAM/w": above 1 where a partition copies a layer's weights to several
cores). SET's energy counts its cores' L1 buffers and register files (74 % of its DarkNet-19
energy); so does stc's on `set-8x8` (its `core_buffers`, docs/cost-model.md, "Inside a
core"): "core pJ" is that part of the energy."""

from __future__ import annotations

import statistics

import click
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.cost.estimate import Estimate
from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.network import network_of
from stc.compiler.diagnostics import StcError
from stc.compiler.search.chains import ROUNDS_PER_LAYER, search
from stc.compiler.targets.cost_units import core_buffer_pj
from stc.compiler.targets.hardware import HardwareTarget, load_target
from stc.compiler.zoo import build_network
from stc.dialects import task
from stc.tools.edp_floor import floor_rows
from stc.tools.energy_parts import boundary_rows, cause_rows, parts_rows
from stc.tools.search_machine import COMPARED, cpu_seconds, run_placed, run_searched

WORKLOADS = (("darknet19", 64), ("vgg19-conv", 64), ("resnet50-v1", 64), ("resnet50-v1", 1))

SET_BEST = {
    ("darknet19", 64): {"edp": 1.557e17, "latency": 2_951_096, "energy": 5.275e10, "wall": 261},
    ("vgg19-conv", 64): {"edp": 6.119e18, "latency": 19_311_488, "energy": 3.168e11, "wall": 65},
    ("resnet50-v1", 64): {"edp": 9.363e17, "latency": 6_960_648, "energy": 1.345e11, "wall": 556},
    ("resnet50-v1", 1): {"edp": 2.356e15, "latency": 461_863, "energy": 5.101e9, "wall": 397},
}
"""SET's best of LS/LP/SET per workload (EDP pJ·cycles, latency cycles, energy pJ) and the
wall time of its SET search (s), from set-anchor.md."""


def run(
    name: str,
    batch: int,
    rounds_per_layer: int,
    budget: float | None,
    chains: int,
    seed: int = 0,
    spaces: tuple[str, ...] = ("ls", "lp", "set"),
    target_name: str = "set-8x8",
    cost: str = "edp",
    parts: bool = False,
) -> list[str]:
    module = build_network(name, batch=batch)
    graph = next(op for op in module.ops if isinstance(op, task.GraphOp))
    network = network_of(graph)
    target = load_target(target_name)
    compute_bound = network.macs / (target.mesh.core_count * target.compute.macs_per_cycle)
    weight_bound = network.weight_bytes / target.global_memory.bandwidth_bytes_per_cycle
    rounds = rounds_per_layer * len(network.layers)
    lines = [
        f"{name} b{batch}: {len(network.layers)} layers, {network.macs / batch / 1e9:.3f} G MACs/image, "
        f"compute bound {compute_bound:,.0f} cyc, weight-fetch bound {weight_bound:,.0f} cyc, {rounds} rounds/chain"
    ]
    header = f"  {'search':8} {'latency':>12} {'/compute':>9} {'/weights':>9} {'energy pJ':>10} {'EDP':>10}"
    lines.append(header + f" {'core pJ':>10} {'hop-bytes':>10} {'wall s':>7} {'cpu s':>7} {'wDRAM/w':>7}")
    best_edp = float("inf")
    for space in spaces:
        cpu = cpu_seconds()
        result = search(
            network, target, cost=cost, seed=seed, rounds=rounds, chains=chains, budget_seconds=budget, space=space
        )
        cpu = cpu_seconds() - cpu
        estimate = result.estimate
        edp = estimate.energy * estimate.latency
        best_edp = min(best_edp, edp)
        lines.append(
            f"  {space:8} {estimate.latency:12,.0f} {estimate.latency / compute_bound:9.3f} "
            f"{estimate.latency / weight_bound:9.3f} {estimate.energy:10.3e} {edp:10.3e} "
            f"{core_energy(target, estimate):10.3e} "
            f"{hop_bytes(estimate):10.3e} {result.seconds:7.1f} {cpu:7.1f} "
            f"{weight_dram(estimate) / network.weight_bytes:7.3f}"
        )
        if space == "set":
            lines.append("  best tree: " + " | ".join(result.tree.notation(network, batch).splitlines()[:6]) + " …")
        if parts:
            model = CostModel(network, target, cost)
            lines += parts_rows(model, result.tree) + cause_rows(model, result.tree) + boundary_rows(model, result.tree)
            if (name, batch) in SET_BEST:
                lines += floor_rows(model, result.tree, SET_BEST[(name, batch)]["edp"])
    reference = SET_BEST.get((name, batch))
    if reference is None:
        return lines
    lines.append(
        f"  {'SET best':8} {reference['latency']:12,.0f} {reference['latency'] / compute_bound:9.3f} "
        f"{reference['latency'] / weight_bound:9.3f} {reference['energy']:10.3e} {reference['edp']:10.3e} "
        f"{'':10} {'':10} {reference['wall']:7.0f}"
    )
    lines.append(f"  stc best EDP / SET best EDP: {best_edp / reference['edp']:.3f}")
    return lines


def weight_dram(estimate: Estimate) -> int:
    """The DRAM bytes an estimate's weights, biases and tables are loaded with (copies included)."""
    return 0 if estimate.cost is None else estimate.cost.weights.dram_bytes


def core_energy(target: HardwareTarget, estimate: Estimate) -> float:
    """The energy of the buffers inside the cores of a searched tree."""
    return core_buffer_pj(target, estimate.cost.total_work) if estimate.cost is not None else float("inf")


def hop_bytes(estimate: Estimate) -> float:
    """NoC hop-bytes of a searched tree, its weights' loading included."""
    return float(estimate.cost.total_work.noc_hop_bytes) if estimate.cost is not None else float("inf")


MACHINE_NETWORKS, MACHINE_TARGETS, MACHINE_BATCHES = (
    ("tiny", "lenet", "resnet18"),
    ("set-8x8", "tianjicx", "tpu-like"),
    (1, 2),
)
"""The small zoo networks whose searched schedules run on the machine (`--machine`), each on
these targets at these batches."""


def machine_cases(only: str | None, target: str | None, batch: int | None) -> tuple[tuple[str, str, int], ...]:
    """`--machine`'s cases: each network, target and batch, or only the one given of each."""
    return tuple(
        (name, on, size)
        for name in ((only,) if only else MACHINE_NETWORKS)
        for on in ((target,) if target else MACHINE_TARGETS)
        for size in ((batch,) if batch else MACHINE_BATCHES)
    )


def machine_rows(cases: tuple[tuple[str, str, int], ...], rounds_per_layer: int, chains: int) -> list[str]:
    """Each case compiled with st-search and run: the machine's counters over the model's
    estimate (a ratio of 1 is agreement), bit-identity, the mesh's use."""
    lines = [f"  {'network':14} {'target':9} {'cycles':>17} {'DRAM bytes':>19} {'NoC hop-bytes':>23} same  busy"]
    for name, target, batch in cases:
        module = build_network(name, batch=batch)
        layers = len(network_of(next(op for op in module.ops if isinstance(op, task.GraphOp))).layers)
        try:
            run = run_searched(module, target, rounds=rounds_per_layer * layers, chains=chains)
        except (PassFailedException, StcError) as error:
            lines.append(f"  {name + ' b' + str(batch):14} {target:9} does not compile: {error}")
            continue
        cells = [
            f"{run.counters[c]:>9,} {run.ratio(c):6.3f}x".rjust(w) for c, w in zip(COMPARED, (17, 19, 23), strict=True)
        ]
        lines.append(
            f"  {name + ' b' + str(batch):14} {target:9} {' '.join(cells)} {'yes' if run.identical else 'NO':4} "
            f"{run.busy_cores:5.1f}"
        )
    return lines


def placed_rows(
    names: tuple[str, ...],
    target: str,
    rounds_per_layer: int,
    chains: int,
    seeds: int,
    batch: int = 1,
    space: str = "set",
    relay: bool = True,
) -> list[str]:
    """Each network at `batch` on `target` with today's st-place path and searched in
    `space` with `seeds` seeds, all run: machine cycles, their ratio, the machine's cycles over the
    estimate's ("/est"), the mesh's use ("busy": cores running a conv or fc per phase, on
    average over all phases; "most": the share of phases in which more than half the cores
    do), compile wall and CPU seconds."""
    cores = load_target(target).mesh.core_count
    lines = [
        f"{target}, batch {batch}, {space} space{'' if relay else ', loads not relayed'}:",
        f"  {'network':10} {'seed':>4} {'st-place cyc':>13} {'busy':>6} {'most':>5} {'wall s':>7} {'cpu s':>7} "
        f"{'searched cyc':>13} {'/est':>6} {'busy':>6} {'most':>5} {'wall s':>7} {'cpu s':>7} {'ratio':>6} same",
    ]
    for name in names:
        placed = run_placed(build_network(name, batch), target)
        module = build_network(name, batch)
        layers = len(network_of(next(op for op in module.ops if isinstance(op, task.GraphOp))).layers)
        ratios, busy, cpu = [], [], []
        for seed in range(seeds):
            searched = run_searched(
                build_network(name, batch), target, seed, rounds_per_layer * layers, chains, space, relay
            )
            ratio = searched.counters["cycles"] / placed.counters["cycles"]
            ratios.append(ratio)
            busy.append(searched.busy_cores)
            cpu.append(searched.compile_cpu)
            same = "yes" if placed.identical and searched.identical else "NO"
            lines.append(
                f"  {name:10} {seed:4} {placed.counters['cycles']:13,} {placed.busy_cores:6.1f} "
                f"{placed.mostly_busy(cores):5.2f} {placed.compile_seconds:7.1f} {placed.compile_cpu:7.1f} "
                f"{searched.counters['cycles']:13,} {searched.ratio('cycles'):6.3f} {searched.busy_cores:6.1f} "
                f"{searched.mostly_busy(cores):5.2f} {searched.compile_seconds:7.1f} {searched.compile_cpu:7.1f} "
                f"{ratio:6.3f} {same}"
            )
        lines.append(
            f"  {name}: ratio min {min(ratios):.3f} median {statistics.median(ratios):.3f}; busy min {min(busy):.1f} "
            f"median {statistics.median(busy):.1f} of {cores}; search compile CPU s min {min(cpu):.1f} "
            f"median {statistics.median(cpu):.1f} (st-place {placed.compile_cpu:.1f})"
        )
    return lines


@click.command()
@click.option("--only", default=None, help="one network of the workloads")
@click.option(
    "--rounds-per-layer", default=ROUNDS_PER_LAYER, show_default=True, help="annealing rounds per layer (SET: 100)"
)
@click.option("--budget", type=float, default=None, help="seconds per search")
@click.option("--chains", default=2, show_default=True, help="independent chains (one process each)")
@click.option("--seed", default=0, show_default=True, help="chain i searches with seed + i")
@click.option(
    "--batch", type=int, default=None, help="only this batch (with --only: any batch of that network; --tianjicx: 1)"
)
@click.option("--target", "target_name", default=None, help="preset or TOML path [set-8x8; --machine: all three]")
@click.option("--cost", default="edp", show_default=True, help="the searches' cost function")
@click.option("--spaces", default=None, help="the searches to run, comma-separated [ls,lp,set; --tianjicx: set]")
@click.option("--machine", is_flag=True, help="searched schedules of small nets: the estimate against the machine")
@click.option("--tianjicx", is_flag=True, help="searched schedules against st-place on tianjicx, both run")
@click.option("--against-place", "targets", multiple=True, help="as --tianjicx on this target (repeatable)")
@click.option("--seeds", default=1, show_default=True, help="--tianjicx: searches per network, seeds 0, 1, …")
@click.option("--parts", is_flag=True, help="each best tree's energy outside the cores, per leaf, and its EDP floor")
@click.option(
    "--relay/--no-relay", default=True, show_default=True, help="--tianjicx: st-search's relay of shared loads"
)
def main(
    only: str | None,
    rounds_per_layer: int,
    budget: float | None,
    chains: int,
    seed: int,
    batch: int | None,
    spaces: str | None,
    target_name: str | None,
    cost: str,
    machine: bool,
    tianjicx: bool,
    targets: tuple[str, ...],
    seeds: int,
    parts: bool,
    relay: bool,
) -> None:
    if machine:
        cases = machine_cases(only, target_name, batch)
        for line in machine_rows(cases, rounds_per_layer, chains):
            click.echo(line)
        return
    if tianjicx or targets:
        names = ("tiny", "lenet", "resnet18") if only is None else (only,)
        for target in targets or ("tianjicx",):
            for space in (spaces or "set").split(","):
                for line in placed_rows(names, target, rounds_per_layer, chains, seeds, batch or 1, space, relay):
                    click.echo(line)
        return
    workloads = [(name, size) for name, size in WORKLOADS if only in (None, name) and batch in (None, size)]
    if only is not None and batch is not None and not workloads:
        workloads = [(only, batch)]
    for name, size in workloads:
        searches = tuple((spaces or "ls,lp,set").split(","))
        for line in run(
            name, size, rounds_per_layer, budget, chains, seed, searches, target_name or "set-8x8", cost, parts
        ):
            click.echo(line)


if __name__ == "__main__":
    main()
