"""
The allocator's requests of one core at a time, from a `MemoryPlan` kept up to date while
storage blocks give up phases on their cores: what `lmem.core_requests` gives for that
core on a plan built again, at the cost of the core's blocks rather than the graph's.
`hold.py` gives up held phases one buffer at a time until a core's regions fit. The live
bytes of each core asked about are kept up to date too (`peak`), so most checks, whose
answer is "still too many bytes at once", cost the blocks whose regions changed (not the
producer's inputs, of which only the regions kept apart changed), not the core's.

```mlir
%c = task.conv 4 %in, %w {st.coord = #st.coord<(0, 0, 0, 1), (0, 0, axon)>}
%b = task.buffer 5 si %c {st.coord = #st.coord<(0, 0, 0, 1), (0, 0 to 1, memory)>}
```

When buffer 5 gives up phase 0 (`moved(5)`), conv 4's result no longer lands in it in
place: core (0, 1) gets a result region for block 4, and the regions conv 4 reads are
kept apart from that one instead of buffer 5's.
"""

from __future__ import annotations

from stc.compiler.memory.allocation import fits, unplaced
from stc.compiler.memory.lmem import core_memory, request_for
from stc.compiler.memory.plan import MemoryPlan, Region
from stc.compiler.memory.rectangles import Request, peak_of_changes
from stc.compiler.targets.hardware import Coord
from stc.dialects import task
from stc.dialects.task.base import task_id_of

Key = tuple[int, str]
Span = tuple[int, int, int]
"""(start, end, bytes) of a region."""


