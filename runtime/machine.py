"""
The many-core machine: runs an `isa` program on its target, bit-exactly, and counts the
cycles, NoC traffic, DRAM traffic and energy it takes with the target's unit costs
(stc.compiler.targets.cost_units).

    outputs, counters = run_isa_module(module, {"x": x_nchw})

Memories are numpy byte arrays: one global memory, and one local memory per core, all
zero at the start. Instructions view them as int8/int32 tensors. Phases run in order;
within a phase every core runs its instructions in order, and a receive waits until
its send has run, so cores are interleaved only where data flows between them.

Each core keeps a clock per phase. An instruction advances it by its cycles (on a target
whose DMA overlaps compute, DMA runs on a clock of its own: `runtime/core.py`); a send
occupies the sender while it injects its bytes once, and its data arrives at each
destination ⌈bytes / link bandwidth⌉ + hops × hop latency cycles after the send started
(a multicast send's bytes cross each link of its XY multicast tree once); a receive waits
for that arrival. A phase lasts as long as its slowest core, and at least as long
as the global-memory bytes all cores move in it take at the global-memory bandwidth (the
chip's ports are shared); the program lasts as long as its phases together. DMA bytes
cross the mesh between the core and its port (`HardwareTarget.dram_port`) and count as NoC
hop-bytes.

What a compute instruction does and costs is `runtime/compute_steps.py`; the bounds-checked
views of memory instructions read and write are `runtime/views.py`.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import numpy as np
from xdsl.dialects.builtin import ModuleOp

from stc.compiler.diagnostics import StcError
from stc.compiler.references import referenced_target
from stc.compiler.targets.cost_units import (
    Work,
    copy_cycles,
    core_buffer_counters,
    dma_cycles,
    energy_pj,
    link_cycles,
    noc_cycles,
)
from stc.compiler.targets.hardware import Coord, HardwareTarget, Link
from stc.dialects import isa, task
from stc.dialects.isa.vec_trans_scatter_rules import VecTransScatterError
from stc.runtime.compute_steps import COMPUTE_STEPS, Step
from stc.runtime.core import Core
from stc.runtime.data import DataStore
from stc.runtime.from_ops import data_block
from stc.runtime.inputs import Arrays, check_int8_inputs, completed_inputs, random_int8_inputs
from stc.runtime.kernels.vec_trans_scatter import vec_trans_scatter
from stc.runtime.views import global_extent, strided_view

TASK_DATA_OPS: dict[str, type[task.DataOp]] = {
    "weight": task.WeightOp,
    "bias": task.BiasOp,
    "table": task.TableOp,
}
"""The task block that holds each kind of data: DataStore loads an `isa.data` as one."""


def holds_program(module: ModuleOp) -> bool:
    return any(isinstance(op, isa.ProgramOp) for op in module.ops)


def find_program(module: ModuleOp) -> isa.ProgramOp:
    programs = [op for op in module.ops if isinstance(op, isa.ProgramOp)]
    if len(programs) != 1:
        raise StcError(f"expected one isa.program in the module, found {len(programs)}")
    return programs[0]


def input_shapes(program: isa.ProgramOp) -> dict[str, tuple[int, ...]]:
    """The NCHW shape of each input, in declaration order."""
    return {op.tensor_name.data: op.nchw_shape for op in program.inputs()}


def random_inputs(program: isa.ProgramOp, seed: int) -> Arrays:
    """Uniform int8 NCHW inputs drawn in declaration order from one generator, as the
    golden executor draws a task graph's inputs."""
    return random_int8_inputs(input_shapes(program), seed)


def run_isa_module(
    module: ModuleOp,
    inputs: Mapping[str, np.ndarray] | None = None,
    seed: int = 0,
    base_dir: Path | None = None,
    data_dirs: Sequence[Path] = (),
) -> tuple[Arrays, dict[str, Any]]:
    """Run the module's isa program; inputs and outputs are NCHW arrays by name, inputs
    not given are drawn from `seed`. Returns the outputs and the machine's counters."""
    program = find_program(module)
    feeds = completed_inputs(input_shapes(program), inputs or {}, seed)
    machine = Machine(program, DataStore(base_dir, data_dirs))
    outputs = machine.run(feeds)
    return outputs, machine.counters()


@attrs.frozen
class Executed:
    """One instruction as the machine ran it: where, when, how long and what it did."""

    coord: Coord
    phase: int
    op: isa.Instruction
    start: int
    """The cycle of the phase at which it began (a receive: when its data had arrived)."""
    cycles: int
    work: Work


@attrs.frozen
class Message:
    """Bytes in flight from a send to its receives, one per destination."""

    sender: str
    payload: np.ndarray
    arrivals: dict[Coord, int]
    """The cycle of the phase at which the last byte reaches each destination not yet
    received."""


