"""
The spatio-temporal matrix of one task graph (BiMap's STMatrix and STContext): where
every placed block is, which stage of which core and phase it holds and how much local
memory each core uses in each phase. Every put and take is checked here, so a mapping
script, the placer and the annotations of a graph (`coord_annotations`) obey the same
rules:

- a coordinate names an existing chip and core and a phase below the target's limit;
- compute blocks run on computing tiles, each kind of block at its stages (`block_stages`);
- one block per compute or router stage of a core and phase;
- a storage block lives on one core and one step, over a set of phases it is never put
  on twice, and which is one contiguous range once a script is done;
- phases are kept as ranges (`phase_ranges`): a block at phase 2**40 or over phases 0 to
  10**8 costs what one phase costs;
- the storage living on a core in a phase fits the core's usable local memory;
- a compute block shares core, step and phase with all its placed input storage;
- area groups: nodes inside, others out of exclusive_placement areas.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from stc.compiler.mapping.action_errors import action_error, describe, misplaced
from stc.compiler.mapping.area_groups import AreaGroup
from stc.compiler.mapping.block_stages import allowed_stages, input_storage, is_memory_block
from stc.compiler.mapping.mesh import MeshGeometry
from stc.compiler.mapping.phase_ranges import (
    MemoryUse,
    Ranges,
    difference,
    format_ranges,
    intersection,
    union,
)
from stc.compiler.mapping.place import Place, Put
from stc.compiler.memory.storage_size import storage_bytes
from stc.compiler.targets.hardware import HardwareTarget
from stc.dialects import task
from stc.dialects.st import (
    COMPUTE_STAGES,
    CoordAttr,
    Space,
    Stage,
    format_space,
    phases_problem,
    place_problem,
)
from stc.dialects.st.local_memory import stores_directly


class STMatrix:
    """The placement state of one task graph on one target."""

    def __init__(self, graph: task.GraphOp, target: HardwareTarget):
        self.graph = graph
        self.target = target
        self.mesh = MeshGeometry(target)
        self.blocks: dict[int, task.TaskOp] = {op.task_id: op for op in graph.tasks()}
        self.sizes: dict[int, int] = {task_id: self.size_of(op) for task_id, op in self.blocks.items()}
        self.places: dict[int, Place] = {}
        self.changed_by: dict[int, tuple[int, str]] = {}
        """(when, action) that last put or took out each block, for messages about it."""
        self.clock = itertools.count()
        self.touched: set[int] = set()
        """The blocks put or taken out since the last `annotate`."""
        self.slots: dict[tuple[Space, int, int, Stage], int] = {}
        self.residents: dict[tuple[Space, int], set[int]] = {}
        """The storage blocks on each core and step."""
        self.memory: dict[tuple[Space, int], MemoryUse] = {}
        """The local memory in use on each core and step, over phases."""
        self.groups: list[AreaGroup] = []
        self.node_cache: dict[str, set[int]] = {}

    def exchange(self, erased: Sequence[int], created: Sequence[task.TaskOp]) -> None:
        """The graph's blocks after a change that erased and created the given ones (a
        split, a share of data), at the cost of those blocks, not of the graph's. `erased`
        may name blocks the change itself created (a split of a piece an earlier split of
        the group made)."""
        for task_id in erased:
            self.blocks.pop(task_id, None)
            self.sizes.pop(task_id, None)
        for op in created:
            self.blocks[op.task_id] = op
            self.sizes[op.task_id] = self.size_of(op)
        self.node_cache.clear()

    def used_bytes(self, space: Space, step: int, phase: int) -> int:
        use = self.memory.get((space, step))
        return 0 if use is None else use.at(phase)

    def storage_at(self, space: Space, step: int, phase: int) -> list[int]:
        """The storage blocks on a core in a phase, by id."""
        return sorted(i for i in self.residents.get((space, step), ()) if self.places[i].holds(phase))

    def changes(self) -> dict[int, list[int]]:
        """By step, the phases where what a core holds may change: where its memory in use
        changes, and where a compute or router stage is taken and freed again."""
        phases: dict[int, set[int]] = {}
        for (_, step), use in self.memory.items():
            phases.setdefault(step, set()).update(use.starts)
        for _, step, phase, _ in self.slots:
            phases.setdefault(step, set()).update((phase, phase + 1))
        return {step: sorted(points) for step, points in phases.items()}

    def size_of(self, op: task.TaskOp) -> int:
        return storage_bytes(op, self.target) if isinstance(op, task.StorageOp) else 0

    def block(self, action: str, task_id: int) -> task.TaskOp:
        op = self.blocks.get(task_id)
        if op is None:
            raise action_error(action, f"task.graph @{self.graph.graph_name} has no block {task_id}")
        return op

    def nodes(self, group: AreaGroup) -> set[int]:
        """The blocks a declared area group holds (see `group_nodes`), computed once."""
        if (cached := self.node_cache.get(group.name)) is None:
            cached = self.node_cache[group.name] = self.group_nodes(group)
        return cached

    def group_nodes(self, group: AreaGroup) -> set[int]:
        """The blocks an area group holds: its members and their compute blocks' input storage."""
        nodes = {task_id for task_id in group.members if task_id in self.blocks}
        for task_id in list(nodes):
            if isinstance(op := self.blocks[task_id], task.ComputeBlock):
                nodes.update(storage.task_id for storage in input_storage(op))
        return nodes

    def add_group(self, action: str, group: AreaGroup) -> None:
        """Declare an area group; the blocks already placed must obey it."""
        if any(other.name == group.name for other in self.groups):
            raise action_error(action, f"area group {group.name!r} is declared twice")
        for task_id in sorted(group.members):
            self.block(action, task_id)
        nodes = self.group_nodes(group)
        for task_id, place in self.places.items():
            if problem := group.placement_problem(task_id in nodes, place.space):
                raise action_error(action, f"{describe(self.blocks[task_id])} at {place.text()}: {problem}")
        self.groups.append(group)
        self.node_cache[group.name] = nodes

    def replace_members(self, removed: set[int], created: Sequence[int]) -> None:
        """After a split: members it removed are replaced by the blocks it created."""
        for group in self.groups:
            if group.members & removed:
                group.members = (group.members - removed) | set(created)
        self.node_cache.clear()

    def put(self, action: str, puts: Sequence[Put]) -> None:
        """Put blocks, all or none: each is checked against the matrix and the puts before it
        (whose bytes are added while checking, and removed again)."""
        pending_slots: dict[tuple[Space, int, int, Stage], int] = {}
        pending_bytes: list[tuple[MemoryUse, int, int, int]] = []
        try:
            for op, place in puts:
                self.check_put(action, op, place, pending_slots, pending_bytes)
        finally:
            for use, first, last, size in reversed(pending_bytes):
                use.add(first, last, -size)
        for op, place in puts:
            self.commit(action, op, place)

    def check_put(
        self,
        action: str,
        op: task.TaskOp,
        place: Place,
        pending_slots: dict[tuple[Space, int, int, Stage], int],
        pending_bytes: list[tuple[MemoryUse, int, int, int]],
    ) -> None:
        """Check one put on plain data; a message is built only when a rule breaks (a span of
        phases off the memory stage breaks the rule its coordinate would)."""
        if problem := phases_problem(place.phase, place.last_phase, place.stage):
            raise misplaced(action, op, place, problem)
        if problem := place_problem(self.target, place.space, place.last_phase):
            raise misplaced(action, op, place, problem)
        stages = allowed_stages(op)
        if place.stage not in stages:
            names = " or ".join(stage.value for stage in stages)
            raise misplaced(action, op, place, f"a {op.name} is placed at the {names} stage, not {place.stage.value}")
        tile = self.mesh.tile(place.space)
        if place.stage in COMPUTE_STAGES and not tile.computes:
            raise misplaced(
                action, op, place, f"core {format_space(place.space)} is a {tile.name}, which does not compute"
            )
        if is_memory_block(op):
            self.check_storage_put(action, op, place, pending_bytes)
        else:
            self.check_slot_put(action, op, place, pending_slots)
        for group in self.groups:
            if problem := group.placement_problem(op.task_id in self.nodes(group), place.space):
                raise misplaced(action, op, place, problem)

    def check_storage_put(
        self,
        action: str,
        op: task.TaskOp,
        place: Place,
        pending_bytes: list[tuple[MemoryUse, int, int, int]],
    ) -> None:
        if (old := self.places.get(op.task_id)) is not None:
            if (old.space, old.step) != (place.space, place.step):
                lives = f"it already lives on core {format_space(old.space)} in step {old.step}"
                raise misplaced(action, op, place, f"{lives}; a storage block lives on one core (take it out first)")
            if again := intersection(old.ranges, place.ranges):
                raise misplaced(action, op, place, f"it is already there in phase {again[0][0]}")
        elif isinstance(op, task.BufferOp):  # a first put: does its producers' output go straight out?
            self.sizes[op.task_id] = (
                0 if stores_directly(op, self.target, (place.step, place.phase)) else self.size_of(op)
            )
        size = self.sizes[op.task_id]
        capacity = self.mesh.capacity(place.space)
        if capacity == 0:
            tile = self.mesh.tile(place.space).name
            raise misplaced(
                action, op, place, f"core {format_space(place.space)} is a {tile}, which has no local memory"
            )
        use = self.memory.setdefault((place.space, place.step), MemoryUse())
        for first, last in place.ranges:
            if (over := use.first_above(first, last, capacity - size)) is not None:
                phase, in_use = over
                memory = f"local memory of core {format_space(place.space)} in phase {phase}"
                raise misplaced(
                    action, op, place, f"{memory} overflows: {in_use} B in use + {size} B > {capacity} B usable"
                )
            use.add(first, last, size)
            pending_bytes.append((use, first, last, size))

    def check_slot_put(
        self,
        action: str,
        op: task.TaskOp,
        place: Place,
        pending_slots: dict[tuple[Space, int, int, Stage], int],
    ) -> None:
        if (old := self.places.get(op.task_id)) is not None:
            raise misplaced(action, op, place, f"it is already at {old.text()} (take it out first)")
        key = (place.space, place.step, place.phase, place.stage)
        other = self.slots.get(key, pending_slots.get(key))
        if other is not None:
            raise misplaced(
                action,
                op,
                place,
                f"{place.stage.value} of core {format_space(place.space)} in phase "
                f"{place.phase} already holds {describe(self.blocks[other])}; one block per stage, core and phase",
            )
        pending_slots[key] = op.task_id

    def changed(self, task_id: int, action: str) -> None:
        self.changed_by[task_id] = (next(self.clock), action)
        self.touched.add(task_id)

    def commit(self, action: str, op: task.TaskOp, place: Place) -> None:
        self.changed(op.task_id, action)
        if not is_memory_block(op):
            self.places[op.task_id] = place
            self.slots[(place.space, place.step, place.phase, place.stage)] = op.task_id
            return
        old = self.places.get(op.task_id)
        ranges = union(place.ranges, old.ranges) if old else place.ranges
        self.places[op.task_id] = Place(place.space, place.step, ranges, Stage.MEMORY)
        self.residents.setdefault((place.space, place.step), set()).add(op.task_id)
        use = self.memory.setdefault((place.space, place.step), MemoryUse())
        for first, last in place.ranges:
            use.add(first, last, self.sizes[op.task_id])

    def take_storage(self, action: str, op: task.TaskOp, space: Space, step: int, ranges: Ranges) -> None:
        """Take one storage block out of some phases of a core."""
        place = self.places.get(op.task_id)
        here = place is not None and (place.space, place.step) == (space, step)
        missing = difference(ranges, place.ranges) if here and place is not None else ranges
        if missing:
            where = "nowhere" if place is None else place.text()
            raise action_error(
                action,
                f"{describe(op)} is not at {format_space(space)}, ({step}, {missing[0][0]}, memory); it is at {where}",
            )
        self.remove_storage(action, op.task_id, ranges)

    def take_all_storage(self, action: str, space: Space, step: int, ranges: Ranges) -> None:
        """Take every storage block out of some phases of a core."""
        residents = sorted(self.residents.get((space, step), ()))
        taken = [(i, common) for i in residents if (common := intersection(self.places[i].ranges, ranges))]
        if not taken:
            where = CoordAttr(space, step, ranges[0][0], Stage.MEMORY, ranges[-1][1]).text()
            raise action_error(action, f"no storage block at {where}")
        for task_id, common in taken:
            self.remove_storage(action, task_id, common)

    def remove_storage(self, action: str, task_id: int, ranges: Ranges) -> None:
        self.changed(task_id, action)
        place = self.places[task_id]
        use = self.memory[(place.space, place.step)]
        for first, last in ranges:
            use.add(first, last, -self.sizes[task_id])
        remaining = difference(place.ranges, ranges)
        if remaining:
            self.places[task_id] = Place(place.space, place.step, remaining, place.stage)
        else:
            del self.places[task_id]
            self.residents[(place.space, place.step)].discard(task_id)

    def take_slot(self, action: str, coord: CoordAttr, task_id: int | None) -> None:
        """Take the block out of a compute or router stage."""
        key = (coord.space, coord.step, coord.phase, coord.stage)
        occupant = self.slots.get(key)
        if occupant is None:
            raise action_error(action, f"nothing is at {coord.text()}")
        if task_id is not None and task_id != occupant:
            raise action_error(
                action,
                f"block {task_id} is not at {coord.text()}; {describe(self.blocks[occupant])} is",
            )
        del self.slots[key]
        del self.places[occupant]
        self.changed(occupant, action)

    def check_complete(self) -> None:
        """Rules that hold once a script is done: storage phases are one range, and compute
        blocks share core, step and phase with their placed input storage."""
        for task_id, place in self.places.items():
            op = self.blocks[task_id]
            if not place.contiguous:
                raise action_error(
                    self.changed_by[task_id][1],
                    f"{describe(op)} lives in phases {format_ranges(place.ranges)} of core {format_space(place.space)} "
                    f"in step {place.step}; a storage block lives in one contiguous range of phases",
                )
            if isinstance(op, task.ComputeBlock):
                self.check_colocation(op, place)

    def check_colocation(self, op: task.ComputeBlock, place: Place) -> None:
        for storage in input_storage(op):
            other = self.places.get(storage.task_id)
            if other is None:
                continue
            if (other.space, other.step) != (place.space, place.step) or not other.holds(place.phase):
                raise action_error(
                    max(self.changed_by[op.task_id], self.changed_by[storage.task_id])[1],
                    f"{describe(op)} at {place.text()} reads {describe(storage)} at "
                    f"{other.text()}; a compute block shares core, step and phase with its input "
                    "storage",
                )
