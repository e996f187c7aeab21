"""
Segments a chain has priced, recombined: the cheapest tree whose segments all come from
trees the chain priced (stc's addition to SET's annealing).

A segment's cost depends on its subtree and cores alone (`CostModel.segment_cost`), so the
segments of every valid tree a chain prices stay priced. A root T-cut of one subbatch runs
its segments one after another: its energy is theirs summed, its latency about theirs
summed (less the next segment's weights loaded beside the last slots). Over the
layers in any order their dependences allow, a dynamic programme keeps, per set of layers
run so far, the segment sequences that no other beats in both summed energy and summed
latency (a Pareto front, exact for any objective growing in both); the front of all layers
is then priced whole and the cheapest legal tree kept. A move changes one segment or one boundary at a time,
so a chain that found a good first half in one tree and a good second half in another
reaches their join only through dearer or invalid trees: DarkNet-19 b64's chains ended on
trees of five segments (0.979-0.986 x SET's EDP) where stop 27's four-segment trees
price 0.952-0.962; recombined, all three seeds end on 0.952 (docs/passes/st-search.md,
"Segments recombined").

Two fronts are priced whole: one of the segments priced alone, each tensor between them
through DRAM, and one of the segments as the chain's trees priced them, where a tensor
between segments may stay on chip (`cost/kept.py`: the producer stores nothing, the
consumer reads from its cores). A tensor kept costs a boundary little, so the sequences
keep makes cheapest are many short segments, which the first front's DRAM round trips
price dearest and leave out.

    pool = SegmentPool()
    pool.add(model, tree, estimate)           # after each valid tree
    tree, estimate, cost = pool.best(model, rules)   # None when no tree of two segments or more
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable

from attrs import define, field

from stc.compiler.cost.estimate import Estimate
from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.tree import Node
from stc.compiler.search.moves import Rules, legal

Front = list[tuple[float, float, tuple[tuple, ...]]]
"""(summed energy, summed latency, segment keys) sequences, none beaten in both."""


@define
class SegmentPool:
    """The segments of the valid trees one chain priced, by subtree key."""

    segments: dict[tuple, Node] = field(factory=dict)
    priced: dict[tuple, tuple[float, float]] = field(factory=dict)
    """Energy and latency of each segment run alone (a root T-cut of it), once asked."""
    seen: dict[tuple, Front] = field(factory=dict)
    """Energy and latency of each segment as the chain's trees priced it, none beaten in both."""

    def add(self, model: CostModel, tree: Node, estimate: Estimate | None = None) -> None:
        """Keep the segments of a tree priced valid (a root T-cut of one subbatch's
        children; the whole tree otherwise) and, with its `estimate`, their costs in it."""
        for index, segment in enumerate(model.segments(tree)):
            key = segment.key()
            self.segments.setdefault(key, segment.copy())
            if estimate is not None and estimate.segments:
                cost = estimate.segments[index]
                self.seen[key] = pareto([*self.seen.get(key, []), (cost.energy(model.target), cost.latency, ())])

    def best(
        self, model: CostModel, rules: Rules, deadline: float | None = None
    ) -> tuple[Node, Estimate, float] | None:
        """The cheapest legal tree of pooled segments (of at least two) of either front
        (module docstring) and its cost, or None when there is none; past `deadline`
        (`time.monotonic`) no other tree is priced."""
        layers = frozenset(range(len(model.network.layers)))
        alone = self.front(rules, lambda key: [(*self.cost(model, key), ())]).get(layers, [])
        within = self.front(rules, lambda key: self.seen.get(key) or [(*self.cost(model, key), ())]).get(layers, [])
        options = []
        for keys in dict.fromkeys(keys for _, _, keys in alone + within):
            if deadline is not None and time.monotonic() > deadline:
                break
            if len(keys) < 2:
                continue
            tree = Node.cut("T", [self.segments[key].copy() for key in keys])
            if not legal(tree, rules):
                continue
            estimate = model.evaluate(tree)
            cost = estimate.value(model.objective)
            options.append((cost, tree, estimate))
        if not options:
            return None
        cost, tree, estimate = min(options, key=lambda option: option[0])
        return tree, estimate, cost

    def front(self, rules: Rules, costs: Callable[[tuple], Front]) -> dict[frozenset[int], Front]:
        """Per set of layers run first, the Pareto front of the pooled segment sequences
        that run them in an order their dependences allow, each segment at any of its
        `costs` (energy, latency)."""
        starting: dict[int, list[tuple[tuple, frozenset[int], frozenset[int]]]] = {}
        for key, segment in self.segments.items():
            order = list(segment.leaves())
            inside = frozenset(order)
            outside = frozenset().union(*(rules.producers[layer] for layer in order)) - inside
            starting.setdefault(order[0], []).append((key, inside, outside))
        fronts: dict[frozenset[int], Front] = {frozenset(): [(0.0, 0.0, ())]}
        pending = [(0, ())]
        while pending:  # by size: a set's every predecessor is smaller
            _, members = heapq.heappop(pending)
            done = frozenset(members)
            for first in (layer for layer in range(len(rules.producers)) if layer not in done):
                for key, inside, outside in starting.get(first, []):
                    if inside & done or not outside <= done:
                        continue
                    after = done | inside
                    if after not in fronts:
                        heapq.heappush(pending, (len(after), tuple(sorted(after))))
                    grown = [
                        (e + energy, t + latency, keys + (key,))
                        for energy, latency, _ in costs(key)
                        for e, t, keys in fronts[done]
                    ]
                    fronts[after] = pareto(fronts.get(after, []) + grown)
        return fronts

    def cost(self, model: CostModel, key: tuple) -> tuple[float, float]:
        if key not in self.priced:
            estimate = model.evaluate(Node.cut("T", [self.segments[key].copy()]))
            self.priced[key] = (estimate.energy, estimate.latency)
        return self.priced[key]


def pareto(front: Front) -> Front:
    """The sequences no other beats in both energy and latency, by latency."""
    kept: Front = []
    for option in sorted(front, key=lambda option: option[:2]):  # stable: ties in the pool's order
        if not kept or option[1] < kept[-1][1]:
            kept.append(option)
    return kept
