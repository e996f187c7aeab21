"""
The schedule search: independent annealing chains on the machine's cores, the best kept.

Chain i starts from the same initial tree (built once, the processes sharing out its
greedy segmentations' subbatch caps) with seed `seed + i`; chain 0 runs in this process with the
model that built it (its priced leaves reused) and draws the progress bar of
`stc.compiler.progress` on a terminal, the others in worker processes forked with a copy of
that model (the start's segments priced already). The
best chain wins, ties to the lower index, so a search is deterministic for a seed unless
the time budget ends chains early. Rounds default to 25 per layer (`ROUNDS_PER_LAYER`;
SET anneals 100): on SET's four workloads 100 end on the same figures or within a seed's
spread (VGG-19 0.2-0.4 % less EDP, ResNet-50 b64 4 % more or less), for three to four times
the time (docs/passes/st-search.md, "Rounds per layer").

    result = search(network, target, cost="edp", seed=0, chains=2, space="set")
    print(result.tree.notation(network, network.batch))
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Iterator
from multiprocessing.pool import AsyncResult

from attrs import frozen

from stc.compiler.cost.estimate import Estimate
from stc.compiler.cost.evaluate import Cached, CostModel
from stc.compiler.cost.network import Network
from stc.compiler.cost.tree import Node
from stc.compiler.diagnostics import StcError
from stc.compiler.progress import Progress, progress
from stc.compiler.search.annealing import (
    REPORT_EVERY,
    RETURN_EVERY,
    ChainResult,
    anneal,
    initial_tree,
    priced_greedy,
)
from stc.compiler.targets.hardware import HardwareTarget

SPACES = ("set", "ls", "lp")
ROUNDS_PER_LAYER = 25


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
    initial: Node
    every: float = RETURN_EVERY
    polish: bool = True


def run_chain(job: ChainJob, bar: Progress | None = None, model: CostModel | None = None) -> ChainResult:
    model = model or _STARTED or CostModel(job.network, job.target, job.cost)
    report = None if bar is None else (lambda done, best: bar.advance(REPORT_EVERY))
    return anneal(
        model, job.initial, job.rounds, job.seed, job.space, job.deadline, report, every=job.every, polish=job.polish
    )


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
    show_progress: bool = True,
    every: float = RETURN_EVERY,
    polish: bool = True,
) -> SearchResult:
    """See the module docstring; `jobs` processes (default: the usable cores, at most
    `chains`); chain 0's rounds as a bar on stderr when it is a terminal; each chain returns
    to its best tree after each `every` of its rounds and, with `polish`, ends polishing it
    (`annealing.anneal`)."""
    if space not in SPACES:
        raise StcError(f"unknown search space {space!r}: use {', '.join(SPACES)}")
    if chains < 1:
        raise StcError(f"chains must be at least 1, got {chains}")
    started = time.monotonic()
    model = CostModel(network, target, cost)
    workers = min(chains, jobs or len(os.sched_getaffinity(0))) - 1
    start = shared_start(model, space, workers)
    initial = model.evaluate(start)
    rounds = ROUNDS_PER_LAYER * len(network.layers) if rounds is None else rounds
    deadline = None if budget_seconds is None else started + budget_seconds
    work = [
        ChainJob(network, target, cost, space, rounds, seed + i, deadline, start, every, polish) for i in range(chains)
    ]
    with progress(f"st-search {network.name} ({space})", rounds) as bar:
        shown = bar if show_progress else None
        if workers > 0:
            with multiprocessing.get_context("fork").Pool(workers, share_model, (model,)) as pool:
                others = pool.map_async(run_chain, work[1:])
                first = run_chain(work[0], shown, model)
                results = [first, *others.get()]
        else:
            results = [run_chain(job, shown if i == 0 else None, model) for i, job in enumerate(work)]
    best = min(range(chains), key=lambda i: (results[i].cost, i))
    winner = results[best]
    return SearchResult(
        winner.tree, winner.estimate, winner.cost, space, initial, tuple(results), time.monotonic() - started
    )


CAPS_PER_PROCESS = 2
"""Consecutive subbatch caps one process of the start prices, one after the other: the
greedy segmentations of neighbouring caps share most of their segments (priced once in the
process's model), so the caps are shared out in runs, not one by one."""

_STARTED: CostModel | None = None
"""A chain worker's copy of the model that priced the start (set by `share_model`)."""


def share_model(model: CostModel) -> None:
    global _STARTED
    _STARTED = model


_WORKER: tuple[CostModel, str] | None = None
"""A start worker's model and space (set by `adopt` in each worker process)."""


def adopt(model: CostModel, space: str) -> None:
    global _WORKER
    _WORKER = (model, space)


def worker_greedy(caps: list[int]) -> list[tuple[Node | None, float, Cached]]:
    """`priced_greedy` under each cap in turn, with what pricing each tree left in the
    worker's model (`CostModel.cached`)."""
    assert _WORKER is not None
    model, space = _WORKER
    priced = [priced_greedy(model, space, cap) for cap in caps]
    return [(tree, cost, model.cached(tree) if tree else ({}, {})) for tree, cost in priced]


def shared_start(model: CostModel, space: str, workers: int) -> Node:
    """`initial_tree`, its greedy segmentations' caps priced by `workers + 1` processes at
    a time, CAPS_PER_PROCESS consecutive caps each: the first run here (its leaves stay in
    `model` for chain 0), the others in forked workers (each keeps its model's priced
    leaves from one run to the next), their trees' segment costs handed to `model`, so that
    it need not price the start again; when this process's caps settle the start, it does
    not take the workers' results, but lets their runs end before the pool closes (a fork
    pool terminated while its workers run can hang in `Pool.terminate`). The same tree as
    one process's."""
    if workers == 0:
        return initial_tree(model, space)
    with multiprocessing.get_context("fork").Pool(workers, adopt, (model, space)) as pool:
        running: list[AsyncResult] = []

        def greedy(caps: list[int]) -> Iterator[tuple[Node | None, float]]:
            runs = [caps[first : first + CAPS_PER_PROCESS] for first in range(0, len(caps), CAPS_PER_PROCESS)]
            others = pool.map_async(worker_greedy, runs[1:])
            running.append(others)
            yield from (priced_greedy(model, space, cap) for cap in runs[0])
            for tree, cost, cached in (priced for run in others.get() for priced in run):
                model.adopt(cached)
                yield tree, cost

        start = initial_tree(model, space, greedy, CAPS_PER_PROCESS * (workers + 1))
        for others in running:
            others.wait()
        return start
