"""
What the placer puts together: units, each a set of blocks that share one core, one step
and one phase, and the nets that tie every unit to the others. The blocks a mapping left
unplaced form

- a compute unit: a compute block with its unplaced input storage (co-location), fixed
  to the core and the shared phases of its input storage when some of it is pinned;
- a storage unit: the unplaced input storage of a pinned compute block, fixed to its core
  and phase, or a storage block no compute block reads (a network-output buffer);
- an IO unit: a network input or output.

A unit lives in one phase: storage only in the phase of the compute block that reads it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from attrs import define, field

from stc.compiler.mapping.action_errors import describe
from stc.compiler.mapping.block_stages import allowed_stages, input_storage, is_memory_block
from stc.compiler.mapping.matrix import STMatrix
from stc.compiler.mapping.nets import Net, graph_nets
from stc.compiler.mapping.phase_ranges import Ranges, intersection
from stc.compiler.mapping.placement.errors import placement_error
from stc.compiler.memory.storage_size import buffer_bytes
from stc.dialects import task
from stc.dialects.st import Space, Stage
from stc.dialects.task.base import element_width


@define(eq=False)
class Unit:
    """Blocks placed together on one core, in one step and phase."""

    index: int
    order: int
    """The position of its first block in the graph."""
    kind: str
    """One of "axon", "soma", "storage", "io"."""
    blocks: list[task.TaskOp]
    memory: int
    """Local-memory bytes: its storage blocks', and a compute block's result tile."""
    result: int = 0
    """Of those, a compute block's result tile."""
    step: int = 0
    fixed_core: int | None = None
    fixed_phases: Ranges | None = None
    """The phases its pinned input storage shares, when it has some."""
    target_phase: int = 0
    core: int = -1
    phase: int = -1
    neighbours: list[tuple[int, int, int]] = field(factory=list)
    """(other unit or -1, fixed core or -1, bytes) per neighbour."""
    nets: list[tuple[Net, int, int]] = field(factory=list)
    """(net, other unit or -1, fixed core or -1) per net, for route checks."""

    @property
    def head(self) -> task.TaskOp:
        return self.blocks[0]

    @property
    def computes(self) -> bool:
        return self.kind in ("axon", "soma")

    def describe(self) -> str:
        others = [str(op.task_id) for op in self.blocks[1:]]
        return describe(self.head) + (f" with its input storage {', '.join(others)}" if others else "")


