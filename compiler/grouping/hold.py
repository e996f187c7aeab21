"""
Layer groups on a many-core target, once `st-place` has put their pieces on cores: a
buffer whose reader and producers belong to one group is held on its reader's core from
its first producer's phase, so each producer sends its part there as soon as it makes it
(over the NoC, or by a local copy) and the bytes never go through global memory.

```mlir
%c = task.conv 4 %in, %w {lg.group = 0 : i64, st.coord = #st.coord<(0, 0, 0, 1), (0, 0, axon)>}
%b = task.buffer 5 si %c {st.coord = #st.coord<(0, 0, 2, 3), (0, 0 to 1, memory)>}
%r = task.relu 6 %b {lg.group = 0 : i64, st.coord = #st.coord<(0, 0, 2, 3), (0, 1, soma1)>}
```

Layer by layer `st-place` holds buffer 5 in phase 1 only, and conv 4's result waits in
global memory. The placer keeps room for these holds (`group_producers` tells it which
buffers, `stc.compiler.mapping.placement.holds`). Holding is best effort, buffer by
buffer in graph order: a buffer stays as placed when the st matrix's memory rule refuses
the earlier phases on its core, and the holds of a core are given up, last first, while
`st-lmem-alloc`'s allocator cannot place that core's regions.
"""

from __future__ import annotations

import bisect
import heapq

from xdsl.utils.exceptions import PassFailedException

from stc.compiler.grouping.rewrite import GROUP
from stc.compiler.mapping.coord_annotations import annotate
from stc.compiler.mapping.matrix import STMatrix
from stc.compiler.mapping.place import Place
from stc.compiler.memory.core_requests import CoreRequests
from stc.compiler.memory.plan import MemoryPlan
from stc.dialects import task
from stc.dialects.st import Stage

ACTION = "st-place"


def group_of(op: task.TaskOp) -> int | None:
    attribute = op.attributes.get(GROUP)
    return attribute.value.data if attribute is not None else None  # pyright: ignore[reportAttributeAccessIssue]


def hold_group_buffers(matrix: STMatrix) -> list[int]:
    """Hold every buffer read and written inside one group from its first producer's
    phase where local memory allows; the ids of the buffers held, and the st coordinates
    written on the graph."""
    held = HeldByCore()
    for task_id, producers in group_producers(matrix.graph).items():
        buffer = matrix.blocks[task_id]
        if isinstance(buffer, task.BufferOp) and (extra := earlier_phases(matrix, buffer, producers)) is not None:
            try:
                matrix.put(ACTION, [(buffer, extra)])
            except PassFailedException:
                continue
            held.add(buffer.task_id, extra)
    annotate(matrix)
    if not held.places:
        return []
    requests = CoreRequests(MemoryPlan(matrix.graph, matrix.target, ACTION))
    # Only the cores that hold something are checked: giving up holds cannot help the others
    # (those overflow without holds too, and st-lmem-alloc reports them).
    crowded = requests.overflowing(held.cores())
    while crowded:
        last = held.last_on(crowded)
        if last is None:
            break  # it overflows without holds too: st-lmem-alloc reports it
        release(matrix, last, held.pop(last))
        annotate(matrix)
        changed = requests.moved(last)
        crowded = (crowded - changed) | requests.overflowing(crowded & changed)
    return sorted(held.places)


class HeldByCore:
    """The buffers held, with their extra phases, indexed by core: which buffer a crowded
    core gives up next is found among that core's holds only, and the crowded cores'
    last holds are kept in a heap, so giving up one hold does not scan every crowded core."""

    def __init__(self) -> None:
        self.places: dict[int, Place] = {}
        self.on_core: dict[tuple[int, int], list[int]] = {}
        """The ids held on each core, ascending."""
        self.asked: frozenset[tuple[int, int]] | None = None
        """The cores `last_on` was last asked about (None before it is asked)."""
        self.lasts: list[tuple[int, tuple[int, int]]] = []
        """(−last id, core) of the cores asked about, at most each core's last id (lazily kept)."""

    def add(self, task_id: int, extra: Place) -> None:
        if self.asked is not None:
            raise ValueError(f"buffer {task_id} is held after holds began to be given up")
        self.places[task_id] = extra
        bisect.insort(self.on_core.setdefault(core_of(extra), []), task_id)

    def cores(self) -> set[tuple[int, int]]:
        return {core for core, ids in self.on_core.items() if ids}

    def last_on(self, cores: set[tuple[int, int]]) -> int | None:
        """The highest id held on any of the cores, or None when they hold nothing. The
        cores of each call are among those of the call before (crowded cores only leave
        the crowd): a heap entry of a core left out is dropped, one whose core gave up its
        last hold is lowered to the core's new last."""
        if self.asked is None:
            self.lasts = [(-ids[-1], core) for core in cores if (ids := self.on_core.get(core))]
            heapq.heapify(self.lasts)
        elif not cores <= self.asked:
            raise ValueError(f"cores {sorted(cores - self.asked)} were not among the cores asked about before")
        self.asked = frozenset(cores)
        lasts = self.lasts
        while lasts:
            negative, core = lasts[0]
            ids = self.on_core[core]
            if core not in cores or not ids:
                heapq.heappop(lasts)
            elif ids[-1] != -negative:
                heapq.heapreplace(lasts, (-ids[-1], core))
            else:
                return ids[-1]
        return None

    def pop(self, task_id: int) -> Place:
        extra = self.places.pop(task_id)
        ids = self.on_core[core_of(extra)]
        del ids[bisect.bisect_left(ids, task_id)]
        return extra


def group_producers(graph: task.GraphOp) -> dict[int, list[int]]:
    """Every buffer read inside a group, with the compute blocks of that group that fill
    it: the buffers `st-place` may hold, and keeps room for (`placement.holds`)."""
    held: dict[int, list[int]] = {}
    for buffer in graph.tasks():
        if not isinstance(buffer, task.BufferOp):
            continue
        readers = [use.operation for use in buffer.result.uses if isinstance(use.operation, task.ComputeBlock)]
        if not readers or (group := group_of(readers[0])) is None:
            continue
        producers = [
            value.owner.task_id
            for value in buffer.sources
            if isinstance(value.owner, task.ComputeBlock) and group_of(value.owner) == group
        ]
        if producers:
            held[buffer.task_id] = list(dict.fromkeys(producers))
    return held


def earlier_phases(matrix: STMatrix, buffer: task.BufferOp, producers: list[int]) -> Place | None:
    """The phases before its own in which a group's buffer would be held, if any."""
    place = matrix.places.get(buffer.task_id)
    if place is None:
        return None
    phases = [
        producer.phase
        for task_id in producers
        if (producer := matrix.places.get(task_id)) is not None and producer.step == place.step
    ]
    if not phases or min(phases) >= place.phase:
        return None
    return Place.at(place.space, place.step, min(phases), Stage.MEMORY, place.phase - 1)


def core_of(place: Place) -> tuple[int, int]:
    return place.space[2], place.space[3]


def release(matrix: STMatrix, task_id: int, extra: Place) -> None:
    matrix.take_storage(ACTION, matrix.blocks[task_id], extra.space, extra.step, extra.ranges)
