"""
What a report shows, measured: the network's per-core programs run on the machine with a
trace of every instruction, the instructions grouped into layers, and the blocks of each
core's local memory over the phases.

A mapped graph (placed, routed, allocated) is lowered here with the same `isa-lower`
code, recording which block each instruction was emitted for; its layers are the
graph's layers before splitting (`LayerNames`: the pieces of a split layer, with the add
of its partial sums), and its memory blocks are the memory plan's regions at their `st.addr`.
An `isa.program` keeps no blocks: its rows are the instruction kinds, and its memory
blocks the tiles its instructions touch.

    measured = measure_module(module, base_dir, seed=0)
    measured.layers[0].macs, measured.machine.core_phase_cycles[(0, 0)]
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

import attrs
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from stc.compiler.diagnostics import StcError
from stc.compiler.lowering.program import GraphLowering, check_routed
from stc.compiler.mapping.actions import apply_mapping, mapping_target
from stc.compiler.mapping.matrix import STMatrix
from stc.compiler.memory.lmem import ADDRESS, STAGING
from stc.compiler.targets.cost_units import Work, energy_pj
from stc.compiler.targets.hardware import Coord, HardwareTarget
from stc.dialects import isa, task
from stc.dialects.isa.access import Access
from stc.dialects.st import MappingOp
from stc.runtime.data import DataStore
from stc.runtime.inputs import completed_inputs
from stc.runtime.machine import Executed, Machine, input_shapes


@attrs.frozen
class MemoryBlock:
    """Bytes [address, address + size) of a core's local memory, held from phase `first` to `last`."""

    core: Coord
    first: int
    last: int
    address: int
    size: int
    kind: str
    """What the bytes hold: a storage kind of the target (activation, partial_sum, weight,
    bias), staging, or how an isa instruction addresses them."""
    label: str


@attrs.define
class Layer:
    """A row of the per-layer table: what the instructions of a group of blocks did."""

    name: str
    blocks: set[int] = attrs.field(factory=set)
    cores: set[Coord] = attrs.field(factory=set)
    phases: set[int] = attrs.field(factory=set)
    cycles: int = 0
    work: Work = attrs.field(factory=Work)
    sent_bytes: int = 0

    @property
    def macs(self) -> int:
        return self.work.macs


@attrs.frozen
class Measured:
    """A program as the machine ran it, with its layers and memory blocks."""

    name: str
    target: HardwareTarget
    machine: Machine
    layers: list[Layer]
    memory: list[MemoryBlock]
    matrix: STMatrix | None
    """The mapping, when the report was made from a mapped graph."""
    seed: int
    """The seed of the random inputs the machine ran on."""

    def energy_pj(self, layer: Layer) -> float:
        return energy_pj(self.target, layer.work)["total"]


class TracedLowering(GraphLowering):
    """`isa-lower`'s lowering, remembering the block each instruction was emitted for."""

    def __init__(self, graph: task.GraphOp, target: HardwareTarget, target_name: str):
        super().__init__(graph, target, target_name)
        self.emitted_for: dict[int, int] = {}
        """id() of each instruction → the task id it was emitted for."""

    def place(
        self, where: dict[Coord, dict[int, list[Operation]]], task_id: int, time: int, ops: tuple[Operation, ...]
    ) -> None:
        super().place(where, task_id, time, ops)
        self.emitted_for.update((id(op), task_id) for op in ops)


def measure_module(module: ModuleOp, base_dir: Path | None = None, seed: int = 0) -> Measured:
    """Run the module's network (mapped graph or isa program) and measure it; see the module docstring."""
    programs = [op for op in module.ops if isinstance(op, isa.ProgramOp)]
    mappings = [op for op in module.ops if isinstance(op, MappingOp)]
    graphs = [op for op in module.ops if isinstance(op, task.GraphOp)]
    if not programs and not mappings and graphs:
        raise StcError(
            f"task.graph @{graphs[0].graph_name} has no st.mapping; a report needs a mapped graph "
            "(run st-place, st-route and st-lmem-alloc) or an isa program (stc-pipeline)"
        )
    if len(programs) + len(mappings) != 1:
        raise StcError(
            f"expected one mapped task graph or one isa.program, found {len(mappings)} st.mapping and "
            f"{len(programs)} isa.program"
        )
    if programs:
        return measure_program(programs[0], base_dir, seed)
    return measure_mapping(mappings[0], base_dir, seed)


