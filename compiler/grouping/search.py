"""
Finding the layer groups of a graph (seed 004, TPU-MLIR's `GroupMethod`).

A group is a run of consecutive layers in graph order (so it is convex: a path between two
members never leaves the group) whose members are connected. Its slicing is the coarsest
that fits local memory, N first and then H (`Groups.sliced`); it is invalid when none does.
Its cost is the cycles of its timesteps (`price.timeline_cycles`).

- `greedy`, the seed's tail-to-head search: fix the last layer, grow the group towards the
  head while it stays valid, cut, and go on with the layer before the cut;
- `best` keeps the cheaper of the two;
- `dp`, TPU-MLIR's default: the layers are merged into at most `MAX_CLUSTERS` clusters of
  consecutive layers, then cost[i][j] = min(cost of one group i..j,
  min over k of cost[i][k] + cost[k+1][j]) over the clusters.

Each returns the groups in graph order: `[Group(members=(4, 6, 10, ...), plan=..., cycles=...), ...]`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import attrs
from attrs import frozen

from stc.compiler.grouping.layers import LayerGraph
from stc.compiler.grouping.price import StepWork, step_cycles, timeline_cycles
from stc.compiler.grouping.slicing import SlicingRefused, slice_group
from stc.compiler.grouping.timesteps import GroupPlan, fits, group_memory, plan_group
from stc.compiler.targets.hardware import HardwareTarget

MAX_CLUSTERS = 50
"""TPU-MLIR's MAX_GROUP_CLUSTER: the DP runs over at most this many clusters of layers."""
VARIANTS = (
    (True, True, False),
    (False, True, False),
    (True, False, False),
    (True, True, True),
    (False, True, True),
    (True, False, True),
    (False, False, True),
)
"""(hoisted, pipelined, delayed) of the plans `Groups.scheduled` weighs against the plan as
is; of equally cheap plans the first is kept, so stores are delayed only where that pays."""
LOOKAHEAD = 8
"""How many more layers the greedy search tries after a group stops being valid (a run of
layers may be disconnected until a later layer joins its branches)."""


@frozen
class Group:
    """A valid group: its members in graph order, its plan and its cycles."""

    members: tuple[int, ...]
    plan: GroupPlan
    cycles: int


