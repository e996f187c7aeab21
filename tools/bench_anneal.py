"""
How the annealing improves on its start tree: best cost against rounds, and what became of
each move kind's proposals, for SET's rounds (a round whose move does not apply or leaves an
illegal tree prices nothing: `attempts=1`) and for stc's (moves drawn until one is legal).

    python -m stc.tools.bench_anneal [--only resnet18] [--rounds-per-layer 10] [--seeds 3]

Each case is one chain per seed from the same start tree (`initial_tree`); "best / start"
is the best cost over the start's, min and median over the seeds, after the given share of
the rounds; "cpu s" the CPU time of all the chains, each kind with a model of its own (no
priced leaf shared). The cost model's, not the machine's: deterministic, independent of the load.
"""

from __future__ import annotations

import statistics
import time

import attrs
import click

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.network import network_of
from stc.compiler.search.annealing import ATTEMPTS, ChainResult, MoveCount, anneal, initial_tree
from stc.compiler.targets.hardware import load_target
from stc.compiler.tiling.fit import split_reductions
from stc.compiler.zoo import build_network
from stc.runtime.golden import find_graph

CASES = (("lenet", "tianjicx", 1), ("resnet18", "tianjicx", 1), ("darknet19", "set-8x8", 64))

CHECKPOINTS = (0.1, 0.25, 0.5, 0.75, 1.0)


def best_at(result: ChainResult, start: float, done: int) -> float:
    """The chain's best cost after `done` rounds, over the start's."""
    return min(cost for at, cost in result.curve if at <= done) / start


def case_rows(name: str, target_name: str, batch: int, rounds_per_layer: int, seeds: int) -> list[str]:
    graph = find_graph(build_network(name, batch=batch))
    target = load_target(target_name)
    split_reductions(graph, target)
    model = CostModel(network_of(graph), target)
    start = initial_tree(model)
    start_cost = model.evaluate(start).value(model.objective)
    rounds = rounds_per_layer * len(model.network.layers)
    layers = len(model.network.layers)
    lines = [f"{name} b{batch} on {target_name}: {layers} layers, {rounds} rounds, seeds 0-{seeds - 1}"]
    header = "  ".join(f"{int(share * 100):>3} %  min   med" for share in CHECKPOINTS)
    lines.append(f"  {'rounds':8} {'cpu s':>6}  best / start after  {header}")
    for label, attempts in (("SET", 1), ("stc", ATTEMPTS)):
        fresh = CostModel(model.network, target)
        cpu = time.process_time()
        results = [anneal(fresh, start, rounds, seed, attempts=attempts) for seed in range(seeds)]
        cpu = time.process_time() - cpu
        cells = []
        for share in CHECKPOINTS:
            values = [best_at(result, start_cost, int(share * rounds)) for result in results]
            cells.append(f"{min(values):5.3f} {statistics.median(values):5.3f}")
        lines.append(f"  {label:8} {cpu:6.1f}  {'':19}" + "   ".join(cells))
        lines += move_rows(results)
    return lines


def move_rows(results: list[ChainResult]) -> list[str]:
    """Each move kind's proposals, summed over the chains."""
    lines = [f"    {'move':18} {'proposed':>8} {'legal':>6} {'valid':>6} {'accepted':>8} {'improved':>8}"]
    for name in results[0].moves:
        counts = [result.moves[name] for result in results]
        total = MoveCount(*map(sum, zip(*(attrs.astuple(count) for count in counts), strict=True)))
        lines.append(
            f"    {name:18} {total.proposed:8} {total.legal:6} {total.valid:6} {total.accepted:8} {total.improved:8}"
        )
    return lines


@click.command()
@click.option("--only", default=None, help="one network of the cases")
@click.option("--rounds-per-layer", default=10, show_default=True, help="annealing rounds per layer (SET: 100)")
@click.option("--seeds", default=3, show_default=True, help="chains per case, seeds 0, 1, …")
def main(only: str | None, rounds_per_layer: int, seeds: int) -> None:
    for name, target, batch in CASES:
        if only is not None and name != only:
            continue
        for line in case_rows(name, target, batch, rounds_per_layer, seeds):
            click.echo(line)


if __name__ == "__main__":
    main()
