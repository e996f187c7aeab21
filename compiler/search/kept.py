"""
The step of st-search's lowering (`lowering.Lowering`) that keeps results on chip across
segments, as the cost model prices them (`Estimate.kept`, `cost/kept.py`): each piece of a
kept layer whose result a buffer first held in a later phase takes is marked `st.keep` (one
`st.keep` action, which a script written with `script=` carries) where st-lmem-alloc can
hold the result over every phase up to the last such buffer's first one. As layer groups
hold their buffers (`grouping/hold.py`), on the memory plan's requests kept up to date
(`CoreRequests`): each piece in the order of its runs while its core's live bytes fit, then,
on a core whose regions the allocator cannot place, kept pieces live beside the region it
could not place given up until they fit (`give_up_until_fits`).
isa-lower then sends or copies the result to those buffers in their first phase, instead of
storing it to global memory and loading it back; elsewhere the piece goes through global
memory (valid, and dearer than the estimate).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from xdsl.dialects.builtin import UnitAttr
from xdsl.ir import Operation

from stc.compiler.memory.core_requests import CoreRequests
from stc.compiler.memory.lmem import core_memory
from stc.compiler.memory.plan import MemoryPlan
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
        """Mark `st.keep` the pieces of kept layers (one `st.keep` action, module docstring)."""
        if not self.kept:
            return
        plan = MemoryPlan(self.graph, self.target, "st-search")  # every block is placed
        requests = CoreRequests(plan)
        kept: dict[Coord, list[tuple[int, range]]] = defaultdict(list)
        for block, phase, later in self.keep_candidates():
            core = mark(requests, block, True)
            if requests.peak(core) > core_memory(self.target, core).capacity:
                mark(requests, block, False)
            else:
                kept[core].append((block.task_id, range(phase + 1, later + 1)))
        for core in requests.overflowing(set(kept)):
            give_up_until_fits(requests, core, kept[core])
        marked = sorted(task_id for pieces in kept.values() for task_id, _ in pieces)
        for task_id, phases in (piece for pieces in kept.values() for piece in pieces):
            size = tensor_bytes(plan.blocks[task_id].results[0].type)  # pyright: ignore[reportArgumentType]
            for phase in phases:
                self.extra[(self.core[task_id], self.time[task_id][0], phase)] += size
        for task_id in marked:  # the action puts the marks the script carries
            del plan.blocks[task_id].attributes[KEEP]
        if marked:
            self.act(KeepOp(marked))

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


def give_up_until_fits(requests: CoreRequests, core: Coord, pieces: list[tuple[int, range]]) -> None:
    """Give up kept pieces of an overflowing core until its regions fit: each time the last
    one whose regions are live beside the request the allocator could not place (the last
    of all where none is), so a core gives up what crowds the time it fails at, not the
    pieces that happen to run last."""
    while pieces and (stuck := requests.unplaced(core)) is not None:
        crowding = [
            index
            for index, (task_id, _) in enumerate(pieces)
            if any(region.start <= stuck.end and stuck.start <= region.end for region in requests.regions_of(task_id))
        ]
        task_id, _ = pieces.pop(crowding[-1] if crowding else -1)
        mark(requests, requests.plan.blocks[task_id], False)


def mark(requests: CoreRequests, block: Operation, keep: bool) -> Coord:
    """Put `st.keep` on a compute block (or take it off) for its plan's requests to see;
    its core."""
    if keep:
        block.attributes[KEEP] = UnitAttr()
    else:
        del block.attributes[KEEP]
    requests.moved(block.task_id)  # pyright: ignore[reportAttributeAccessIssue]
    return requests.plan.core(block.task_id)  # pyright: ignore[reportAttributeAccessIssue]
