"""
The steps of st-search's lowering (`lowering.Lowering`) that move DMA beside another
phase's compute, on a target whose DMA overlaps compute: input buffers held from k phases
before their runs (`prefetch_inputs`), first-run weights from k phases before
(`prefetch_data`), and stored results marked `st.store_late` k phases late
(`store_late`), as the cost model prices them (`NodeCost.early_inputs`, `prefetched`,
`late_stores`); and the actions and times every step shares.
"""

from __future__ import annotations

from collections import defaultdict

from xdsl.ir import Operation
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.node_cost import NodeCost
from stc.compiler.mapping.actions import ActionExecutor
from stc.compiler.mapping.block_stages import input_storage
from stc.compiler.targets.hardware import HardwareTarget
from stc.dialects import task
from stc.dialects.st import KEEP, CoordAttr, PutInOp, Stage, StoreLateOp
from stc.dialects.task.base import tensor_bytes

Space = tuple[int, int, int, int]


class BesideCompute:
    """What `Lowering` builds (set by its constructor and steps), the actions and times its
    steps share, and its steps that move DMA beside compute."""

    target: HardwareTarget
    model: CostModel
    executor: ActionExecutor
    actions: list[Operation]
    time: dict[int, tuple[int, int]]
    core: dict[int, Space]
    runs_on: dict[tuple[int, int, int], list[tuple[int, list[int]]]]
    first_run: dict[int, tuple[int, int]]
    segment_at: dict[int, int]
    extra: dict[tuple[Space, int, int], int]
    """Per (core, step, phase): bytes of results held there beyond what st-apply counts
    (late-stored and kept results)."""
    cost: NodeCost | None
    """The tree's cost as the model prices it (its `early_inputs`, `prefetched` and
    `late_stores`), None for an invalid tree."""

    def act(self, op: Operation) -> list[int]:
        created = self.executor.apply(op)
        self.actions.append(op)
        return created

    def coord(self, core: int, slot: int, stage: Stage) -> CoordAttr:
        y, x = self.model.context.mesh.order[core]
        return CoordAttr((0, 0, y, x), *self.step_phase(slot), stage)

    def step_phase(self, slot: int) -> tuple[int, int]:
        phases = self.target.max_phases
        return (0, slot) if phases is None else divmod(slot, phases)

    def slot(self, step: int, phase: int) -> int:
        """The slot that runs in a step's phase (`step_phase`'s inverse)."""
        return step * (self.target.max_phases or 0) + phase

    def slot_of(self, block_id: int) -> int:
        return self.slot(*self.time[block_id])

    def hold_before(self, block_id: int, core: int, slot: int, back: int) -> None:
        """Hold a storage block on a core from `back` phases before `slot` too, where
        st-apply accepts it (the core's memory holds it then); else leave it."""
        start, end = (self.coord(core, slot - k, Stage.MEMORY) for k in (back, 1))
        try:
            self.act(PutInOp(block_id, start, end if back > 1 else None))
        except PassFailedException:
            return

    def prefetch_inputs(self) -> None:
        """On a target whose DMA overlaps compute, hold the buffers that load from global
        memory of each layer whose input boxes the model loads k slots early
        (`NodeCost.early_inputs`) from k phases before each of its runs too, where that is
        in the same step and segment, after the phases that store what they load, and the
        core's memory allows: isa-lower loads them there, beside that phase's compute."""
        if not self.target.global_memory.dma_overlaps_compute or self.cost is None:
            return
        early = dict(self.cost.early_inputs)
        by_id = self.executor.matrix.blocks
        places = self.executor.matrix.places
        for (layer, core, step), runs in self.runs_on.items():
            if layer not in early:
                continue
            back = early[layer]
            for phase, blocks in runs:
                slot = self.slot(step, phase)
                if phase < back or self.segment_at.get(slot - back) != self.segment_at[slot]:
                    continue
                buffers = [op for block in blocks for op in input_storage(by_id[block])]  # pyright: ignore[reportArgumentType]
                for buffer in buffers:
                    if not isinstance(buffer, task.BufferOp) or places[buffer.task_id].phase < phase:
                        continue
                    if any(self.slot_of(p.task_id) >= slot - back for p in producers(buffer) if p.task_id in self.time):
                        continue
                    self.hold_before(buffer.task_id, core, slot, back)

    def prefetch_data(self) -> None:
        """On a target whose DMA overlaps compute, hold the weight, bias and table blocks of
        the first run of each layer the model prefetches k slots early (`NodeCost.prefetched`)
        from k phases before it too, where that is in the same step and the core's memory
        allows: isa-lower loads them there, beside that phase's compute; elsewhere they
        load in their own phase, before their compute."""
        if not self.target.global_memory.dma_overlaps_compute or self.cost is None:
            return
        ahead = dict(self.cost.prefetched)
        by_id = self.executor.matrix.blocks
        for (layer, core, step), runs in self.runs_on.items():
            phase, blocks = runs[0]
            if layer not in ahead or (step, phase) != self.first_run[layer] or phase < ahead[layer]:
                continue
            for block in blocks:
                for data in input_storage(by_id[block]):  # pyright: ignore[reportArgumentType]
                    if isinstance(data, task.DataOp):
                        self.hold_before(data.task_id, core, self.slot(step, phase), ahead[layer])

    def store_late(self) -> None:
        """Store late (`st.store_late`, one action per distance) the stored results of each
        layer the model stores k slots late, in each run whose phase k after is in the same
        step and segment, no buffer loads the result in the k phases after and the core's
        memory holds it in them too (`lowering`'s docstring, 9)."""
        if not self.target.global_memory.dma_overlaps_compute or self.cost is None:
            return
        late = dict(self.cost.late_stores)
        matrix = self.executor.matrix
        extra = self.extra
        marked: dict[int, list[int]] = defaultdict(list)
        for (layer, _, step), runs in self.runs_on.items():
            if layer not in late:
                continue
            k = late[layer]
            for phase, blocks in runs:
                slot = self.slot(step, phase)
                after = [(step, phase + d) for d in range(1, k + 1)]
                if self.step_phase(slot + k) != after[-1] or self.segment_at.get(slot + k) != self.segment_at[slot]:
                    continue
                for block in (matrix.blocks[i] for i in blocks):
                    if KEEP in block.attributes:
                        continue  # not stored
                    readers = [use.operation for use in block.results[0].uses]
                    held = [matrix.places[r.task_id] for r in readers if isinstance(r, task.BufferOp)]
                    times = [(place.step, place.phase) for place in held]
                    if any(time in after for time in times) or not any(time > (step, phase) for time in times):
                        continue  # loaded from global memory before it is stored, or not stored
                    space = self.core[block.task_id]
                    size = tensor_bytes(block.results[0].type)  # pyright: ignore[reportArgumentType]
                    keys = [(space, *time) for time in after]
                    if any(matrix.used_bytes(*key) + extra[key] + size > matrix.mesh.capacity(space) for key in keys):
                        continue
                    for key in keys:
                        extra[key] += size
                    marked[k].append(block.task_id)
        for k, task_ids in sorted(marked.items()):
            self.act(StoreLateOp(task_ids, k))


def producers(buffer: task.StorageOp) -> list[task.ComputeBlock]:
    if not isinstance(buffer, task.BufferOp):
        return []
    return [source.owner for source in buffer.sources if isinstance(source.owner, task.ComputeBlock)]