class Units:
    """The units of one graph by index, the unit of every block in one, and their nets."""

    def __init__(self, matrix: STMatrix, core_index: dict[Space, int]):
        self.matrix = matrix
        self.core_index = core_index
        self.all: list[Unit] = []
        self.unit_of: dict[int, int] = {}
        """The unit of every block being placed."""
        self.build()
        self.connect()

    def __len__(self) -> int:
        return len(self.all)

    def __iter__(self) -> Iterator[Unit]:
        return iter(self.all)

    def __getitem__(self, index: int) -> Unit:
        return self.all[index]

    def unplace(self) -> None:
        """Forget every unit's core and phase, to place them all again."""
        for unit in self.all:
            unit.core = unit.phase = -1
            unit.target_phase = 0

    @property
    def io(self) -> list[Unit]:
        return [unit for unit in self.all if unit.kind == "io"]

    def build(self) -> None:
        """Group the unplaced blocks into units; see the module docstring."""
        places = self.matrix.places
        claimed: dict[int, int] = {}  # the compute block that reads each storage block
        for order, op in enumerate(self.matrix.graph.tasks()):
            if isinstance(op, task.ComputeBlock):
                self.build_compute_unit(op, order, claimed)
            elif op.task_id not in places and isinstance(op, task.InputOp | task.OutputOp):
                self.add(Unit(len(self.all), order, "io", [op], 0))
        for order, op in enumerate(self.matrix.graph.tasks()):
            if is_memory_block(op) and op.task_id not in places and op.task_id not in claimed:
                self.add(Unit(len(self.all), order, "storage", [op], self.matrix.sizes[op.task_id]))

    def build_compute_unit(self, op: task.ComputeBlock, order: int, claimed: dict[int, int]) -> None:
        """A compute block and its unplaced input storage, or that storage alone when the
        compute block is pinned."""
        unplaced = self.claim_input_storage(op, claimed)
        memory = sum(self.matrix.sizes[s.task_id] for s in unplaced)
        if (place := self.matrix.places.get(op.task_id)) is not None:
            if unplaced:
                unit = Unit(len(self.all), order, "storage", unplaced, memory, step=place.step)
                unit.fixed_core, unit.fixed_phases = self.core_index[place.space], place.ranges
                self.add(unit)
            return
        kind = "axon" if allowed_stages(op) == (Stage.AXON,) else "soma"
        result = buffer_bytes(op.result.type.get_shape(), element_width(op.result.type) or 8, self.matrix.target)
        unit = Unit(len(self.all), order, kind, [op, *unplaced], memory + result, result)
        self.fix_to_pinned_input_storage(unit, op)
        self.add(unit)

    def claim_input_storage(self, op: task.ComputeBlock, claimed: dict[int, int]) -> list[task.TaskOp]:
        """Record `op` as the reader of its input storage; return the unplaced part of it.
        Storage the mapping pinned may feed several compute blocks (a layer group's weights
        feed every slice of their layer); the placer has nothing to co-locate there."""
        unplaced: list[task.TaskOp] = []
        for storage in input_storage(op):
            if storage.task_id in self.matrix.places:
                claimed.setdefault(storage.task_id, op.task_id)
                continue
            if storage.task_id in claimed:
                raise placement_error(
                    f"{describe(storage)} is read by blocks {claimed[storage.task_id]} "
                    f"and {op.task_id}; a storage block feeds one compute block"
                )
            claimed[storage.task_id] = op.task_id
            unplaced.append(storage)
        return unplaced

    def fix_to_pinned_input_storage(self, unit: Unit, op: task.ComputeBlock) -> None:
        """Fix a compute unit to the core, step and shared phases of its pinned input storage."""
        places = self.matrix.places
        pinned = [places[s.task_id] for s in input_storage(op) if s.task_id in places]
        if not pinned:
            return
        if len({(p.space, p.step) for p in pinned}) > 1:
            raise placement_error(
                f"the input storage of {describe(op)} is placed on different cores "
                f"or steps ({', '.join(p.text() for p in pinned)}); it cannot share their core"
            )
        phases = functools.reduce(intersection, (p.ranges for p in pinned))
        if not phases:
            raise placement_error(
                f"the input storage of {describe(op)} shares no phase ({', '.join(p.text() for p in pinned)})"
            )
        unit.step = pinned[0].step
        unit.fixed_core, unit.fixed_phases = self.core_index[pinned[0].space], phases

    def add(self, unit: Unit) -> None:
        self.all.append(unit)
        for op in unit.blocks:
            self.unit_of[op.task_id] = unit.index

    def connect(self) -> None:
        """Record every unit's neighbours: the units or pinned cores its nets reach."""
        pair_bytes: dict[tuple[int, int, int], int] = {}
        for net in graph_nets(self.matrix.graph):
            ends = [self.end_of(block) for block in (net.source, net.destination)]
            if ends[0][0] == ends[1][0]:
                continue
            for (unit, _), (other, core) in ((ends[0], ends[1]), (ends[1], ends[0])):
                if unit < 0:
                    continue
                key = (unit, other, core)
                pair_bytes[key] = pair_bytes.get(key, 0) + net.nbytes
                self.all[unit].nets.append((net, other, core))
        for (unit, other, core), nbytes in pair_bytes.items():
            self.all[unit].neighbours.append((other, core, nbytes))

    def end_of(self, block: int) -> tuple[int, int]:
        """(unit, -1) for a block being placed, (-1, core) for a placed one."""
        if block in self.unit_of:
            return self.unit_of[block], -1
        return -1, self.core_index[self.matrix.places[block].space]

    def neighbour_core(self, other: int, core: int) -> int:
        """The core of a neighbour: the core of unit `other` (-1 while it has none), or the
        fixed `core` of a placed block."""
        return self.all[other].core if other >= 0 else core

    def neighbour_phase(self, unit: Unit, latest: bool) -> int:
        """The latest (or earliest) phase of the units and pinned blocks a unit talks to."""
        phases = [self.all[other].phase for other, _, _ in unit.neighbours if other >= 0 and self.all[other].phase >= 0]
        places = self.matrix.places
        for net, other, _ in unit.nets:
            if other < 0:
                end = net.source if net.destination in (op.task_id for op in unit.blocks) else net.destination
                phases.append(places[end].phase)
        return max(phases, default=0) if latest else min(phases, default=0)