def run_traced(program: isa.ProgramOp, base_dir: Path | None, seed: int) -> Machine:
    machine = Machine(program, DataStore(base_dir), trace=True)
    machine.run(completed_inputs(input_shapes(program), {}, seed))
    return machine


def measure_mapping(mapping: MappingOp, base_dir: Path | None, seed: int) -> Measured:
    graph = mapping.find_graph()
    if graph is None:
        raise StcError(f"st.mapping @{mapping.graph_name} has no task.graph @{mapping.graph_name}")
    target = mapping_target(mapping)
    check_routed(graph, "isa-lower")
    lowering = TracedLowering(graph, target, mapping.target_name)
    program = lowering.lower()
    machine = run_traced(program, base_dir, seed)
    blocks = {op.task_id: op for op in graph.tasks()}
    layer_of = LayerNames(blocks)
    layers: dict[str, Layer] = {}
    for executed in machine.trace or []:
        task_id = lowering.emitted_for[id(executed.op)]
        name = layer_of.name(blocks[task_id])
        layer = layers.setdefault(name, Layer(name))
        count(layer, executed)
        layer.blocks.add(task_id)
    times = sorted({time for phases in lowering.code.values() for time in phases})
    memory = [
        MemoryBlock(
            region.core,
            phase_of(times, region.start),
            phase_of(times, region.end),
            lowering.local(blocks[region.key[0]], STAGING.get(region.key[1], ADDRESS)),
            region.size,
            region.alignment,
            region.label,
        )
        for region in lowering.plan.regions
    ]
    return Measured(
        graph.graph_name, target, machine, ordered(layers.values(), blocks), memory, apply_mapping(mapping), seed
    )


def measure_program(program: isa.ProgramOp, base_dir: Path | None, seed: int) -> Measured:
    machine = run_traced(program, base_dir, seed)
    layers: dict[str, Layer] = {}
    for executed in machine.trace or []:
        name = executed.op.name
        count(layers.setdefault(name, Layer(name)), executed)
    return Measured(program.program_name, machine.target, machine, list(layers.values()), touched(program), None, seed)


def count(layer: Layer, executed: Executed) -> None:
    layer.cores.add(executed.coord)
    layer.phases.add(executed.phase)
    layer.cycles += executed.cycles
    layer.work += executed.work
    if isinstance(executed.op, isa.SendOp):
        layer.sent_bytes += executed.op.byte_count


def ordered(layers: Iterable[Layer], blocks: dict[int, task.TaskOp]) -> list[Layer]:
    """Layers in graph order: by the position of their first compute block."""
    order = {task_id: position for position, task_id in enumerate(blocks)}
    return sorted(layers, key=lambda layer: min(order[task_id] for task_id in layer.blocks))


def phase_of(times: list[int], time: int) -> int:
    """The program phase of a mapping time (step · span + phase)."""
    return min(bisect_left(times, time), max(len(times) - 1, 0))


