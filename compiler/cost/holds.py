"""
What a core holds across the slots of a segment whose layers each run once, beyond the
recursion's buffer rules (`recursion.t_buffers`, which count a child's buffers with the next
child's inputs only): the lowering holds

- an on-chip input from its first producer's slot to its consumer's (`lowering.hold_on_chip`:
  a residual waits beside the layers between), in the same step;
- weights the model prefetches k slots early from those k slots on (`lowering.prefetch_data`),
  in the same step;
- input boxes the model loads from DRAM k slots early (`NodeCost.early_inputs`,
  `lowering.prefetch_inputs`) from that slot on;
- a result stored beside the compute of the slot k after its own (`NodeCost.late_stores`,
  `lowering.store_late`) in those k slots too.

Per slot and core the use is the buffers of the leaf running there (its weights with them)
plus every input and prefetched weight held across it; the segment needs its peak. An input
with several producers is held whole from the first of them (the lowering holds each
producer's box from its own: at most this).

    peak = held_peak(runs, leaves, producers, steps, prefetched)
"""

from __future__ import annotations

import numpy as np

from stc.compiler.cost.node_cost import NodeCost
from stc.compiler.cost.schedule import Run


def held_peak(
    runs: list[Run],
    leaves: dict[int, NodeCost],
    producers: dict[int, set[int]],
    phases: int | None,
    prefetched: dict[int, int],
    early: dict[int, int] | None = None,
    late: dict[int, int] | None = None,
) -> np.ndarray:
    """Per core, the most bytes in use in any slot of the runs (one per leaf): `leaves`' buf
    and wgt in their own slot, their ifm from their first producer's slot of the same step
    (of `phases` slots) on, or from `early[layer]` slots before theirs, their wgt
    from `prefetched[layer]` slots before theirs on, the result of each layer of `late` in
    the `late[layer]` slots after its own too (in the same step)."""
    slot = {run.layer: run.slot for run in runs}
    early, late = early or {}, late or {}
    count = len(next(iter(leaves.values())).buf)
    use = np.zeros((max(slot.values()) + 1, count))
    for layer, cost in leaves.items():
        here = slot[layer]
        step_start = here - here % phases if phases else 0
        use[here] += cost.buf + cost.wgt
        made = [slot[p] for p in producers[layer] if p in slot and slot[p] >= step_start]
        made += [max(here - early[layer], step_start)] if layer in early and here > step_start else []
        if made:
            use[min(made) : here] += cost.ifm
        if layer in prefetched:
            use[max(here - prefetched[layer], step_start) : here] += cost.wgt
        if layer in late:
            step_end = here - here % phases + phases if phases else len(use)
            use[here + 1 : min(here + 1 + late[layer], step_end)] += cost.result
    return use.max(axis=0)
