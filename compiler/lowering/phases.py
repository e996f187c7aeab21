"""
Where `isa-lower` puts each core's instructions: per (step, phase) pair, in the phase's
order, at its start (sends of kept results), beside its compute (prefetches, late stores)
or at its end (receives into buffers only later phases read); the phases numbered and
closed by `isa.sync`. Also the local addresses st-lmem-alloc gave the blocks.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, TensorType
from xdsl.ir import Operation
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.lowering.shared_loads import BoxLoad, SharedLoad
from stc.compiler.memory.plan import MemoryPlan, describe
from stc.compiler.memory.spill_frames import SpillFrames
from stc.compiler.op_lines import link_at_end
from stc.compiler.targets.hardware import Coord, HardwareTarget
from stc.dialects import isa, task
from stc.dialects.st import ADDRESS


class PhaseCode:
    """The state of one graph's lowering, and each core's instructions phase by phase."""

    def __init__(self, graph: task.GraphOp, target: HardwareTarget, target_name: str, pass_name: str = "isa-lower"):
        self.graph = graph
        self.target = target
        self.target_name = target_name
        self.pass_name = pass_name
        self.plan = MemoryPlan(graph, target, pass_name)
        self.staged = target.activation_layout.kind == "nc1hwc0"
        self.declarations: list[Operation] = []
        self.global_end = 0
        self.global_at: dict[object, int] = {}
        """The global address of each network input and spilled result (by task id), data box
        (by reference) and frame of spilled pieces (by name)."""
        self.frames = SpillFrames(self.plan)
        self.spilled: set[int] = set()
        """The compute blocks whose result is stored to global memory."""
        self.code: dict[Coord, dict[int, list[Operation]]] = defaultdict(lambda: defaultdict(list))
        self.late: dict[Coord, dict[int, list[Operation]]] = defaultdict(lambda: defaultdict(list))
        """Receives at the end of a core's phase: into buffers only later phases read."""
        self.beside: dict[Coord, dict[int, list[Operation]]] = defaultdict(lambda: defaultdict(list))
        """DMA no compute of the phase waits for, nor waits for a compute of it, before the
        phase's first store: loads into blocks only later phases read, late stores."""
        self.relaying: dict[Coord, dict[int, list[Operation]]] = defaultdict(lambda: defaultdict(list))
        """At the start of a core's phase, what the cores they go to wait for and which waits
        for none of its compute: relayed loads and their sends (`GlobalMemory.load_shared`),
        sends and copies of results kept from earlier phases (`st.keep`, `emit_head`)."""
        self.tags = itertools.count()
        self.shared: dict[int, SharedLoad] = {}
        """The data blocks whose load is shared (multicast loads), by task id."""
        self.shared_boxes: dict[BoxLoad, SharedLoad] = {}
        """The boxes buffers load from global memory whose load is shared (multicast loads)."""
        self.first_reads: dict[int, float] = {}
        """`first_read` of each storage block asked about, by task id."""
        self.layouts: dict[int, tuple[int, tuple[int, ...], int]] = {}
        """(local address, byte strides, bytes per element) of each tile asked about, by task id."""

    # --- Addresses --------------------------------------------------------------------

    def local(self, op: task.TaskOp, attribute: str = ADDRESS) -> int:
        value = op.attributes.get(attribute)
        if isinstance(value, DenseArrayBase):  # a staging area: address, bytes
            return int(value.get_values()[0])
        if not isinstance(value, IntegerAttr):
            raise PassFailedException(
                f"{self.pass_name}: {describe(op)} of task.graph @{self.graph.graph_name} has no {attribute}; "
                "run st-lmem-alloc first"
            )
        return value.value.data

    def tile(self, op: task.TaskOp) -> isa.TileAttr:
        typ = op.results[0].type
        assert isinstance(typ, TensorType)
        return isa.TileAttr(self.local(op), typ)

    # --- Each core's phases ------------------------------------------------------------

    def cores(self) -> list[isa.CoreOp]:
        """Each core's instructions, phase by phase: the mapping's (step, phase) pairs that
        hold instructions, numbered in order."""
        times = sorted({time for phases in self.code.values() for time in phases})
        cores: list[isa.CoreOp] = []
        for coord in sorted(self.code):
            body: list[Operation] = []
            phases = self.code[coord]
            last = max(times.index(time) for time in phases)
            for phase, time in enumerate(times[: last + 1]):
                ops = phases.get(time, [])
                store = next((i for i, op in enumerate(ops) if isinstance(op, isa.DmaStoreOp)), len(ops))
                body += self.relaying[coord].get(time, []) + ops[:store] + self.beside[coord].get(time, [])
                body += ops[store:] + self.late[coord].get(time, [])
                body.append(isa.SyncOp(phase))
            core = isa.CoreOp(coord)
            link_at_end(core.body.block, body)
            cores.append(core)
        return cores

    def steps(self) -> int:
        """Steps of the target's `max_phases` phases the program's phases take."""
        phases = len({time for phases in self.code.values() for time in phases})
        limit = self.target.max_phases
        return 1 if limit is None else max(1, -(-phases // limit))

    def emit(self, task_id: int, time: int, *ops: Operation) -> None:
        self.place(self.code, task_id, time, ops)

    def emit_load(self, block: task.StorageOp, *ops: Operation) -> None:
        """Load into a storage block in its first phase: with the phase's other loads, or as
        a prefetch when only compute blocks of later phases read it."""
        time = self.plan.first(block.task_id)
        if self.read_later(block, time):
            self.emit_beside(block.task_id, time, *ops)
        else:
            self.emit(block.task_id, time, *ops)

    def emit_head(self, task_id: int, time: int, *ops: Operation) -> None:
        """Instructions at the start of the block's core's phase (`relaying`)."""
        self.place(self.relaying, task_id, time, ops)

    def emit_relay(self, block: task.StorageOp, *ops: Operation) -> None:
        """A relayed load and its send: at the start of the block's first phase (`relaying`),
        or as a prefetch (`emit_load`) when only later phases read the block."""
        time = self.plan.first(block.task_id)
        if self.read_later(block, time):
            self.emit_beside(block.task_id, time, *ops)
        else:
            self.emit_head(block.task_id, time, *ops)

    def emit_beside(self, task_id: int, time: int, *ops: Operation) -> None:
        """DMA that runs beside the compute of its phase (`beside`) on the block's core."""
        self.place(self.beside, task_id, time, ops)

    def emit_receive(self, block: task.StorageOp, time: int, recv: isa.RecvOp) -> None:
        """A receive into `block` on its core: with the phase's code, or at the end of the
        phase when only later phases read the block (`late`)."""
        self.place(self.late if self.read_later(block, time) else self.code, block.task_id, time, (recv,))

    def place(
        self, where: dict[Coord, dict[int, list[Operation]]], task_id: int, time: int, ops: tuple[Operation, ...]
    ) -> None:
        """Every instruction emitted for a block goes here: into `where` (`code`, `relaying`,
        `beside` or `late`) of its core's phase, which then holds this core's instructions
        if only these."""
        core = self.plan.core(task_id)
        self.code[core].setdefault(time, [])
        where[core][time].extend(ops)

    def read_later(self, buffer: task.StorageOp, time: int) -> bool:
        """Whether only compute blocks of later phases read the block."""
        return self.first_read(buffer) > time

    def first_read(self, block: task.StorageOp) -> float:
        """The first phase a compute block reads the block in (inf when none does), -inf
        when another block reads it; worked out once per block."""
        if (known := self.first_reads.get(block.task_id)) is not None:
            return known
        readers = [use.operation for use in block.result.uses]
        first = (
            min((self.plan.first(op.task_id) for op in readers), default=math.inf)
            if all(isinstance(op, task.ComputeBlock) for op in readers)
            else -math.inf
        )
        self.first_reads[block.task_id] = first
        return first