class LayerNames:
    """
    The layer a block belongs to, named after its first compute block in graph order. The
    pieces of a split conv or fc share their weight tensor (each holds a box of the same
    reference), and the add of a reduction split's partial sums belongs to them. The pieces
    of other splits are blocks of one kind that read what the same layers made, or that
    fill a common buffer. Storage blocks belong to the layer that reads them (the network's
    output buffers to the layer that fills them).
    """

    def __init__(self, blocks: dict[int, task.TaskOp]):
        self.order = {task_id: position for position, task_id in enumerate(blocks)}
        self.root: dict[int, int] = {}
        first_of: dict[object, int] = {}
        compute = [op for op in blocks.values() if isinstance(op, task.ComputeBlock)]
        for op in compute:  # in graph order: producers come before their readers
            self.root[op.task_id] = op.task_id
            weight = op.weight.owner if isinstance(op, task.ConvOp | task.FcOp) else None
            if isinstance(weight, task.WeightOp):
                self.join(op.task_id, first_of.setdefault((weight.data, weight.full_type), op.task_id))
                continue
            if isinstance(op, task.AddOp) and (pieces := partial_sum_producers(op)):
                self.join(op.task_id, pieces[0].task_id)
                continue
            sources = frozenset(self.find(producer.task_id) for producer in input_producers(op))
            self.join(op.task_id, first_of.setdefault((op.name, sources), op.task_id))
            for buffer in destinations(op):
                self.join(op.task_id, first_of.setdefault((op.name, buffer.task_id), op.task_id))
        self.names: dict[int, str] = {}
        for op in compute:
            self.names.setdefault(self.find(op.task_id), layer_name(op))

    def find(self, task_id: int) -> int:
        while self.root[task_id] != task_id:
            self.root[task_id] = task_id = self.root[self.root[task_id]]
        return task_id

    def join(self, task_id: int, other: int) -> None:
        first, second = sorted((self.find(task_id), self.find(other)), key=self.order.__getitem__)
        self.root[second] = first

    def name(self, op: task.TaskOp) -> str:
        if isinstance(op, task.ComputeBlock):
            return self.names[self.find(op.task_id)]
        readers = [use.operation for use in op.results[0].uses if isinstance(use.operation, task.ComputeBlock)]
        if readers:
            return self.name(readers[0])
        if isinstance(op, task.BufferOp):
            producers = [value.owner for value, _, _ in op.pieces if isinstance(value.owner, task.ComputeBlock)]
            if producers:
                return self.name(producers[0])
        return "network inputs and outputs"


def layer_name(op: task.ComputeBlock) -> str:
    """`conv 12 (16×5×5×6)`: the kind and id of the layer's first block, and a conv's or fc's whole weight shape."""
    name = f"{op.name.removeprefix('task.')} {op.task_id}"
    weight = op.weight.owner if isinstance(op, task.ConvOp | task.FcOp) else None
    if isinstance(weight, task.WeightOp):
        name += f" ({'×'.join(map(str, weight.full_type.get_shape()))})"
    return name


def input_producers(op: task.ComputeBlock) -> list[task.ComputeBlock]:
    """The compute blocks that fill the buffers `op` reads."""
    return [
        value.owner
        for operand in op.operands
        if isinstance(buffer := operand.owner, task.BufferOp)
        for value, _, _ in buffer.pieces
        if isinstance(value.owner, task.ComputeBlock)
    ]


def destinations(op: task.ComputeBlock) -> list[task.BufferOp]:
    return [use.operation for use in op.result.uses if isinstance(use.operation, task.BufferOp)]


def partial_sum_producers(add: task.AddOp) -> list[task.ComputeBlock]:
    """The conv or fc pieces whose int32 partial sums an add sums (a reduction split), if any."""
    producers = input_producers(add)
    partial = [
        op
        for op in producers
        if isinstance(op, task.ConvOp | task.FcOp) and op.result.type.get_element_type().width.data == 32
    ]
    return partial if partial and len(partial) == len(producers) else []


def touched(program: isa.ProgramOp) -> list[MemoryBlock]:
    """The local-memory ranges a program's instructions touch, each over the run of
    consecutive phases it is touched in."""
    seen: dict[tuple[Coord, int, int], list[int]] = defaultdict(list)
    first_access: dict[tuple[Coord, int, int], Access] = {}
    for core in program.cores():
        for phase, _, op in core.numbered_instructions():
            for access in op.local_accesses():
                key = (core.coord, access.start, access.size)
                first_access.setdefault(key, access)
                if not seen[key] or seen[key][-1] != phase:
                    seen[key].append(phase)
    return [
        MemoryBlock(coord, first, last, start, size, access.alignment, f"{access.role} at {start}, {size} B")
        for (coord, start, size), phases in seen.items()
        for access in [first_access[(coord, start, size)]]
        for first, last in consecutive_runs(phases)
    ]


def consecutive_runs(phases: list[int]) -> list[tuple[int, int]]:
    """The runs of consecutive numbers of an ascending list: [0, 1, 2, 5] → [(0, 2), (5, 5)]."""
    starts = [p for i, p in enumerate(phases) if i == 0 or phases[i - 1] != p - 1]
    ends = [p for i, p in enumerate(phases) if i == len(phases) - 1 or phases[i + 1] != p + 1]
    return list(zip(starts, ends, strict=True))
