"""
Late spills of a layer group on a many-core target, once `st-place` has placed and held it:
a member's result that goes through global memory (its reader is outside the group, or its
hold was given up) and is loaded back two phases later or more may be stored in the phase
after its own (`st.store_late`), beside that phase's compute, instead of after its layer.

```mlir
%c = task.conv 4 %in, %w {lg.group = 0 : i64, st.store_late, st.coord = #st.coord<(0, 0, 0, 0), (0, 0, axon)>}
%r = task.relu 6 %b {lg.group = 0 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 1, soma1)>}
%a_in = task.buffer 9 si %c, %r ... {st.coord = #st.coord<(0, 0, 0, 0), (0, 2, memory)>}
```

The memory plan keeps such a result one phase longer and `isa-lower` emits its store in
the next phase with the prefetches (`compiler/memory/plan.py`, `lowering/global_memory.py`).
A store moves only where the machine gains: each core's phase is priced with
`price.step_cycles` from the work the placed graph gives it (`CoreWork`), a phase takes its
slowest core (and at least its global-memory bytes at the chip's bandwidth), and a store is
kept late when its two phases cost fewer cycles so, in time order; then the cores whose
regions `st-lmem-alloc`'s allocator no longer places (a late result lives one phase
longer) give their late stores up. The price leaves out the time a core waits for a
receive.
"""

from __future__ import annotations

import math
from collections import defaultdict

from xdsl.dialects.builtin import UnitAttr
from xdsl.ir import SSAValue

from stc.compiler.grouping.price import StepWork, layer_cycles, step_cycles, transfer_cycles
from stc.compiler.grouping.rewrite import GROUP
from stc.compiler.mapping.matrix import STMatrix
from stc.compiler.memory.core_requests import CoreRequests
from stc.compiler.memory.plan import MemoryPlan
from stc.compiler.memory.spill_frames import SpillFrames
from stc.compiler.targets.cost_units import copy_cycles, dma_cycles, link_cycles
from stc.compiler.targets.hardware import Coord, HardwareTarget
from stc.dialects import task
from stc.dialects.st import STORE_LATE
from stc.dialects.task.base import element_width, task_id_of, tensor_bytes
from stc.dialects.task.stats import macs

ACTION = "st-place"


def store_spills_late(matrix: STMatrix) -> list[int]:
    """Mark `st.store_late` the group members whose spill costs fewer cycles stored in the
    next phase; their ids. On a one-core target `task-layer-group` plans the timesteps,
    and its stores, itself."""
    if matrix.target.mesh.core_count == 1 or not any(GROUP in op.attributes for op in matrix.graph.tasks()):
        return []
    plan = MemoryPlan(matrix.graph, matrix.target, ACTION)
    work = CoreWork(plan, matrix.target)
    for producer in work.candidates():
        time = plan.first(producer)
        before = work.phase_cycles(time) + work.phase_cycles(time + 1)
        work.store_late(producer, True)
        if work.phase_cycles(time) + work.phase_cycles(time + 1) >= before:
            work.store_late(producer, False)
    late = set(work.late)
    for task_id in late:
        plan.blocks[task_id].attributes[STORE_LATE] = UnitAttr()
    if late:
        for task_id in crowded_late(matrix, late):
            del plan.blocks[task_id].attributes[STORE_LATE]
            late.discard(task_id)
    return sorted(late)


def crowded_late(matrix: STMatrix, late: set[int]) -> list[int]:
    """The late stores of the cores whose regions the allocator no longer places."""
    plan = MemoryPlan(matrix.graph, matrix.target, ACTION)
    crowded = CoreRequests(plan).overflowing({plan.core(task_id) for task_id in late})
    return [task_id for task_id in late if plan.core(task_id) in crowded]


