"""
What a core holds across the slots of a segment, beyond the recursion's buffer rules
(`recursion.t_buffers`, which count a child's buffers with the next child's inputs only):
the lowering holds

- an on-chip input from its first producer's slot to its consumer's, on the same images
  (`lowering.hold_on_chip`: a residual waits beside the layers between), in the same step;
- weights the model prefetches k slots early from those k slots on (`lowering.prefetch_data`),
  in the same step, where a leaf's weights live in its own slots only (its layer runs once);
- input boxes the model loads from DRAM k slots early (`NodeCost.early_inputs`,
  `lowering.prefetch_inputs`) from that slot on;
- a result stored beside the compute of the slot k after its own (`NodeCost.late_stores`,
  `lowering.store_late`) in those k slots too.

Per slot and core the use is the buffers of the leaf running there (its weights with them
unless they are `pinned`: kept for every subbatch, the segment's wgt counts them) plus every
input, result and prefetched weight held across it; the segment needs its peak. An input
with several producers is held whole from the first of them (the lowering holds each
producer's box from its own: at most this).

Without steps, the subbatches of a segment's top T-cut far enough from its ends hold alike,
and the others at most as much (`one_period`): the peak is priced on a few of them.

    peak = segment_peak(model, segment, leaves, cost)     # per core
    peak = held_peak(runs, leaves, producers, steps, prefetched)
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from stc.compiler.cost.node_cost import NodeCost
from stc.compiler.cost.schedule import CostModel, Run, runs_of
from stc.compiler.cost.segment_steps import subbatched
from stc.compiler.cost.tree import Node


def segment_peak(model: CostModel, segment: Node, leaves: dict[int, NodeCost], cost: NodeCost) -> np.ndarray:
    """Per core, the peak of a segment priced as `cost` on the model, its inputs, results and
    prefetched weights held across slots as the lowering holds them, its weights pinned
    where it has subbatches (`held_peak` on `one_period` of its runs)."""
    held = (dict(cost.prefetched), dict(cost.early_inputs), dict(cost.late_stores))
    phases, reach = model.target.max_phases, max([*held[1].values(), *held[2].values()], default=0)
    period, batch = one_period(segment, model.network.batch, cost.slot_count, reach, phases)
    producers = {layer: model.network.layers[layer].producers for layer in leaves}
    runs = runs_of(model, period, batch)
    return held_peak(runs, leaves, producers, phases, *held, pinned=subbatched(segment))


def held_peak(
    runs: list[Run],
    leaves: dict[int, NodeCost],
    producers: dict[int, set[int]],
    phases: int | None,
    prefetched: dict[int, int],
    early: dict[int, int] | None = None,
    late: dict[int, int] | None = None,
    pinned: bool = False,
) -> np.ndarray:
    """Per core, the most bytes in use in any slot of the runs: `leaves`' buf (and wgt,
    unless `pinned`) in each run's slot, their ifm from the slot of the first run of a
    producer on the same images in the same step (of `phases` slots) on, or from
    `early[layer]` slots before theirs, their wgt from `prefetched[layer]` slots before
    theirs on (unless `pinned`), the result of each layer of `late` in the `late[layer]`
    slots after its own too (in the same step)."""
    early, late = early or {}, late or {}
    slots_of: dict[int, list[int]] = defaultdict(list)
    for run in sorted(runs, key=lambda run: (run.layer, run.iteration)):
        slots_of[run.layer].append(run.slot)
    end = max(run.slot for run in runs) + 1
    starts: list[int] = []
    stops: list[int] = []
    held: list[np.ndarray] = []

    def hold(start: int, stop: int, nbytes: np.ndarray) -> None:
        if start < stop:
            starts.append(start)
            stops.append(stop)
            held.append(nbytes)

    for run in runs:
        cost, here = leaves[run.layer], run.slot
        step_start = here - here % phases if phases else 0
        step_end = min(step_start + phases, end) if phases else end
        hold(here, here + 1, cost.buf if pinned else cost.buf + cost.wgt)
        made = [
            slot
            for slot in first_slots(slots_of, producers[run.layer], run.iteration, len(slots_of[run.layer]))
            if step_start <= slot <= here
        ]
        if run.layer in early and here > step_start:
            made.append(max(here - early[run.layer], step_start))
        if made:
            hold(min(made), here, cost.ifm)
        if run.layer in prefetched and not pinned:
            hold(max(here - prefetched[run.layer], step_start), here, cost.wgt)
        if run.layer in late:
            hold(here + 1, min(here + 1 + late[run.layer], step_end), cost.result)
    use = np.zeros((end + 1, len(held[0])))
    rows = np.array(held)
    np.add.at(use, np.array(starts), rows)
    np.subtract.at(use, np.array(stops), rows)
    return np.cumsum(use, axis=0)[:end].max(axis=0)


def first_slots(slots_of: dict[int, list[int]], producers: set[int], iteration: int, runs: int) -> list[int]:
    """The slot of the first run of each of `producers` (those among `slots_of`: a
    layer's slots by subbatch) on the images of subbatch `iteration` of `runs`."""
    firsts = []
    for producer in producers & slots_of.keys():
        slots = slots_of[producer]
        first, last = iteration * len(slots) // runs, -(-(iteration + 1) * len(slots) // runs)
        firsts.append(min(slots[first:last]))
    return firsts


def one_period(segment: Node, batch: int, slots: int, reach: int, phases: int | None) -> tuple[Node, int]:
    """A segment of `batch` images, `slots` slots long, whose holds reach at most `reach`
    slots beyond a run (early loads, late stores), as `held_peak` prices it: without steps,
    with its top T-cut's subbatches cut to 2r + 1 (r: the subbatches a hold reaches past
    its own), and their batch. The holds of its runs reach r subbatches either side (inputs
    from producers on the same images stay in their own), so the middle subbatch holds what
    every subbatch r or more from the ends does, and the others a part of that."""
    if phases is not None or segment.kind != "T" or segment.n == 1:
        return segment, batch
    period = slots // segment.n
    count = 2 * -(-reach // period) + 1
    if count >= segment.n:
        return segment, batch
    return Node.cut("T", segment.children, count), batch // segment.n * count