class Groups:
    """The groups of one graph on one target, each planned once."""

    def __init__(self, layers: LayerGraph, target: HardwareTarget, pipeline: bool = True, delay: bool = True):
        self.layers = layers
        self.target = target
        self.pipeline = pipeline
        """Whether input tiles may be loaded one timestep early (software pipelining)."""
        self.delay = delay
        """Whether results later groups read may be stored one timestep late."""
        self.memory = group_memory(target)
        self.known: dict[tuple[int, int], Group | None] = {}
        self.evaluated = 0
        self.overflows: dict[int, int] = {}
        """For a start position, the smallest stop whose group fits at no slicing."""

    def group(self, start: int, stop: int) -> Group | None:
        """The group of layers start..stop − 1 (graph positions), None when it is invalid.
        A group that grows past a run that fits at no slicing is taken not to fit either
        (the searches' pruning, a heuristic: growing a group mostly adds bytes to hold)."""
        if stop > self.overflows.get(start, stop):
            return None
        if (start, stop) not in self.known:
            self.evaluated += 1
            members = tuple(op.task_id for op in self.layers.ops[start:stop])
            group = None
            if self.layers.is_connected(members):
                group = self.sliced(members)
                if group is None:
                    self.overflows[start] = min(stop, self.overflows.get(start, stop))
            self.known[start, stop] = group
        return self.known[start, stop]

    def slicings(self, members: Sequence[int]) -> Iterator[tuple[int, int]]:
        """(n, h) from coarsest to finest: N first, each count shrinking the batch slice,
        then H at full N, each count shrinking the row slice."""
        batch = self.layers.op(members[-1]).shape[0]
        for n in range(1, batch + 1):
            if n == 1 or -(-batch // n) < -(-batch // (n - 1)):
                yield n, 1
        height = min(self.layers.op(m).shape[1] for m in self.layers.outputs_of(members))
        for h in range(2, height + 1):
            if -(-height // h) < -(-height // (h - 1)):
                yield batch, h

    def sliced(self, members: Sequence[int]) -> Group | None:
        """The group at its coarsest slicing that fits, None when none does."""
        for n, h in self.slicings(members):
            try:
                slicing = slice_group(self.layers, members, n, h)
            except SlicingRefused:
                if h > 1:
                    return None
                continue
            plan = plan_group(self.layers, slicing, self.target)
            if fits(plan, self.memory):
                return self.priced(self.scheduled(plan))
        return None

    def priced(self, plan: GroupPlan) -> Group:
        return Group(plan.slicing.members, plan, timeline_cycles(plan.timeline, self.target))

    def scheduled(self, plan: GroupPlan) -> GroupPlan:
        """On a target whose DMA overlaps compute, the cheapest plan that fits among the plan
        and its variants: its data blocks loaded one timestep early (seed 004's w4), its
        input tiles loaded one timestep early (software pipelining of the slices), its
        results that later groups read stored one timestep late, and each combination of
        these; otherwise the plan. Loading early and storing late hold memory longer and pay
        only where the transfers can run beside compute."""
        if not self.target.global_memory.dma_overlaps_compute:
            return plan
        variants = [
            plan_group(self.layers, plan.slicing, self.target, hoisted, pipelined, delayed)
            for hoisted, pipelined, delayed in VARIANTS
            if (self.pipeline or not pipelined) and (self.delay or not delayed)
        ]
        fitting = [plan, *(candidate for candidate in variants if fits(candidate, self.memory))]
        best = min(fitting, key=lambda candidate: timeline_cycles(candidate.timeline, self.target))
        return self.stores_one_by_one(best) if self.delay else best

    def stores_one_by_one(self, plan: GroupPlan) -> GroupPlan:
        """The plan with each store decided on its own: of the results later groups read,
        the set stored late that prices the group's timesteps lowest, kept when it fits
        and is cheaper than `plan`. A store moved from timestep t to t + 1 changes only
        those two timesteps' work, so the best set is a shortest path over the timesteps
        with two states, whether t's store moved (`cheapest_late`); storing every such
        result late, or none, is all or nothing per group. A store that runs beside an
        idle next timestep pays, one that would queue behind its prefetches does not."""
        every = plan_group(self.layers, plan.slicing, self.target, plan.hoisted, plan.pipelined, True)
        none = plan_group(self.layers, plan.slicing, self.target, plan.hoisted, plan.pipelined, False)
        chosen = cheapest_late(none.timeline, every, self.target)
        if chosen == plan.late:
            return plan
        candidate = plan_group(self.layers, plan.slicing, self.target, plan.hoisted, plan.pipelined, chosen)
        cheaper = timeline_cycles(candidate.timeline, self.target) < timeline_cycles(plan.timeline, self.target)
        return candidate if cheaper and fits(candidate, self.memory) else plan

    def finest(self, members: Sequence[int]) -> str:
        """Why a group is invalid: the finest slicing the halo rule allows and the bytes it
        needs, or why no slicing can be made."""
        tried, why = None, "it cannot be sliced"
        for n, h in self.slicings(members):
            try:
                tried = plan_group(self.layers, slice_group(self.layers, members, n, h), self.target)
            except SlicingRefused as refused:
                why = f"n={n} h={h} is refused: {refused}"
                if h > 1:
                    break
        if tried is None:
            return why
        slicing, memory = tried.slicing, self.memory
        return (
            f"does not fit {self.target.name}'s local memory even at its finest slicing n={slicing.n} h={slicing.h}: "
            f"{tried.peak_bytes} B live at the peak, {memory.capacity} B usable"
            + ("" if tried.peak_bytes > memory.capacity else " (the allocator finds no placement)")
        )

    def single(self, position: int) -> Group:
        """One layer alone. When no slicing fits (the layer fits only by the memory plan's
        own accounting, which is what layer by layer relies on), it runs unsliced and
        `st-lmem-alloc` has the last word, as it has without grouping."""
        group = self.group(position, position + 1)
        if group is not None:
            return group
        plan = plan_group(self.layers, slice_group(self.layers, [self.layers.ops[position].task_id], 1, 1), self.target)
        return self.priced(plan)

    def greedy(self) -> list[Group]:
        """Tail to head: the longest valid group ending at the last layer not yet grouped."""
        groups: list[Group] = []
        stop = len(self.layers)
        while stop > 0:
            best, misses = (stop - 1, self.single(stop - 1)), 0
            for start in range(stop - 2, -1, -1):
                if (group := self.group(start, stop)) is not None:
                    best, misses = (start, group), 0
                elif (misses := misses + 1) > LOOKAHEAD:
                    break
            groups.append(best[1])
            stop = best[0]
        return groups[::-1]

    def search(self, strategy: str) -> list[Group]:
        """The groups `strategy` finds: "dp", "greedy", or "best", the cheaper of the two."""
        if strategy == "dp":
            return self.dp()
        if strategy == "greedy":
            return self.greedy()
        return min(self.greedy(), self.dp(), key=lambda groups: sum(group.cycles for group in groups))

    def dp(self) -> list[Group]:
        """The interval DP over clusters of consecutive layers."""
        size = max(1, -(-len(self.layers) // MAX_CLUSTERS))
        bounds = list(range(0, len(self.layers), size)) + [len(self.layers)]
        count = len(bounds) - 1
        cost: dict[tuple[int, int], float] = {}
        choice: dict[tuple[int, int], int | None] = {}
        for length in range(1, count + 1):
            for i in range(count - length + 1):
                j = i + length - 1
                group = self.group(bounds[i], bounds[j + 1])
                best = float("inf") if group is None else group.cycles
                chosen = None
                for k in range(i, j):
                    if (split := cost[i, k] + cost[k + 1, j]) < best:
                        best, chosen = split, k
                if length == 1 and group is None:
                    best = sum(self.single(p).cycles for p in range(bounds[i], bounds[i + 1]))
                cost[i, j], choice[i, j] = best, chosen
        return self.unfold(0, count - 1, bounds, choice)

    def unfold(self, i: int, j: int, bounds: Sequence[int], choice: dict[tuple[int, int], int | None]) -> list[Group]:
        k = choice[i, j]
        if k is not None:
            return self.unfold(i, k, bounds, choice) + self.unfold(k + 1, j, bounds, choice)
        group = self.group(bounds[i], bounds[j + 1])
        if group is not None:
            return [group]
        return [self.single(p) for p in range(bounds[i], bounds[j + 1])]


def cheapest_late(timeline: Sequence[StepWork], every: GroupPlan, target: HardwareTarget) -> frozenset[int]:
    """The timesteps whose stores, moved to the next timestep (`every.late` may move),
    price `timeline` (every store in its own timestep) lowest: best[t][moved] is the
    cheapest price of timesteps 0..t with t's store moved or not."""
    moving = {t: every.timeline[t + 1].delayed for t in every.late}
    best: list[tuple[int, tuple[bool, ...]]] = [(0, ())]  # by whether the last store moved
    for t, work in enumerate(timeline):
        step = []
        for moved in (False, True) if t in moving else (False,):
            own = attrs.evolve(work, stored=work.stored - moving[t]) if moved else work
            options = []
            for before, (cycles, path) in enumerate(best):
                came = attrs.evolve(own, delayed=own.delayed + moving[t - 1]) if before else own
                options.append((cycles + step_cycles(came, target), (*path, moved)))
            step.append(min(options, key=lambda option: option[0]))
        best = step
    path = min(best, key=lambda option: option[0])[1]
    return frozenset(t for t, moved in enumerate(path) if moved)


def total_cycles(groups: Sequence[Group]) -> int:
    return sum(group.cycles for group in groups)