class Machine:
    """One run of a program: memories, clocks, messages and counters; with `trace`, also
    every instruction as it ran (`Executed`), for reports."""

    def __init__(self, program: isa.ProgramOp, data: DataStore, trace: bool = False):
        self.program = program
        self.target: HardwareTarget = referenced_target(
            program.target.data, f"isa.program @{program.sym_name.data}", data.roots
        )
        self.data = data
        self.instructions = {core.coord: core.numbered_instructions() for core in program.cores()}
        """(phase, position, instruction) of every instruction of each core."""
        self.global_memory = np.zeros(global_extent(program, self.instructions), np.uint8)
        self.cores = {coord: self.core(coord) for coord in self.instructions}
        self.port_hops = {coord: self.target.hops(coord, self.target.dram_port(coord)) for coord in self.cores}
        """NoC hops between each core and its global-memory port."""
        self.work = Work()
        self.phase_cycles: list[int] = []
        self.core_phase_cycles: dict[Coord, list[int]] = {coord: [] for coord in self.cores}
        """Busy cycles of each core in each phase."""
        self.noc_bytes = 0
        self.link_bytes: Counter[Link] = Counter()
        """Bytes each NoC link carried, over the whole run."""
        self.trace: list[Executed] | None = [] if trace else None
        self.mailbox: dict[int, Message] = {}
        self.handlers: dict[type[isa.Instruction], Callable[[Core, Any, str], Step]] = {
            isa.DmaLoadOp: self.dma,
            isa.DmaStoreOp: self.dma,
            isa.DmaMulticastOp: self.dma_multicast,
            isa.SendOp: self.send,
            isa.RecvOp: self.recv,
            isa.CopyOp: self.copy,
            isa.VecTransScatterOp: self.vec_trans_scatter,
        } | dict.fromkeys(COMPUTE_STEPS, self.compute)

    def core(self, coord: Coord) -> Core:
        """A core whose zeroed local memory covers what its instructions touch: memory
        that is never touched is never allocated, which saves zeroing megabytes per run."""
        capacity = isa.local_capacity(self.target, coord)
        ends = [access.end for _, _, instruction in self.instructions[coord] for access in instruction.local_accesses()]
        memory = np.zeros(min(max(ends, default=0), capacity), np.uint8)
        return Core(coord, capacity, memory, overlap=self.target.global_memory.dma_overlaps_compute)

    def run(self, inputs: Mapping[str, np.ndarray]) -> Arrays:
        check_inputs(self.program, inputs)
        self.write_inputs(inputs)
        self.write_data()
        phases: dict[int, dict[Coord, deque[tuple[int, isa.Instruction]]]] = {}
        for coord, instructions in self.instructions.items():
            for phase, index, op in instructions:
                phases.setdefault(phase, {}).setdefault(coord, deque()).append((index, op))
        for phase in range(self.program.phase_count()):
            queues = phases.pop(phase, {})
            self.run_phase(phase, {coord: queues.get(coord, deque()) for coord in self.instructions})
        return self.read_outputs()

    def counters(self) -> dict[str, Any]:
        cycles = sum(self.phase_cycles)
        return {
            "target": self.target.name,
            "phases": len(self.phase_cycles),
            "cycles": cycles,
            "phase_cycles": self.phase_cycles,
            "core_cycles": {f"{y},{x}": core.busy_cycles for (y, x), core in sorted(self.cores.items())},
            "time_us": cycles / self.target.compute.frequency_mhz,
            "macs": self.work.macs,
            "local_read_bytes": self.work.local_read_bytes,
            "local_write_bytes": self.work.local_write_bytes,
            "dram_bytes": self.work.dram_bytes,
            "dram_read_bytes": self.work.dram_read_bytes,
            "dram_write_bytes": self.work.dram_write_bytes,
            "noc_bytes": self.noc_bytes,
            "noc_hop_bytes": self.work.noc_hop_bytes,
            "noc_max_link_bytes": max(self.link_bytes.values(), default=0),
            **core_buffer_counters(self.target, self.work),
            "energy_pj": energy_pj(self.target, self.work),
        }

    # --- Phases ---------------------------------------------------------------------

    def run_phase(self, phase: int, queues: dict[Coord, deque[tuple[int, isa.Instruction]]]) -> None:
        for core in self.cores.values():
            core.start_phase()
        dram_before = self.work.dram_bytes
        busy_before = {coord: core.busy_cycles for coord, core in self.cores.items()}
        while any(queues.values()):
            if self.advance(phase, queues):
                continue
            coord, queue = next((coord, queue) for coord, queue in queues.items() if queue)
            index, op = queue[0]
            assert isinstance(op, isa.RecvOp)
            raise StcError(
                f"{isa.where(coord, phase, index, op)}: waits for tag {op.tag_value} from "
                f"{isa.format_coord(op.peer_coord)}, but no core sends it before waiting itself"
            )
        if self.mailbox:
            tag, message = next(iter(self.mailbox.items()))
            raise StcError(f"{message.sender}: tag {tag} is sent but never received in phase {phase}")
        slowest = max((core.phase_cycles for core in self.cores.values()), default=0)
        self.phase_cycles.append(max(slowest, dma_cycles(self.target, self.work.dram_bytes - dram_before)))
        for coord, core in self.cores.items():
            self.core_phase_cycles[coord].append(core.busy_cycles - busy_before[coord])

    def advance(self, phase: int, queues: dict[Coord, deque[tuple[int, isa.Instruction]]]) -> bool:
        """Run each core until it ends the phase or waits for data that has not been
        sent; whether any instruction ran."""
        progressed = False
        for coord, queue in queues.items():
            core = self.cores[coord]
            while queue:
                index, op = queue[0]
                if isinstance(op, isa.RecvOp) and op.tag_value not in self.mailbox:
                    break
                queue.popleft()
                core.wait(op)
                cycles, work = self.handlers[type(op)](core, op, isa.where(coord, phase, index, op))
                if self.trace is not None:
                    self.trace.append(Executed(coord, phase, op, core.now(op), cycles, work))
                core.finish(op, cycles)
                self.work += work
                progressed = True
        return progressed

    # --- Memories -------------------------------------------------------------------

    def write_inputs(self, inputs: Mapping[str, np.ndarray]) -> None:
        for op in self.program.inputs():
            array = inputs[op.tensor_name.data].astype(np.int8)
            stored = array.transpose(0, 2, 3, 1) if op.layout.data == isa.GlobalLayout.NHWC else array
            self.global_memory[op.start : op.start + op.nbytes] = stored.reshape(-1).view(np.uint8)

    def write_data(self) -> None:
        for op in self.program.data():
            assert op.kind is not None
            try:
                block = self.data.block(data_block(TASK_DATA_OPS[op.kind].name, 0, op.data, op.full_type, op.box))
            except StcError as error:
                raise StcError(f"isa.data at {op.start}: {error}") from None
            raw = np.ascontiguousarray(block).reshape(-1).view(np.uint8)
            self.global_memory[op.start : op.start + raw.size] = raw

    def read_outputs(self) -> Arrays:
        outputs: Arrays = {}
        for op in self.program.outputs():
            dtype = np.int8 if op.itemsize == 1 else np.int32
            raw = self.global_memory[op.start : op.start + op.nbytes].view(dtype).reshape(op.stored_shape)
            nchw = raw.transpose(0, 3, 1, 2) if op.layout.data == isa.GlobalLayout.NHWC else raw
            outputs[op.tensor_name.data] = np.ascontiguousarray(nchw)
        return outputs

    def compute(self, core: Core, op: isa.ComputeInstruction, site: str) -> Step:
        """A compute instruction's step (`runtime/compute_steps.py`) on the machine's target."""
        return COMPUTE_STEPS[type(op)](self.target, core, op, site)

    # --- Data movement ----------------------------------------------------------------

    def dma(self, core: Core, op: isa.DmaOp, site: str) -> Step:
        sizes = isa.ints(op.sizes)
        memories = {"global": (self.global_memory, self.global_memory.size), "local": (core.memory, core.capacity)}
        source, destination = (
            strided_view(*memories[memory], site, memory, *op.side(memory), sizes) for memory in op.memory_order()
        )
        destination[...] = source
        nbytes = source.size
        hop_bytes = nbytes * self.port_hops[core.coord]
        work = (
            Work(local_write_bytes=nbytes, dram_read_bytes=nbytes, noc_hop_bytes=hop_bytes)
            if op.FROM_GLOBAL
            else Work(local_read_bytes=nbytes, dram_write_bytes=nbytes, noc_hop_bytes=hop_bytes)
        )
        return dma_cycles(self.target, nbytes), work

    def dma_multicast(self, core: Core, op: isa.DmaMulticastOp, site: str) -> Step:
        """Load the box once and deliver it to the other cores too: it travels the XY
        multicast tree from the loading core's port to the loading core and each destination
        (each link carrying it once), and reaches a destination when the load ends plus its
        hops from the port × hop latency, where its `isa.recv` takes it."""
        if op.tag_value in self.mailbox:
            raise StcError(f"{site}: tag {op.tag_value} is already in flight from {self.mailbox[op.tag_value].sender}")
        if (idle := next((d for d in op.destinations if d not in self.cores), None)) is not None:
            raise StcError(f"{site}: sends to {isa.format_coord(idle)}, which runs no program")
        cycles, work = self.dma(core, op, site)
        nbytes = op.byte_count
        port = self.target.dram_port(core.coord)
        routes = {d: self.target.xy_route(port, d) for d in (core.coord, *op.destinations)}
        tree = {link for route in routes.values() for link in route}
        self.link_bytes.update({link: nbytes for link in tree})
        address, strides = op.side("local")
        payload = strided_view(core.memory, core.capacity, site, "local", address, strides, isa.ints(op.sizes))
        done = core.now(op) + cycles
        hop = self.target.noc.hop_latency_cycles
        arrivals = {d: done + len(routes[d]) * hop for d in op.destinations}
        self.mailbox[op.tag_value] = Message(site, payload.copy().reshape(-1), arrivals)
        return cycles, attrs.evolve(work, noc_hop_bytes=nbytes * len(tree))

    def send(self, core: Core, op: isa.SendOp, site: str) -> Step:
        """Inject the box once; it travels the XY multicast tree (the union of the XY routes
        to the destinations, each link carrying it once) and reaches each destination
        ⌈bytes / link bandwidth⌉ + its hops × hop latency after the send started."""
        if op.tag_value in self.mailbox:
            raise StcError(f"{site}: tag {op.tag_value} is already in flight from {self.mailbox[op.tag_value].sender}")
        if (idle := next((d for d in op.destinations if d not in self.cores), None)) is not None:
            raise StcError(f"{site}: sends to {isa.format_coord(idle)}, which runs no program")
        nbytes = op.byte_count
        payload = self.transfer_box(core, op, site).copy()
        routes = {destination: self.target.xy_route(core.coord, destination) for destination in op.destinations}
        tree = {link for route in routes.values() for link in route}
        self.link_bytes.update({link: nbytes for link in tree})
        self.noc_bytes += nbytes
        arrivals = {d: core.clock + noc_cycles(self.target, nbytes, len(route)) for d, route in routes.items()}
        self.mailbox[op.tag_value] = Message(site, payload.reshape(-1), arrivals)
        return link_cycles(self.target, nbytes), Work(local_read_bytes=nbytes, noc_hop_bytes=nbytes * len(tree))

    def recv(self, core: Core, op: isa.RecvOp, site: str) -> Step:
        message = self.mailbox[op.tag_value]
        if core.coord not in message.arrivals:
            raise StcError(f"{site}: receives tag {op.tag_value}, which {message.sender} does not send to this core")
        if message.payload.size != op.byte_count:
            raise StcError(
                f"{site}: receives {op.byte_count} bytes with tag {op.tag_value}, but "
                f"{message.sender} sent {message.payload.size}"
            )
        arrival = message.arrivals.pop(core.coord)
        if not message.arrivals:
            del self.mailbox[op.tag_value]
        box = self.transfer_box(core, op, site)
        box[...] = message.payload.reshape(box.shape)
        core.clock = max(core.clock, arrival)
        return 0, Work(local_write_bytes=op.byte_count)

    def transfer_box(self, core: Core, op: isa.TransferOp, site: str) -> np.ndarray:
        sizes, strides = op.box
        return strided_view(core.memory, core.capacity, site, "local", op.local_address, strides, sizes)

    def copy(self, core: Core, op: isa.CopyOp, site: str) -> Step:
        sizes = isa.ints(op.sizes)
        source, destination = (
            strided_view(core.memory, core.capacity, site, "local", *op.side(which), sizes)
            for which in ("source", "destination")
        )
        destination[...] = source.copy() if np.may_share_memory(source, destination) else source
        nbytes = op.byte_count
        return copy_cycles(self.target, nbytes), Work(local_read_bytes=nbytes, local_write_bytes=nbytes)

    def vec_trans_scatter(self, core: Core, op: isa.VecTransScatterOp, site: str) -> Step:
        dtype = op.dtype
        memory = core.memory[: core.memory.size // dtype.itemsize * dtype.itemsize].view(dtype)
        try:
            dst_list, src_list = ([a // dtype.itemsize for a in op.lane_addresses(side)] for side in ("dst", "src"))
            vec_trans_scatter(
                memory,
                memory,
                op.dst_high_half is not None,
                op.src_high_half is not None,
                dst_list,
                src_list,
                op.repeats,
                *op.strides,
            )
        except VecTransScatterError as error:
            raise StcError(f"{site}: {error}") from None
        moved = op.moved_bytes()
        return copy_cycles(self.target, moved), Work(local_read_bytes=moved, local_write_bytes=moved)


def check_inputs(program: isa.ProgramOp, inputs: Mapping[str, np.ndarray]) -> None:
    check_int8_inputs(f"isa.program @{program.program_name}", input_shapes(program), inputs)