class CoreRequests:
    """A plan's requests by core, and what a storage block's new phases change in it."""

    def __init__(self, plan: MemoryPlan):
        self.plan = plan
        self.on_core: dict[Coord, list[int]] = {}
        """The blocks of each core, in graph order (the order of the plan's regions)."""
        self.inputs: dict[int, set[Key]] = {}
        """The storage regions each compute block reads."""
        self.readers: dict[int, list[int]] = {}
        """The compute blocks that read each block."""
        self.writers: dict[int, list[int]] = {}
        """The blocks whose results fill a piece of each buffer."""
        self.regions: dict[int, list[Region]] = {}
        """The regions of each block, once asked for, until they change (see `moved`)."""
        self.made: dict[int, list[Request]] = {}
        """The requests of each block's regions, once asked for (see `requests_of`)."""
        self.live: dict[Coord, dict[int, int]] = {}
        """For each core asked about (`peak`), its live bytes as changes over time: the
        regions of its blocks except those in `uncounted`."""
        self.uncounted: dict[Coord, set[int]] = {}
        """The blocks of each core in `live` whose regions changed and are not counted yet."""
        self.counted: dict[int, list[Span]] = {}
        """The (start, end, bytes) of each block's regions counted in its core's `live`."""
        for task_id, op in plan.blocks.items():
            self.on_core.setdefault(plan.core(task_id), []).append(task_id)
            if isinstance(op, task.ComputeBlock):
                self.inputs[task_id] = {(task_id_of(operand.owner), "storage") for operand in op.operands}
                for owner, _ in self.inputs[task_id]:
                    self.readers.setdefault(owner, []).append(task_id)
        for producer, pieces in plan.pieces.items():
            for buffer, _, _ in pieces:
                writers = self.writers.setdefault(buffer.task_id, [])
                if producer not in writers:
                    writers.append(producer)

    def moved(self, task_id: int) -> set[Coord]:
        """Read a storage block's `st.coord` again after its phases changed on its core, or
        a compute block's after its result's life did (`st.keep` put on or taken off), and
        which results now land in place; the cores whose requests changed."""
        plan = self.plan
        plan.read_coord(task_id)
        stale, apart = {task_id}, set()
        for producer in [task_id] if task_id in self.inputs else self.writers.get(task_id, []):
            piece, before = plan.in_place_piece(plan.blocks[producer]), plan.in_place.get(producer)
            if piece == before:
                continue
            if piece is None:
                del plan.in_place[producer]
            else:
                plan.in_place[producer] = piece
            stale.add(producer)
            stale.update(home[0].task_id for home in (piece, before) if home is not None)
            apart.update(owner for owner, _ in self.inputs[producer] if owner in plan.coords)
        for block in stale | apart:  # the producer's inputs: only the regions kept apart changed
            self.made.pop(block, None)
        for block in stale:
            self.regions.pop(block, None)
            self.uncount(block)
        return {plan.core(block) for block in stale | apart}

    def uncount(self, task_id: int) -> None:
        """Take a block's regions out of its core's live bytes, to count them again."""
        if (counted := self.counted.pop(task_id, None)) is None:
            return
        core = self.plan.core(task_id)
        count(self.live[core], counted, -1)
        self.uncounted[core].add(task_id)

    def peak(self, core: Coord) -> int:
        """The most bytes live at once on a core (`rectangles.peak_live_bytes` of its
        requests), counting again only the blocks that changed since last asked."""
        if core not in self.live:
            self.live[core], self.uncounted[core] = {}, set(self.on_core.get(core, []))
        changes = self.live[core]
        for task_id in self.uncounted[core]:
            self.counted[task_id] = [(region.start, region.end, region.size) for region in self.regions_of(task_id)]
            count(changes, self.counted[task_id], 1)
        self.uncounted[core].clear()
        return peak_of_changes(changes)

    def overflowing(self, among: set[Coord]) -> set[Coord]:
        """The cores of `among` whose regions `st-lmem-alloc` could not place: too many
        bytes live at once (kept up to date), or no addresses found."""
        target = self.plan.target
        return {
            core
            for core in among
            if self.peak(core) > (memory := core_memory(target, core)).capacity or not fits(self.requests(core), memory)
        }

    def unplaced(self, core: Coord) -> Request | None:
        """A request of the core `st-lmem-alloc` could not place (`allocation.unplaced`), or
        None where its regions fit."""
        return unplaced(self.requests(core), core_memory(self.plan.target, core))

    def requests(self, core: Coord) -> list[Request]:
        """The allocator's rectangles of a core, as `lmem.core_requests` makes them."""
        return [request for task_id in self.on_core.get(core, []) for request in self.requests_of(task_id)]

    def requests_of(self, task_id: int) -> list[Request]:
        """The rectangles of a block's regions, made once until it, a result it takes in place
        or a region it is kept apart from changes."""
        if (made := self.made.get(task_id)) is None:
            target = self.plan.target
            made = self.made[task_id] = [request_for(target, r, self.apart(r.key)) for r in self.regions_of(task_id)]
        return made

    def regions_of(self, task_id: int) -> list[Region]:
        """A block's regions (`MemoryPlan.block_regions`), made once until they change."""
        if (regions := self.regions.get(task_id)) is None:
            plan = self.plan
            regions = self.regions[task_id] = list(plan.block_regions(task_id, plan.blocks[task_id]))
        return regions

    def apart(self, key: Key) -> set[Key]:
        """`MemoryPlan.apart` of one region: the inputs of the compute blocks whose result
        it holds, and the result homes of the compute blocks that read it."""
        task_id, role = key
        plan = self.plan
        if role == "result":
            return set(self.inputs[task_id])
        if role != "storage":
            return set()
        apart: set[Key] = set()
        for writer in self.writers.get(task_id, []):
            piece = plan.in_place.get(writer)
            if piece is not None and piece[0].task_id == task_id:
                apart |= self.inputs[writer]
        apart.update(plan.result_home(reader)[0] for reader in self.readers.get(task_id, []))
        return apart


def count(changes: dict[int, int], spans: list[Span], sign: int) -> None:
    """Add (sign 1) or remove (−1) regions' bytes to live-byte changes over time; times
    whose change comes to nothing are dropped."""
    for start, end, size in spans:
        for time, delta in ((start, size), (end + 1, -size)):
            if change := changes.get(time, 0) + sign * delta:
                changes[time] = change
            else:
                changes.pop(time, None)
