"""
The step of st-search's lowering (`lowering.Lowering`) that keeps results on chip across
segments, as the cost model prices them (`Estimate.kept`, `cost/kept.py`): each piece of a
kept layer whose result a buffer first held in a later phase takes is marked `st.keep` (one
`st.keep` action, which a script written with `script=` carries) where st-lmem-alloc can
hold the result over every phase up to the last such buffer's first one: the live bytes of
the mapping's memory plan leave room for it there, and its core's regions still pack
(`allocatable`). isa-lower then sends or copies it to those buffers in their first phase,
instead of storing it to global memory and loading it back; elsewhere the piece goes through
global memory (valid, and dearer than the estimate).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

import numpy as np
from xdsl.dialects.builtin import UnitAttr
from xdsl.ir import Operation

from stc.compiler.memory.allocation import fits
from stc.compiler.memory.lmem import core_memory, core_requests
from stc.compiler.memory.plan import MemoryPlan
from stc.compiler.memory.rectangles import Memory, Request
from stc.compiler.search.beside import BesideCompute, Space
from stc.compiler.targets.hardware import Coord
from stc.dialects import task
from stc.dialects.st import KEEP, KeepOp
from stc.dialects.task.base import tensor_bytes


class KeptResults(BesideCompute):
    """`keep_results`: the lowering's `st.keep` marks."""

    kept: frozenset[int]
    """The layers whose results the model keeps on chip for later segments."""
    extra: dict[tuple[Space, int, int], int]
    """Per (core, step, phase): bytes of results held there beyond what st-apply counts
    (kept and late-stored results)."""

    def keep_results(self) -> None:
        """Mark `st.keep` the pieces of kept layers (one `st.keep` action, module docstring):
        each, in the order of the runs, where the plan's live bytes on its core leave room
        for its result over the phases it is held (its tile from its own phase where it would
        have landed in place in a buffer, else from the next), then of each core's the most
        that still pack."""
        if not self.kept:
            return
        plan = MemoryPlan(self.graph, self.target, "st-search")  # every block is placed
        live = live_bytes(plan)
        held: dict[int, range] = {}
        for block, phase, later in self.keep_candidates():
            size = tensor_bytes(block.results[0].type)  # pyright: ignore[reportArgumentType]
            made = plan.first(block.task_id)
            own = made + (block.task_id not in plan.in_place)
            use = live[plan.core(block.task_id)][own : made + later - phase + 1]
            if int(use.max(initial=0)) + size <= self.executor.matrix.mesh.capacity(self.core[block.task_id]):
                use += size
                held[block.task_id] = range(phase + 1, later + 1)
        kept = allocatable(plan, list(held))
        for task_id in kept:
            size = tensor_bytes(self.executor.matrix.blocks[task_id].results[0].type)  # pyright: ignore[reportArgumentType]
            for phase in held[task_id]:
                self.extra[(self.core[task_id], self.time[task_id][0], phase)] += size
        if kept:
            self.act(KeepOp(kept))

    def keep_candidates(self) -> Iterator[tuple[Operation, int, int]]:
        """The pieces of kept layers whose result buffers first held in later phases of the
        same step take: each with its phase and the last such buffer's."""
        matrix = self.executor.matrix
        for (layer, _, step), runs in self.runs_on.items():
            if layer not in self.kept:
                continue
            for phase, blocks in runs:
                for block in (matrix.blocks[i] for i in blocks):
                    readers = [use.operation for use in block.results[0].uses]
                    held = [matrix.places[r.task_id] for r in readers if isinstance(r, task.BufferOp)]
                    later = [place.phase for place in held if (place.step, place.phase) > (step, phase)]
                    if later and all(place.step == step for place in held):
                        yield block, phase, max(later)


def live_bytes(plan: MemoryPlan) -> dict[Coord, np.ndarray]:
    """Per core and time of the plan, the bytes of its regions live then."""
    end = max((region.end for region in plan.regions), default=0) + 1
    live: dict[Coord, np.ndarray] = defaultdict(lambda: np.zeros(end, dtype=np.int64))
    for region in plan.regions:
        live[region.core][region.start : region.end + 1] += region.size
    return live


def allocatable(plan: MemoryPlan, chosen: list[int]) -> list[int]:
    """Of the compute blocks `chosen` to keep (in order), on each core the most from its
    first with which the allocator places all the core's regions: the regions of the plan
    with all of them kept (their marks tried on the graph, then taken off), those not kept
    as `plan` has them."""
    blocks = [plan.blocks[task_id] for task_id in chosen]
    for block in blocks:
        block.attributes[KEEP] = UnitAttr()
    try:
        marked = MemoryPlan(plan.graph, plan.target, plan.pass_name)
    finally:
        for block in blocks:
            del block.attributes[KEEP]
    before, after = core_requests(plan), core_requests(marked)
    by_core: dict[Coord, list[int]] = defaultdict(list)
    for task_id in chosen:
        by_core[plan.core(task_id)].append(task_id)
    kept: list[int] = []
    for core, ids in by_core.items():
        kept += ids[: most_that_pack(ids, before[core], after[core], core_memory(plan.target, core))]
    return sorted(kept)


def most_that_pack(ids: list[int], before: list[Request], after: list[Request], memory: Memory) -> int:
    """The most of `ids`, from the first, whose results kept (their requests in `after`,
    the others' in `before`) the allocator still places (a bisection: none kept places, as
    the plan without them does)."""

    def packs(count: int) -> bool:
        dropped = {(task_id, "result") for task_id in ids[count:]}
        return fits([r for r in after if r.key not in dropped] + [r for r in before if r.key in dropped], memory)

    low, high = 0, len(ids)
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if packs(middle) else (low, middle - 1)
    return low
