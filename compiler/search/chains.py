"""
The schedule search: independent annealing chains on the machine's cores, the best kept.

Chain i starts from the same initial tree with seed `seed + i`; chain 0 runs in this
process (and draws the progress bar on a terminal), the others in worker processes. The
best chain wins, ties to the lower index, so a search is deterministic for a seed unless
the time budget ends chains early. Rounds default to SET's 100 per layer.

    result = search(network, target, cost="edp", seed=0, chains=2, space="set")
    print(result.tree.notation(network, network.batch))
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time

from attrs import frozen

from stc.compiler.cost.evaluate import CostModel, Estimate
from stc.compiler.cost.network import Network
from stc.compiler.cost.tree import Node
from stc.compiler.diagnostics import StcError
from stc.compiler.search.annealing import ChainResult, anneal, initial_tree
from stc.compiler.search.progress import Progress
from stc.compiler.targets.hardware import HardwareTarget

SPACES = ("set", "ls", "lp")
ROUNDS_PER_LAYER = 100


@frozen
class SearchResult:
    tree: Node
    estimate: Estimate
    cost: float
    space: str
    initial: Estimate
    chains: tuple[ChainResult, ...]
    seconds: float


@frozen
class ChainJob:
    network: Network
    target: HardwareTarget
    cost: str
    space: str
    rounds: int
    seed: int
    deadline: float | None


def run_chain(job: ChainJob, progress: Progress | None = None) -> ChainResult:
    model = CostModel(job.network, job.target, job.cost)
    report = None if progress is None else progress.update
    return anneal(model, initial_tree(model, job.space), job.rounds, job.seed, job.space, job.deadline, report)


def search(
    network: Network,
    target: HardwareTarget,
    cost: str = "edp",
    seed: int = 0,
    rounds: int | None = None,
    chains: int = 2,
    jobs: int | None = None,
    budget_seconds: float | None = None,
    space: str = "set",
    progress: bool | None = None,
) -> SearchResult:
    """See the module docstring; `jobs` processes (default: the usable cores, at most
    `chains`), `progress` None draws the bar only when stderr is a terminal."""
    if space not in SPACES:
        raise StcError(f"unknown search space {space!r}: use {', '.join(SPACES)}")
    if chains < 1:
        raise StcError(f"chains must be at least 1, got {chains}")
    started = time.monotonic()
    model = CostModel(network, target, cost)
    initial = model.evaluate(initial_tree(model, space))
    rounds = ROUNDS_PER_LAYER * len(network.layers) if rounds is None else rounds
    deadline = None if budget_seconds is None else started + budget_seconds
    work = [ChainJob(network, target, cost, space, rounds, seed + i, deadline) for i in range(chains)]
    workers = min(chains, jobs or len(os.sched_getaffinity(0))) - 1
    show = sys.stderr.isatty() if progress is None else progress
    bar = Progress(f"st-search {network.name} ({space})", rounds) if show else None
    if workers > 0:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            others = pool.map_async(run_chain, work[1:])
            first = run_chain(work[0], bar)
            results = [first, *others.get()]
    else:
        results = [run_chain(job, bar if i == 0 else None) for i, job in enumerate(work)]
    if bar is not None:
        bar.close()
    best = min(range(chains), key=lambda i: (results[i].cost, i))
    winner = results[best]
    return SearchResult(
        winner.tree, winner.estimate, winner.cost, space, initial, tuple(results), time.monotonic() - started
    )