class CoreWork:
    """What each core does in each phase of a placed graph, in the machine's engines'
    cycles, for `step_cycles`: its loads (those its phase's compute reads, and those only
    later phases read), its layers in graph order with the local copies and sends that fill
    other buffers from their results, the stores of results that go through global memory
    (spills) and of network outputs."""

    def __init__(self, plan: MemoryPlan, target: HardwareTarget):
        self.plan = plan
        self.target = target
        self.frames = SpillFrames(plan)
        """The DMAs that load spilled results back (one per frame a buffer takes whole)."""
        self.layers: dict[tuple[Coord, int], list[task.ComputeBlock]] = defaultdict(list)
        self.loads: dict[tuple[Coord, int], StepWork] = defaultdict(StepWork)
        """Each core's loads and output stores in each phase (DMA cycles)."""
        self.dram: dict[int, int] = defaultdict(int)
        """Global-memory bytes each phase moves, without the spills."""
        self.spills: dict[int, int] = {}
        """The bytes of each result stored to global memory."""
        self.compute: dict[int, tuple[int, int]] = {}
        """Compute-clock cycles of each layer, and of the copies and sends after it."""
        self.late: set[int] = set()
        """The spills stored in the phase after their own."""
        self.cycles: dict[tuple[Coord, int], int] = {}
        """Each core's cycles in each phase, once asked for, until its stores move."""
        for op in plan.blocks.values():
            if isinstance(op, task.ComputeBlock):
                self.add_layer(op)
            elif isinstance(op, task.DataOp):
                self.add_load(op, tensor_bytes(op.result.type))
            elif isinstance(op, task.BufferOp):
                self.add_buffer(op)
        self.cores: dict[int, set[Coord]] = defaultdict(set)
        """The cores that load, compute or store in each phase."""
        for core, time in [*self.loads, *self.layers]:
            self.cores[time].add(core)
        self.made: dict[int, list[int]] = defaultdict(list)
        """The spilled results made in each phase."""
        for task_id in self.spills:
            self.made[self.plan.first(task_id)].append(task_id)

    def add_layer(self, op: task.ComputeBlock) -> None:
        core = self.plan.core(op.task_id)
        self.layers[core, self.plan.first(op.task_id)].append(op)
        self.compute[op.task_id] = (self.layer_cycles(op), self.fill_cycles(op, core))
        if any(self.plan.spilled(op.task_id, buffer) for buffer, _, _ in self.plan.pieces.get(op.task_id, [])):
            self.spills[op.task_id] = tensor_bytes(op.result.type)

    def add_buffer(self, buffer: task.BufferOp) -> None:
        for value, box, offset in self.plan.sources[buffer.task_id]:
            owner = value.owner
            if isinstance(owner, task.InputOp):
                self.add_load(buffer, math.prod(box.shape) * itemsize(value))
            elif (load := self.frames.loads.get((buffer.task_id, task_id_of(owner), box, offset))) is not None:
                self.add_load(buffer, math.prod(load.box.shape) * load.itemsize)
        if buffer.task_id in self.plan.direct_outputs:
            return  # its producers' spills store the output
        if any(isinstance(use.operation, task.OutputOp) for use in buffer.result.uses):
            nbytes = tensor_bytes(buffer.result.type)
            time = self.plan.last(buffer.task_id)
            self.loads[self.plan.core(buffer.task_id), time].output_stored += transfer_cycles(self.target, nbytes)
            self.dram[time] += nbytes

    def add_load(self, block: task.StorageOp, nbytes: int) -> None:
        time = self.plan.first(block.task_id)
        work = self.loads[self.plan.core(block.task_id), time]
        read_now = any(
            isinstance(use.operation, task.ComputeBlock) and self.plan.first(use.operation.task_id) == time
            for use in block.results[0].uses
        )
        if read_now:
            work.loaded += transfer_cycles(self.target, nbytes)
        else:
            work.prefetched += transfer_cycles(self.target, nbytes)
        self.dram[time] += nbytes

    def candidates(self) -> list[int]:
        """Group members whose spill is loaded back two phases later or more, in time order."""
        found = []
        for task_id in self.spills:
            made = self.plan.first(task_id)
            loaded = min(
                self.plan.first(buffer.task_id)
                for buffer, _, _ in self.plan.pieces[task_id]
                if self.plan.spilled(task_id, buffer)
            )
            if GROUP in self.plan.blocks[task_id].attributes and loaded >= made + 2:
                found.append(task_id)
        return sorted(found, key=self.plan.first)

    def times(self) -> list[int]:
        """The phases in which some core loads, computes or stores."""
        return sorted(time for time, cores in self.cores.items() if cores)

    def store_late(self, task_id: int, late: bool) -> None:
        """Store a spill in the phase after its own, or (`late=False`) in its own again."""
        core, time = self.plan.core(task_id), self.plan.first(task_id)
        if late:
            self.late.add(task_id)
            self.cores[time + 1].add(core)
        else:
            self.late.discard(task_id)
        self.cycles.pop((core, time), None)
        self.cycles.pop((core, time + 1), None)

    def phase_cycles(self, time: int) -> int:
        """Cycles of a phase, with the spills of `late` stored in the phase after their own:
        its slowest core's, and at least its global-memory bytes at the chip's bandwidth (the
        machine's count)."""
        slowest = max((self.core_cycles(core, time) for core in self.cores[time]), default=0)
        stored = [task_id for task_id in self.made[time] if task_id not in self.late]
        stored += [task_id for task_id in self.made[time - 1] if task_id in self.late]
        dram = self.dram[time] + sum(self.spills[task_id] for task_id in stored)
        return max(slowest, dma_cycles(self.target, dram) if dram else 0)

    def core_cycles(self, core: Coord, time: int) -> int:
        if (key := (core, time)) not in self.cycles:
            self.cycles[key] = step_cycles(self.step(core, time), self.target)
        return self.cycles[key]

    def step(self, core: Coord, time: int) -> StepWork:
        """One core's work in one phase: a spill's store waits for its layer, not for the
        copies, sends and layers after it (`after_store`, from the first store)."""
        base = self.loads.get((core, time), StepWork())
        work = StepWork(loaded=base.loaded, prefetched=base.prefetched, output_stored=base.output_stored)
        first_store = None
        for op in self.layers.get((core, time), []):
            layer, fills = self.compute[op.task_id]
            work.compute += layer
            if op.task_id in self.spills and op.task_id not in self.late:
                work.stored += transfer_cycles(self.target, self.spills[op.task_id])
                first_store = work.compute if first_store is None else first_store
            work.compute += fills
        work.after_store = work.compute - first_store if first_store is not None else 0
        work.delayed = sum(
            transfer_cycles(self.target, self.spills[task_id])
            for task_id in self.made[time - 1]
            if task_id in self.late and self.plan.core(task_id) == core
        )
        return work

    def layer_cycles(self, op: task.ComputeBlock) -> int:
        """The compute instruction's cycles, as the machine counts them: the MAC array's, or
        the vector unit's for what it reads (a pool: its window per output element; the
        others: their input tiles, bias and table) and writes."""
        written = tensor_bytes(op.result.type)
        if isinstance(op, task.ConvOp | task.FcOp):
            return layer_cycles(self.target, True, macs(op), 0, written)
        data = sum(tensor_bytes(value.type) for value in op.operands if isinstance(value.owner, task.DataOp))
        if isinstance(op, task.WindowBlock):
            outputs = math.prod(op.result.type.get_shape())
            read = outputs * math.prod(op.window()) * itemsize(op.data_inputs[0]) + data
        else:
            read = sum(tensor_bytes(value.type) for value in op.data_inputs) + data
        return layer_cycles(self.target, False, 0, read, written)

    def fill_cycles(self, op: task.ComputeBlock, core: Coord) -> int:
        """Compute-clock cycles of the copies and sends that fill other buffers from a
        result: a copy per piece on its core, a send per distinct box to other cores."""
        cycles = 0
        sent: set[tuple[int, ...]] = set()
        for piece in self.plan.pieces.get(op.task_id, []):
            buffer, box, _ = piece
            if self.plan.in_place.get(op.task_id) == piece or self.plan.spilled(op.task_id, buffer):
                continue
            nbytes = math.prod(box.shape) * itemsize(op.result)
            if self.plan.core(buffer.task_id) == core:
                cycles += copy_cycles(self.target, nbytes)
            elif (key := (*box.lo, *box.shape)) not in sent:
                sent.add(key)
                cycles += link_cycles(self.target, nbytes)
        return cycles


def itemsize(value: SSAValue) -> int:
    return element_width(value.type) // 8  # pyright: ignore[reportOptionalOperand, reportArgumentType]
