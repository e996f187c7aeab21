"""
Seed 002's simulated annealing over RA trees, one chain.

Each round applies a random move (`moves.mutate`) and prices the new tree; a cheaper tree
is accepted, a dearer one with probability exp(−Δ / T), where Δ is the relative cost
increase and T(x) = 0.07·(1 − x) / (1 + 8x) at x = round / rounds. After every tenth of the
rounds the chain jumps back to the best tree seen (SET's jumps once, at 90 %: `every=0.9`).
Under a time budget (`deadline`) x is the larger of the rounds' and the budget's fraction
spent, and the chain also jumps back after every tenth of the budget: a chain the budget
ends early has cooled and returned as one of its rounds would have (its rounds stop as long
before the deadline as its last recombination took, for the one at its end; a
recombination or polish prices no tree after the deadline). At its end the best
tree is polished by joining one-layer segments (`polish.py`). Deterministic for a seed,
unless a time budget ends it early.

    result = anneal(model, initial_tree(model), rounds=2500, seed=0, space="set")
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable

from attrs import field, frozen

from stc.compiler.cost.estimate import Estimate
from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.tree import Node
from stc.compiler.diagnostics import StcError
from stc.compiler.search.moves import MOVES, Rules, propose_legal
from stc.compiler.search.polish import polished
from stc.compiler.search.recombine import SegmentPool

REPORT_EVERY = 50

RETURN_EVERY = 0.1
"""A chain returns to its best tree after each such fraction of its rounds (SET's: 0.9, once).
Every tenth finds lower EDP and latency on ResNet-50 b64, seeds 0-4 (docs/passes/st-search.md)."""

ATTEMPTS = 32
"""Moves drawn per round until one applies and leaves a legal tree (a round prices one tree)."""

GREEDY_COUNTS = 2
"""How many fitting subbatch counts the greedy segmentation compares per segment."""

Greedy = Callable[[list[int]], Iterable[tuple[Node | None, float]]]
"""The greedy segmentation and its cost under each of some subbatch caps, in order
(`priced_greedy`): the caps after the first not cheaper are not asked for."""


def temperature(x: float) -> float:
    """SET's schedule at progress x ∈ [0, 1]."""
    return 0.07 * (1 - x) / (1 + 8 * x)


@frozen
class MoveCount:
    """What became of one move kind's proposals in a chain."""

    proposed: int = 0
    legal: int = 0
    """Applied and left a legal tree."""
    valid: int = 0
    """Priced to a finite cost (fits the buffers, enough cores)."""
    accepted: int = 0
    improved: int = 0
    """Accepted with a lower cost than the current tree's."""


@frozen
class ChainResult:
    tree: Node
    estimate: Estimate
    cost: float
    rounds: int
    """Rounds run (fewer than asked when the time budget ended the chain)."""
    accepted: int
    seconds: float
    moves: dict[str, MoveCount] = field(factory=dict)
    """Per move kind (`moves.MOVES`), what became of its proposals."""
    curve: tuple[tuple[int, float], ...] = ()
    """(round, best cost) at round 0 and every round that lowered the best cost."""


def initial_tree(model: CostModel, space: str = "set", greedy: Greedy | None = None, width: int = 1) -> Node:
    """The cheapest greedy segmentation (`cheapest_greedy`), which is SET's start when all
    layers fit on chip at once; SET's start (`set_start`) when a layer fits no subbatch count
    alone, or in the layer-pipeline space when it is cheaper (there the greedy segments
    are S-cuts)."""
    greedy_tree = cheapest_greedy(model, space, greedy, width)
    if greedy_tree is None:
        return set_start(model, space)
    if space != "lp":
        return greedy_tree
    start = set_start(model, space)
    return min((greedy_tree, start), key=lambda tree: model.evaluate(tree).value(model.objective))


def cheapest_greedy(model: CostModel, space: str = "set", greedy: Greedy | None = None, width: int = 1) -> Node | None:
    """`greedy_segments` with the subbatch counts capped at each count of the batch in turn,
    the largest first, until a cap's tree is not cheaper than the last: the cheapest. A
    lower cap closes a segment where its subbatches would shrink, so the segments run larger
    subbatches (each layer's weights and inputs are used for more images per run).
    `greedy` prices `width` caps at a time (the chains' processes share them, `chains.py`);
    the caps it prices after the first not cheaper are priced for nothing, the start is the same."""
    greedy = greedy or (lambda caps: [priced_greedy(model, space, cap) for cap in caps])
    caps = list(reversed(subbatch_counts(model.network.batch)))
    best, best_cost = None, float("inf")
    for first in range(0, len(caps), width):
        for tree, cost in greedy(caps[first : first + width]):
            if tree is None or cost >= best_cost:
                return best
            best, best_cost = tree, cost
    return best


def priced_greedy(model: CostModel, space: str, cap: int) -> tuple[Node | None, float]:
    """`greedy_segments` under a cap and its cost (∞ when a layer fits no count)."""
    tree = greedy_segments(model, space, cap)
    return tree, float("inf") if tree is None else model.evaluate(tree).value(model.objective)


def subbatch_counts(batch: int) -> list[int]:
    return [n for n in range(1, batch + 1) if batch % n == 0]


def set_start(model: CostModel, space: str = "set") -> Node:
    """SET's start: every layer under a root T-cut, subbatches doubled until it fits; when no
    count fits, each layer its own segment, each with the fewest subbatches that fit (as
    one-layer S-cuts in the layer-pipeline space, T-cuts elsewhere)."""
    batch = model.network.batch
    layers = range(len(model.network.layers))
    counts = subbatch_counts(batch)
    for n in counts:
        tree = Node.cut("T", [Node.leaf(i) for i in layers], n=n)
        if model.evaluate(tree).valid:
            return tree
    kind = "S" if space == "lp" else "T"
    segments = []
    for i in layers:
        fitting = (n for n in counts if model.evaluate(Node.cut("T", [Node.cut(kind, [Node.leaf(i)], n=n)])).valid)
        n = next(fitting, None)
        if n is None:
            reason = model.evaluate(Node.cut("T", [Node.cut("T", [Node.leaf(i)], n=batch)])).reason
            name = model.network.layers[i].name
            raise StcError(f"layer {name} does not fit {model.target.name} even one image at a time: {reason}")
        segments.append(Node.cut(kind, [Node.leaf(i)], n=n))
    return Node.cut("T", segments)


def greedy_segments(model: CostModel, space: str = "set", cap: int | None = None) -> Node | None:
    """Segments of consecutive layers (T-cuts; S-cuts in the layer-pipeline space), each
    grown while some subbatch count (at most `cap`) still fits it, with the cheaper of the
    two fewest subbatch counts that fit (no fewer than the previous layer's); None
    when a layer fits no count. stc's addition to SET's start: on networks whose layers
    do not all fit on chip at once it starts from fused segments instead of one per layer."""
    kind = "S" if space == "lp" else "T"
    counts = [n for n in subbatch_counts(model.network.batch) if cap is None or n <= cap]
    layers = len(model.network.layers)
    segments: list[Node] = []
    first = 0
    while first < layers:
        grown: Node | None = None
        least = 0
        for last in range(first, layers):
            leaves = [Node.leaf(i) for i in range(first, last + 1)]
            fitting = []
            for position in range(least, len(counts)):
                segment = Node.cut(kind, leaves, n=counts[position])
                estimate = model.evaluate(Node.cut("T", [segment]))
                if estimate.valid:
                    fitting.append((estimate.value(model.objective), position, segment))
                if len(fitting) == GREEDY_COUNTS:
                    break
            if not fitting:
                break
            _, least, grown = min(fitting, key=lambda option: option[:2])
        if grown is None:
            return None
        segments.append(grown)
        first += len(grown.children)
    return Node.cut("T", segments)


def anneal(
    model: CostModel,
    initial: Node,
    rounds: int,
    seed: int,
    space: str = "set",
    deadline: float | None = None,
    report: Callable[[int, float], None] | None = None,
    attempts: int = ATTEMPTS,
    every: float = RETURN_EVERY,
    recombine: bool = True,
    polish: bool = True,
) -> ChainResult:
    """One annealing chain; see the module docstring. `report(round, best cost)` is called
    every REPORT_EVERY rounds (a progress bar); a round draws up to `attempts` moves until
    one leaves a legal tree (1: SET's, a round whose move does not apply prices nothing);
    the chain returns to its best tree after each `every` of the rounds (0.9: SET's), at least
    one round (a chain of fewer than 1 / `every` rounds returns after each). With `recombine`,
    before each return and at the end the cheapest tree of the segments priced so far
    (`recombine.SegmentPool`) becomes the best tree where it is cheaper; with `polish`, the
    best tree is then polished (`polish.polished`)."""
    started = time.monotonic()
    rng = random.Random(seed)
    rules = Rules.of(model.network, space)
    current, estimate = initial, model.evaluate(initial)
    cost = estimate.value(model.objective)
    best, best_estimate, best_cost = current, estimate, cost
    pool = SegmentPool()
    if recombine and math.isfinite(cost):
        pool.add(model, current, estimate)
    counts = {move.__name__: [0] * 5 for move in MOVES}
    curve = [(0, best_cost)]
    accepted = 0
    done = 0
    period = max(1, int(every * rounds))
    returns = 0
    closing = 0.0
    """The last return's recombination's seconds: under a budget the rounds stop that long
    before the deadline, so that the chain's own recombines and polishes by it."""
    for done in range(1, rounds + 1):
        progress, timed = done / rounds, False
        if deadline is not None:
            now = time.monotonic()
            if now + closing > deadline:
                break
            elapsed = (now - started) / max(deadline - started, 1e-9)
            timed, returns = int(elapsed / every) > returns, max(returns, int(elapsed / every))
            progress = max(progress, elapsed)
        if done % period == 0 and done < rounds or timed:
            recombined = time.monotonic()
            if recombine and (joined := cheaper(pool, model, rules, best_cost, deadline)):
                best, best_estimate, best_cost = joined
                curve.append((done, best_cost))
            closing = time.monotonic() - recombined
            current, cost = best, best_cost
        drawn = propose_legal(current, rng, rules, attempts)
        for name, _ in drawn:
            counts[name][0] += 1
        name, candidate = drawn[-1]
        if candidate is None:
            continue
        count = counts[name]
        count[1] += 1
        candidate_estimate = model.evaluate(candidate)
        candidate_cost = candidate_estimate.value(model.objective)
        if not math.isfinite(candidate_cost):
            continue
        count[2] += 1
        if recombine:
            pool.add(model, candidate, candidate_estimate)
        increase = (candidate_cost - cost) / cost
        if increase <= 0 or rng.random() < math.exp(-increase / max(temperature(progress), 1e-12)):
            count[3] += 1
            count[4] += increase < 0
            current, cost = candidate, candidate_cost
            accepted += 1
            if cost < best_cost:
                best, best_estimate, best_cost = current, candidate_estimate, cost
                curve.append((done, best_cost))
        if report is not None and done % REPORT_EVERY == 0:
            report(done, best_cost)
    if recombine and (joined := cheaper(pool, model, rules, best_cost, deadline)):
        best, best_estimate, best_cost = joined
        curve.append((done, best_cost))
    if polish and math.isfinite(best_cost):
        best, best_estimate, cost = polished(model, rules, best, best_estimate, best_cost, deadline)
        if cost < best_cost:
            best_cost = cost
            curve.append((done, best_cost))
    moves = {name: MoveCount(*count) for name, count in counts.items()}
    return ChainResult(best, best_estimate, best_cost, done, accepted, time.monotonic() - started, moves, tuple(curve))


def cheaper(
    pool: SegmentPool, model: CostModel, rules: Rules, cost: float, deadline: float | None = None
) -> tuple[Node, Estimate, float] | None:
    """The pool's cheapest tree (of those priced by `deadline`) where it costs less than `cost`."""
    joined = pool.best(model, rules, deadline)
    return joined if joined is not None and joined[2] < cost else None
