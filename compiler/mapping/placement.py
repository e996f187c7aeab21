"""
Automatic placement of a task graph on a core mesh: what `st-place` does.

The blocks a mapping left unplaced are grouped into units that must share a core and a
phase: a compute block with its unplaced input storage (co-location); storage read by no
compute block (network-output buffers); network inputs and outputs (IO). Placement then

1. gives every compute unit a target phase: its depth in the graph (longest chain of
   compute blocks before it), or, when the graph is deeper than the target has phases,
   consecutive depths packed into phases with about the same number of units each; moved
   by the pins, so that a block comes after the compute blocks it reads from and before
   those that read from it (in a later phase, or in no earlier one when depths share);
2. places the units greedily, pinned ones first, then by target phase and graph order:
   each takes the core with a free stage and enough free memory that minimises
   Σ bytes × hops to its neighbours already placed, ties broken along a snake order of
   the mesh; a unit that fits nowhere in its target phase tries the later phases, then
   the earlier ones, within that order;
3. puts each network input and output on the IO tile (a tile that neither computes nor
   stores, like AIE shim tiles; any tile when the target has none) nearest its buffers;
4. improves the cores by simulated annealing, a bounded number of moves and swaps of
   units within their phase, seeded, so the result is deterministic, keeping the best
   placement seen; the IO blocks are then placed again;
5. commits everything through the `STMatrix`, which checks every rule once more.

Area groups restrict the cores of the units that hold their nodes (inside) and of the
others (outside an exclusive_placement area); when a group constrains routes, a core is
taken only if the XY routes to the neighbours already placed obey the group's table.
Storage lives in its consumer's phase only. The `row-major` strategy keeps steps 1, 3
and 5 but takes the first free core in row-major order and skips step 4: the baseline
the benchmark compares against.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import numpy as np
from attrs import define, field
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.mapping.area_groups import AreaGroup
from stc.compiler.mapping.matrix import (
    Place,
    STMatrix,
    allowed_stages,
    describe,
    input_storage,
    is_memory_block,
)
from stc.compiler.mapping.nets import Net, graph_nets
from stc.compiler.memory.storage_size import buffer_bytes
from stc.dialects import task
from stc.dialects.st import Space, Stage, format_space
from stc.dialects.task.base import element_width

ACTION = "st-place"
STRATEGIES = ("greedy", "row-major")


@define(eq=False)
class Unit:
    """Blocks placed together on one core, in one step and phase."""

    index: int
    order: int
    kind: str
    """One of "axon", "soma", "storage", "io"."""
    blocks: list[task.TaskOp]
    memory: int
    step: int = 0
    fixed_core: int | None = None
    fixed_phases: tuple[int, ...] | None = None
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

    def describe(self) -> str:
        others = [str(op.task_id) for op in self.blocks[1:]]
        return describe(self.head) + (f" with its input storage {', '.join(others)}" if others else "")


class Layer:
    """Free memory and stages of every core in one step and phase."""

    def __init__(self, matrix: STMatrix, cores: Sequence[Space], step: int, phase: int):
        self.memory = np.array(
            [matrix.mesh.capacity(space) - matrix.used.get((space, step, phase), 0) for space in cores],
            dtype=np.int64,
        )
        self.axon = np.array([-2 if (space, step, phase, Stage.AXON) in matrix.slots else -1 for space in cores])
        self.soma = np.array(
            [
                [-2 if (space, step, phase, stage) in matrix.slots else -1 for stage in (Stage.SOMA1, Stage.SOMA2)]
                for space in cores
            ]
        )

    def stage_free(self, kind: str) -> np.ndarray:
        """The cores where a unit of this kind finds its stage free; storage needs none."""
        if kind == "axon":
            return self.axon == -1
        if kind == "soma":
            return (self.soma == -1).any(axis=1)
        return np.ones(len(self.memory), dtype=bool)

    def take(self, unit: Unit, core: int) -> None:
        self.memory[core] -= unit.memory
        if unit.kind == "axon":
            self.axon[core] = unit.index
        elif unit.kind == "soma":
            column = int(np.flatnonzero(self.soma[core] == -1)[0])
            self.soma[core, column] = unit.index

    def release(self, unit: Unit, core: int) -> None:
        self.memory[core] += unit.memory
        if unit.kind == "axon":
            self.axon[core] = -1
        elif unit.kind == "soma":
            self.soma[core][self.soma[core] == unit.index] = -1


class Placer:
    """Places the unplaced blocks of one graph; see the module docstring."""

    def __init__(self, matrix: STMatrix, seed: int = 0, iterations: int = 20000, strategy: str = "greedy"):
        check_options(iterations, strategy)
        self.matrix = matrix
        self.mesh = matrix.mesh
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.strategy = strategy
        self.cores = self.mesh.row_major
        self.core_index = {space: index for index, space in enumerate(self.cores)}
        positions = np.array([self.mesh.position(space) for space in self.cores])
        self.rows, self.columns = positions[:, 0], positions[:, 1]
        rank = {space: index for index, space in enumerate(self.mesh.snake)}
        self.snake_rank = np.array([rank[space] for space in self.cores])
        self.layers: dict[tuple[int, int], Layer] = {}
        self.units: list[Unit] = []
        self.unit_of: dict[int, int] = {}
        self.route_groups = [group for group in matrix.groups if group.constrains_routes]
        self.inside = {group.name: np.array([group.contains(space) for space in self.cores]) for group in matrix.groups}
        """The cores inside each area group."""
        self.masks: list[np.ndarray] = []
        """The cores each unit may take."""
        self.producers: dict[int, list[int]] = {}
        """The compute blocks each compute block reads from (through its input buffers)."""
        self.consumers: dict[int, list[int]] = {}
        self.phase_gap = 1
        """How many phases a block runs after the blocks it reads from, at least: 1, or 0 when
        the graph is deeper than the target has phases and consecutive depths share them."""
        self.phase_limit = 0
        self.placed_phases: dict[int, int] = {}
        """The phase of every compute block placed so far, pinned ones included."""

    def layer(self, step: int, phase: int) -> Layer:
        if (key := (step, phase)) not in self.layers:
            self.layers[key] = Layer(self.matrix, self.cores, step, phase)
        return self.layers[key]

    def run(self) -> None:
        self.build_units()
        if not self.units:
            return
        self.connect()
        self.plan_phases()
        compute = [u for u in self.units if u.kind in ("axon", "soma") or u.fixed_core is not None]
        for unit in sorted(compute, key=lambda u: (u.fixed_core is None, u.target_phase, u.order)):
            self.place_greedily(unit)
        for unit in [u for u in self.units if u.kind == "storage" and u.fixed_core is None]:
            unit.target_phase = self.neighbour_phase(unit, latest=True)
            self.place_greedily(unit)
        io_units = [u for u in self.units if u.kind == "io"]
        for unit in io_units:
            self.place_io(unit)
        if self.strategy == "greedy":
            self.anneal()
            for unit in io_units:
                self.place_io(unit)
        self.commit()

    def build_units(self) -> None:
        """Group the unplaced blocks into units; see the module docstring."""
        matrix = self.matrix
        places = matrix.places
        claimed: dict[int, int] = {}
        for order, op in enumerate(matrix.graph.tasks()):
            if isinstance(op, task.ComputeBlock):
                self.build_compute_unit(op, order, claimed)
            elif op.task_id not in places and isinstance(op, task.InputOp | task.OutputOp):
                self.add_unit(Unit(len(self.units), order, "io", [op], 0))
        for order, op in enumerate(matrix.graph.tasks()):
            if is_memory_block(op) and op.task_id not in places and op.task_id not in claimed:
                self.add_unit(Unit(len(self.units), order, "storage", [op], matrix.sizes[op.task_id]))
        self.masks = [self.allowed(unit) for unit in self.units]
        for unit in self.units:
            self.check_allowed(unit)

    def build_compute_unit(self, op: task.ComputeBlock, order: int, claimed: dict[int, int]) -> None:
        matrix = self.matrix
        unplaced: list[task.TaskOp] = []
        for storage in input_storage(op):
            if storage.task_id in claimed:
                raise PassFailedException(
                    f"{ACTION}: {describe(storage)} is read by blocks {claimed[storage.task_id]} "
                    f"and {op.task_id}; a storage block feeds one compute block"
                )
            claimed[storage.task_id] = op.task_id
            if storage.task_id not in matrix.places:
                unplaced.append(storage)
        memory = sum(matrix.sizes[s.task_id] for s in unplaced)
        if (place := matrix.places.get(op.task_id)) is not None:
            if unplaced:
                unit = Unit(len(self.units), order, "storage", unplaced, memory, place.step)
                unit.fixed_core, unit.fixed_phases = self.core_index[place.space], place.phases
                self.add_unit(unit)
            return
        kind = "axon" if allowed_stages(op) == (Stage.AXON,) else "soma"
        result = buffer_bytes(op.result.type.get_shape(), element_width(op.result.type) or 8, matrix.target)
        unit = Unit(len(self.units), order, kind, [op, *unplaced], memory + result)
        pinned = [matrix.places[s.task_id] for s in input_storage(op) if s.task_id in matrix.places]
        if pinned:
            spaces = {(p.space, p.step) for p in pinned}
            if len(spaces) > 1:
                raise PassFailedException(
                    f"{ACTION}: the input storage of {describe(op)} is placed on different cores "
                    f"or steps ({', '.join(p.text() for p in pinned)}); it cannot share their core"
                )
            phases = set.intersection(*(set(p.phases) for p in pinned))
            if not phases:
                raise PassFailedException(
                    f"{ACTION}: the input storage of {describe(op)} shares no phase "
                    f"({', '.join(p.text() for p in pinned)})"
                )
            unit.step = pinned[0].step
            unit.fixed_core, unit.fixed_phases = (
                self.core_index[pinned[0].space],
                tuple(sorted(phases)),
            )
        self.add_unit(unit)

    def add_unit(self, unit: Unit) -> None:
        self.units.append(unit)
        for op in unit.blocks:
            self.unit_of[op.task_id] = unit.index

    def allowed(self, unit: Unit) -> np.ndarray:
        """The cores a unit may take: its kind of tile, its pins, its area groups."""
        mesh = self.mesh
        if unit.kind == "io":
            io_tiles = np.array([not mesh.tile(s).computes and mesh.capacity(s) == 0 for s in self.cores])
            mask = io_tiles if io_tiles.any() else np.ones(len(self.cores), dtype=bool)
        elif unit.kind == "storage":
            mask = np.array([mesh.capacity(s) > 0 for s in self.cores])
        else:
            mask = np.array([mesh.tile(s).computes for s in self.cores])
        if unit.fixed_core is not None:
            mask = np.zeros(len(self.cores), dtype=bool)
            mask[unit.fixed_core] = True
        for group in self.matrix.groups:
            mask &= self.group_mask(unit, group)
        return mask

    def group_mask(self, unit: Unit, group: AreaGroup) -> np.ndarray:
        inside = self.inside[group.name]
        nodes = self.matrix.nodes(group)
        members = [op.task_id in nodes for op in unit.blocks]
        if all(members):
            return inside
        if any(members):
            return inside & (not group.exclusive_placement)
        return ~inside if group.exclusive_placement else np.ones(len(self.cores), dtype=bool)

    def check_allowed(self, unit: Unit) -> None:
        if self.masks[unit.index].any():
            return
        kinds = {
            "io": "an IO tile",
            "storage": "a tile with memory",
            "axon": "a computing tile",
            "soma": "a computing tile",
        }
        reasons = [kinds[unit.kind]]
        if unit.fixed_core is not None:
            reasons.append(f"core {format_space(self.cores[unit.fixed_core])}, where its pinned blocks are")
        for group in self.matrix.groups:
            nodes = self.matrix.nodes(group)
            members = [op.task_id in nodes for op in unit.blocks]
            if any(members):
                reasons.append(f"a core inside area group {group.name!r}")
            if not all(members) and group.exclusive_placement:
                reasons.append(f"a core outside exclusive_placement area group {group.name!r}")
        raise PassFailedException(f"{ACTION}: no core suits {unit.describe()}: it needs {' and '.join(reasons)}")

    def connect(self) -> None:
        """Record every unit's neighbours: the units or pinned cores its nets reach."""
        places = self.matrix.places
        pair_bytes: dict[tuple[int, int, int], int] = {}
        for net in graph_nets(self.matrix.graph):
            ends = [self.end_of(block, places) for block in (net.source, net.destination)]
            if ends[0][0] == ends[1][0]:
                continue
            for (unit, _), (other, core) in ((ends[0], ends[1]), (ends[1], ends[0])):
                if unit < 0:
                    continue
                key = (unit, other, core)
                pair_bytes[key] = pair_bytes.get(key, 0) + net.nbytes
                self.units[unit].nets.append((net, other, core))
        for (unit, other, core), nbytes in pair_bytes.items():
            self.units[unit].neighbours.append((other, core, nbytes))

    def end_of(self, block: int, places: dict[int, Place]) -> tuple[int, int]:
        """(unit, -1) for a block being placed, (-1, core) for a placed one."""
        if block in self.unit_of:
            return self.unit_of[block], -1
        return -1, self.core_index[places[block].space]

    def plan_phases(self) -> None:
        """Give every compute unit a target phase: its depth, packed into the target's phases,
        but no earlier than the blocks it reads from and no later than the blocks that read
        from it, pinned ones included (see `phase_gap`)."""
        compute = [op for op in self.matrix.graph.tasks() if isinstance(op, task.ComputeBlock)]
        depth: dict[int, int] = {}
        for op in compute:
            self.producers[op.task_id] = producer_ids(op)
            self.consumers[op.task_id] = []
            for producer in self.producers[op.task_id]:
                self.consumers[producer].append(op.task_id)
            depth[op.task_id] = max((depth[p] + 1 for p in self.producers[op.task_id]), default=0)
        free = [u for u in self.units if u.kind in ("axon", "soma")]
        levels = max(depth.values(), default=0) + 1  # pinned blocks count: they take phases too
        phases = self.matrix.target.max_phases or levels
        counts = [int(n) for n in np.bincount([depth[u.head.task_id] for u in free], minlength=levels)]
        phase_of = list(range(levels)) if levels <= phases else pack_levels(counts, phases)
        self.phase_gap = 1 if levels <= phases else 0
        places = self.matrix.places
        planned = {task_id: place.phase for task_id, place in places.items() if task_id in depth}
        self.placed_phases = dict(planned)
        self.phase_limit = self.matrix.target.max_phases or max([levels, *planned.values()]) + len(self.units) + 1
        free_ids = [op.task_id for op in compute if op.task_id not in places]
        for task_id in free_ids:
            unit = self.units[self.unit_of[task_id]]
            lo, hi = self.phase_bounds(unit, planned, consumers=False)
            if lo > hi:
                raise PassFailedException(f"{ACTION}: {self.phase_conflict(unit, planned, 'planned for')}")
            unit.target_phase = planned[task_id] = min(max(phase_of[depth[task_id]], lo), hi)
        for task_id in reversed(free_ids):
            unit = self.units[self.unit_of[task_id]]
            _, hi = self.phase_bounds(unit, planned, producers=False)
            unit.target_phase = planned[task_id] = min(unit.target_phase, hi)
        for task_id in free_ids:
            unit = self.units[self.unit_of[task_id]]
            if not self.candidate_phases(unit, planned):
                raise PassFailedException(f"{ACTION}: {self.phase_conflict(unit, planned, 'planned for')}")

    def phase_bounds(
        self, unit: Unit, phases: dict[int, int], producers: bool = True, consumers: bool = True
    ) -> tuple[int, int]:
        """The phases a compute unit may take given the phases of the compute blocks it reads
        from and that read from it in its step (`phases`, by block); the target's limit."""
        lo, hi = 0, self.phase_limit - 1
        if unit.kind not in ("axon", "soma"):
            return lo, hi
        head = unit.head.task_id
        gap = self.phase_gap
        if producers:
            lo = max([lo] + [phases[p] + gap for p in self.producers[head] if self.same_step(p, unit, phases)])
        if consumers:
            hi = min([hi] + [phases[c] - gap for c in self.consumers[head] if self.same_step(c, unit, phases)])
        return lo, hi

    def same_step(self, task_id: int, unit: Unit, phases: dict[int, int]) -> bool:
        """Whether a compute block has a phase in `phases` and is in the unit's step."""
        if task_id not in phases:
            return False
        place = self.matrix.places.get(task_id)
        return (place.step if place is not None else self.units[self.unit_of[task_id]].step) == unit.step

    def phase_conflict(self, unit: Unit, phases: dict[int, int], placed: str = "placed in") -> str:
        """Why no phase suits a compute unit: the blocks it reads from, those that read from
        it, the pins of its input storage or the target's phases."""
        head, gap = unit.head.task_id, self.phase_gap
        lo, hi = self.phase_bounds(unit, phases)
        fixed = unit.fixed_phases or (lo,)
        reasons: list[str] = []
        after = [p for p in self.producers[head] if self.same_step(p, unit, phases) and phases[p] + gap == lo]
        if after and (lo > max(fixed) or lo > hi):
            reasons.append(f"after {self.describe_phase(after[0], phases, placed)}")
        if hi < min(fixed) or lo > hi:
            before = [c for c in self.consumers[head] if self.same_step(c, unit, phases) and phases[c] - gap == hi]
            if before:
                reasons.append(f"before {self.describe_phase(before[0], phases, placed)}")
            else:
                reasons.append(f"within {self.matrix.target.name}'s {self.phase_limit} phases")
        if unit.fixed_phases is not None:
            reasons.append(f"in a phase of its pinned input storage ({', '.join(map(str, unit.fixed_phases))})")
        order = "a later phase than" if gap else "no earlier phase than"
        return (
            f"no phase suits {describe(unit.head)}: it must run {' and '.join(reasons)}; a block runs in "
            f"{order} the blocks it reads from"
        )

    def describe_phase(self, task_id: int, phases: dict[int, int], placed: str) -> str:
        how = "pinned to" if task_id in self.matrix.places else placed
        return f"block {task_id} ({self.matrix.blocks[task_id].name}, {how} phase {phases[task_id]})"

    def candidate_phases(self, unit: Unit, phases: dict[int, int]) -> list[int]:
        """The phases to try for a unit, in order: its target phase, the later ones, then the
        earlier ones, within its bounds (`phases` of the blocks around it) and pins."""
        lo, hi = self.phase_bounds(unit, phases)
        allowed = [p for p in (unit.fixed_phases or range(lo, hi + 1)) if lo <= p <= hi]
        start = min(max(unit.target_phase, lo), hi)
        return [p for p in allowed if p >= start] + [p for p in reversed(allowed) if p < start]

    def neighbour_phase(self, unit: Unit, latest: bool) -> int:
        """The latest (or earliest) phase of the units and pinned blocks a unit talks to."""
        phases = [
            self.units[other].phase for other, _, _ in unit.neighbours if other >= 0 and self.units[other].phase >= 0
        ]
        places = self.matrix.places
        for net, other, _ in unit.nets:
            if other < 0:
                end = net.source if net.destination in (op.task_id for op in unit.blocks) else net.destination
                phases.append(places[end].phase)
        return max(phases, default=0) if latest else min(phases, default=0)

    def cost_vector(self, unit: Unit) -> np.ndarray:
        """Σ bytes × hops from every core to the unit's placed neighbours."""
        cost = np.zeros(len(self.cores))
        for other, core, nbytes in unit.neighbours:
            if other >= 0:
                core = self.units[other].core
            if core < 0:
                continue
            cost += nbytes * (np.abs(self.rows - self.rows[core]) + np.abs(self.columns - self.columns[core]))
        return cost

    def place_greedily(self, unit: Unit) -> None:
        allowed = self.masks[unit.index]
        phases = self.candidate_phases(unit, self.placed_phases)
        if not phases:
            raise PassFailedException(f"{ACTION}: {self.phase_conflict(unit, self.placed_phases)}")
        cost, penalty = self.cost_vector(unit), self.foreign_areas(unit)
        bad_routes = 0
        for phase in phases:
            layer = self.layer(unit.step, phase)
            feasible = np.flatnonzero(allowed & layer.stage_free(unit.kind) & (layer.memory >= unit.memory))
            if self.strategy == "greedy":
                feasible = feasible[np.lexsort((self.snake_rank[feasible], cost[feasible], penalty[feasible]))]
            for core in feasible:
                unit.core, unit.phase = int(core), phase
                if self.routes_ok(unit):
                    layer.take(unit, unit.core)
                    if unit.kind in ("axon", "soma"):
                        self.placed_phases[unit.head.task_id] = phase
                    return
                bad_routes += 1
            unit.core = unit.phase = -1
        raise PassFailedException(f"{ACTION}: {self.why_nothing_fits(unit, allowed, bad_routes)}")

    def why_nothing_fits(self, unit: Unit, allowed: np.ndarray, bad_routes: int) -> str:
        phases = self.candidate_phases(unit, self.placed_phases)
        capacity = max(self.mesh.capacity(self.cores[c]) for c in np.flatnonzero(allowed))
        what = f"{unit.describe()} needs {unit.memory} B of local memory"
        if unit.memory > capacity:
            return f"{what}, more than the {capacity} B a core holds; split it further"
        stage_full = memory_full = 0
        best = (-1, 0, 0)
        for phase in phases:
            layer = self.layer(unit.step, phase)
            free = allowed & layer.stage_free(unit.kind)
            stage_full += int((allowed & ~free).sum())
            memory_full += int((free & (layer.memory < unit.memory)).sum())
            if free.any():
                core = int(np.flatnonzero(free)[np.argmax(layer.memory[free])])
                best = max(best, (int(layer.memory[core]), core, phase))
        where = f"phase {phases[0]}" if len(phases) == 1 else f"phases {min(phases)} to {max(phases)}"
        stage = {"axon": "axon", "soma": "soma1 and soma2", "storage": "memory"}[unit.kind]
        text = (
            f"{what} but no allowed core has room in {where}: {stage} stage taken on "
            f"{stage_full} core-phases, too little free memory on {memory_full}"
        )
        room, core, phase = best
        if room >= 0:
            text += f" (at most {room} B free, core {format_space(self.cores[core])} phase {phase})"
        if bad_routes:
            text += f"; on {bad_routes} others its routes would break an area group's routing rules"
        return text

    def foreign_areas(self, unit: Unit) -> np.ndarray:
        """How many exclusive_routing areas of which the unit holds no node cover each core:
        other blocks may sit there, but their routes may then have no way out."""
        count = np.zeros(len(self.cores), dtype=np.int64)
        for group in self.route_groups:
            nodes = self.matrix.nodes(group)
            if group.exclusive_routing and not any(op.task_id in nodes for op in unit.blocks):
                count += self.inside[group.name]
        return count

    def routes_ok(self, unit: Unit) -> bool:
        """Whether the routes from a unit to its placed neighbours obey the area groups."""
        if not self.route_groups:
            return True
        for net, other, core in unit.nets:
            if other >= 0:
                core = self.units[other].core
            if core < 0:
                continue
            mine = self.cores[unit.core]
            ends = (mine, self.cores[core]) if self.unit_of.get(net.source) == unit.index else (self.cores[core], mine)
            path = self.mesh.xy_path(*ends)
            for group in self.route_groups:
                nodes = self.matrix.nodes(group)
                if group.route_problem(net.source in nodes, net.destination in nodes, path):
                    return False
        return True

    def unit_cost(self, unit: Unit) -> float:
        total = 0.0
        row, column = self.rows[unit.core], self.columns[unit.core]
        for other, core, nbytes in unit.neighbours:
            if other >= 0:
                core = self.units[other].core
            if core >= 0:
                total += nbytes * (abs(row - self.rows[core]) + abs(column - self.columns[core]))
        return total

    def anneal(self) -> None:
        """Moves and swaps of units within their phase: taken when the cost does not rise,
        with probability exp(−Δ/T) when it does (T falling linearly to 0); the best
        placement seen is kept."""
        movable = [u for u in self.units if u.kind != "io" and u.fixed_core is None and u.neighbours]
        if not movable or self.iterations <= 0:
            return
        choices = {u.index: np.flatnonzero(self.masks[u.index]) for u in movable}
        sizes = sorted(nbytes for u in movable for _, _, nbytes in u.neighbours)
        start_temperature = float(sizes[len(sizes) // 2])
        cost = best = 0.0
        best_cores = [u.core for u in movable]
        for iteration in range(self.iterations):
            unit = movable[self.rng.randrange(len(movable))]
            cores = choices[unit.index]
            target = int(cores[self.rng.randrange(len(cores))])
            if target == unit.core:
                continue
            cost += self.try_move(unit, target, start_temperature * (1 - iteration / self.iterations))
            if cost < best:
                best, best_cores = cost, [u.core for u in movable]
        for unit in movable:
            self.layer(unit.step, unit.phase).release(unit, unit.core)
        for unit, core in zip(movable, best_cores, strict=True):
            unit.core = core
            self.layer(unit.step, unit.phase).take(unit, core)

    def try_move(self, unit: Unit, target: int, temperature: float) -> float:
        """Move `unit` to `target` (swapping with the unit there) if the annealing accepts
        it; return the change of the total cost."""
        layer = self.layer(unit.step, unit.phase)
        partner = self.partner_at(unit, target, layer)
        if partner is False:
            return 0.0
        other = partner if isinstance(partner, Unit) else None
        source = unit.core
        if other is not None and (other.fixed_core is not None or not self.masks[other.index][source]):
            return 0.0
        free_target = layer.memory[target] + (other.memory if other else 0)
        free_source = layer.memory[source] + unit.memory
        if free_target < unit.memory or (other is not None and free_source < other.memory):
            return 0.0
        before = self.unit_cost(unit) + (self.unit_cost(other) if other else 0)
        self.relocate(layer, unit, other, source, target)
        delta = self.unit_cost(unit) + (self.unit_cost(other) if other else 0) - before
        legal = self.routes_ok(unit) and (other is None or self.routes_ok(other))
        accept = delta <= 0 or (temperature > 0 and self.rng.random() < math.exp(-delta / temperature))
        if legal and accept:
            return delta
        self.relocate(layer, unit, other, target, source)
        return 0.0

    def partner_at(self, unit: Unit, core: int, layer: Layer) -> Unit | None | bool:
        """None when the unit's stage is free at `core`, the unit to swap with when it is
        taken by a movable unit, False when it is taken by a pinned block."""
        if unit.kind == "storage" or layer.stage_free(unit.kind)[core]:
            return None
        occupants = [layer.axon[core]] if unit.kind == "axon" else list(layer.soma[core])
        occupant = occupants[self.rng.randrange(len(occupants))]
        return False if occupant < 0 else self.units[occupant]

    def relocate(self, layer: Layer, unit: Unit, other: Unit | None, source: int, target: int) -> None:
        """Move `unit` from `source` to `target` and `other`, if any, the other way."""
        layer.release(unit, source)
        if other is not None:
            layer.release(other, target)
            layer.take(other, source)
            other.core = source
        layer.take(unit, target)
        unit.core = target

    def place_io(self, unit: Unit) -> None:
        """A network input or output on the IO tile nearest its buffers, in their first
        (input) or last (output) phase."""
        is_input = isinstance(unit.head, task.InputOp)
        unit.phase = self.neighbour_phase(unit, latest=not is_input)
        stage = allowed_stages(unit.head)[0]
        allowed = np.flatnonzero(self.masks[unit.index])
        cost, penalty = self.cost_vector(unit), self.foreign_areas(unit)
        taken = {
            (u.core, u.phase, allowed_stages(u.head)[0])
            for u in self.units
            if u.kind == "io" and u.core >= 0 and u is not unit
        }
        busy = bad_routes = 0
        for core in allowed[np.lexsort((self.snake_rank[allowed], cost[allowed], penalty[allowed]))]:
            unit.core = int(core)
            space = self.cores[unit.core]
            if (unit.core, unit.phase, stage) in taken or (space, unit.step, unit.phase, stage) in self.matrix.slots:
                busy += 1
            elif self.routes_ok(unit):
                return
            else:
                bad_routes += 1
        raise PassFailedException(
            f"{ACTION}: no tile suits {unit.describe()} in phase {unit.phase}: of {len(allowed)} "
            f"allowed tiles, {busy} have their {stage.value} stage taken and on {bad_routes} its "
            "routes would break an area group's routing rules"
        )

    def commit(self) -> None:
        """Put every unit through the matrix, which checks all the rules again."""
        matrix = self.matrix
        for unit in self.units:
            space, phases = self.cores[unit.core], (unit.phase,)
            puts = [
                (op, Place(space, unit.step, phases, self.stage_for(op, space, unit.step, unit.phase)))
                for op in unit.blocks
            ]
            matrix.put(ACTION, puts)

    def stage_for(self, op: task.TaskOp, space: Space, step: int, phase: int) -> Stage:
        stages = allowed_stages(op)
        free = [s for s in stages if (space, step, phase, s) not in self.matrix.slots]
        return free[0] if free else stages[0]


def check_options(iterations: int, strategy: str) -> None:
    if strategy not in STRATEGIES:
        raise PassFailedException(f"{ACTION}: unknown strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")
    if iterations < 0:
        raise PassFailedException(f"{ACTION}: iterations={iterations}; the annealing takes 0 or more moves")


def producer_ids(op: task.ComputeBlock) -> list[int]:
    """The compute blocks whose results `op` reads through its input buffers, each once."""
    owners = dict.fromkeys(
        value.owner for storage in input_storage(op) if isinstance(storage, task.BufferOp) for value in storage.sources
    )
    return [owner.task_id for owner in owners if isinstance(owner, task.ComputeBlock)]


def pack_levels(counts: Sequence[int], phases: int) -> list[int]:
    """The phase of each depth when there are more depths than phases: consecutive depths
    share a phase until it holds its share of the units still to come, so no phase is
    skipped and the phases hold about as many units each.

    >>> pack_levels([4, 4, 1, 1, 1, 1], 3)
    [0, 1, 2, 2, 2, 2]
    """
    phase_of: list[int] = []
    phase = held = 0
    remaining = sum(counts)
    for count in counts:
        share = (held + remaining) / (phases - phase)
        if held and held + count / 2 > share and phase < phases - 1:
            phase, held = phase + 1, 0
        phase_of.append(phase)
        held += count
        remaining -= count
    return phase_of


def place(matrix: STMatrix, seed: int = 0, iterations: int = 20000, strategy: str = "greedy") -> None:
    """Place every unplaced block of the matrix's graph (see the module docstring)."""
    Placer(matrix, seed, iterations, strategy).run()
