"""
`isa-lower`: a placed, routed and allocated task graph becomes one `isa.program`.

- Global memory holds the network inputs and outputs in NCHW, as users hold them, and
  one `isa.data` per distinct weight, bias or table box.
- Each core loads, in the first phase a block lives, its weights, biases and tables and
  the input boxes its buffers take (strided DMA to NHWC, or through NC1HWC0 staging with
  `vec_trans_scatter` on NC1HWC0 targets).
- A compute block runs on its allocated tiles; right after it, its result fills every
  buffer piece that takes it in the same phase: in place (nothing to do), by `isa.copy`
  on the same core, or over the NoC: one strided `isa.send` per distinct box of the
  result, to every other core whose buffer takes that box (a multicast along the XY tree),
  and an `isa.recv` on each. A buffer
  first held in a later phase gets its box from global memory, where the result is
  stored once ("spilled") right after it is made.
- A buffer read by a network output is stored back in NCHW in the last phase it lives.
- A load into a block no compute of its phase reads (a prefetch: weights hoisted a phase
  early, a layer group's input loaded while the slice before it computes) follows the
  phase's other loads and precedes its first store: where DMA overlaps compute it runs
  beside the phase's compute, which waits only for the loads it reads. So does the store
  of a result marked `st.store_late`, made in the phase before (a layer group's output
  stored while the next slice computes).

Within a phase every core's instructions follow the graph's order, so a receive always
comes after its send in one global order and no phase can deadlock. A receive into a
buffer that only later phases read waits at the end of its core's phase instead, so that
it never holds up the core's own computing and sending (in graph order, a core receiving
one piece from each of 128 cores before its own send made a chain of 128 transfers). The (step, phase)
pairs the mapping uses become the program's phases, in order; where they are more than
the target's `max_phases`, the program runs them in steps of `max_phases` phases.

```mlir
isa.program @tiny target "tianjicx" {
  isa.input "image" : tensor<1x3x16x16xi8> at 0 as nchw
  isa.core (0, 0) {
    isa.dma_load sizes [1, 16, 16, 3] from global 0 strides [768, 16, 1, 256] to local 0
    isa.conv 0 : tensor<1x16x16x3xi8>, 4096 : tensor<16x3x3x3xi8> bias 4864 : tensor<16xi32>
        -> 5296 : tensor<1x16x16x16xi8> pad [1, 1, 1, 1] shift 10
    ...
```
"""

from __future__ import annotations

import itertools
from collections import defaultdict

import attrs
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, TensorType
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.lowering.boxes import Box, nchw_box, nhwc_box
from stc.compiler.lowering.layout import load_through_nc1hwc0, store_through_nc1hwc0
from stc.compiler.lowering.shared_loads import BoxLoad, SharedLoad, shared_box_loads, shared_loads
from stc.compiler.memory.plan import MemoryPlan, describe
from stc.compiler.targets.hardware import Coord, HardwareTarget
from stc.dialects import isa, task
from stc.dialects.st import ADDRESS, COORD, ROUTES, STAGING_IN, STAGING_OUT
from stc.dialects.task.base import element_width
from stc.dialects.task.stats import tensor_bytes

GLOBAL_ALIGNMENT = 64
"""Where global regions start: no target requires it; it keeps DMA boxes round."""

INSTRUCTIONS: dict[type[task.ComputeBlock], type[isa.ComputeInstruction]] = {
    task.ConvOp: isa.ConvOp,
    task.FcOp: isa.FcOp,
    task.AvgPoolOp: isa.AvgPoolOp,
    task.MaxPoolOp: isa.MaxPoolOp,
    task.ReluOp: isa.ReluOp,
    task.LutOp: isa.LutOp,
    task.AddOp: isa.AddOp,
    task.MulOp: isa.MulOp,
}


def nchw_type(typ: TensorType) -> TensorType:
    n, h, w, c = typ.get_shape()
    return TensorType(typ.get_element_type(), (n, c, h, w))


class GraphLowering:
    """Builds the program of one graph: global memory first, then each core's phases."""

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
        """The global address of each network input (by task id) and data box (by reference)."""
        self.code: dict[Coord, dict[int, list[Operation]]] = defaultdict(lambda: defaultdict(list))
        self.late: dict[Coord, dict[int, list[Operation]]] = defaultdict(lambda: defaultdict(list))
        """Receives at the end of a core's phase: into buffers only later phases read."""
        self.beside: dict[Coord, dict[int, list[Operation]]] = defaultdict(lambda: defaultdict(list))
        """DMA no compute of the phase waits for, nor waits for a compute of it, before the
        phase's first store: loads into blocks only later phases read, late stores."""
        self.tags = itertools.count()
        self.shared: dict[int, SharedLoad] = {}
        """The data blocks whose load is shared (multicast loads), by task id."""
        self.shared_boxes: dict[BoxLoad, SharedLoad] = {}
        """The boxes buffers load from global memory whose load is shared (multicast loads)."""

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

    def take_global(self, nbytes: int) -> int:
        address = -(-self.global_end // GLOBAL_ALIGNMENT) * GLOBAL_ALIGNMENT
        self.global_end = address + nbytes
        return address

    # --- The program ------------------------------------------------------------------

    def lower(self) -> isa.ProgramOp:
        self.declare_globals()
        if self.target.global_memory.multicast_loads:
            self.shared = shared_loads(self.graph, self.plan, self.read_later, self.tags)
            if not self.staged:
                self.shared_boxes = shared_box_loads(self.graph, self.plan, self.read_later, self.tags)
        for op in self.graph.tasks():
            if isinstance(op, task.WeightOp | task.BiasOp | task.TableOp):
                self.load_data(op)
            elif isinstance(op, task.BufferOp):
                self.load_inputs(op)
            elif isinstance(op, task.ComputeBlock):
                self.compute(op)
        for op in self.graph.outputs():
            self.store_output(op)
        cores = self.cores()
        return isa.ProgramOp(self.graph.graph_name, self.target_name, [*self.declarations, *cores], self.steps())

    def declare_globals(self) -> None:
        for op in self.graph.inputs():
            typ = nchw_type(op.result.type)
            address = self.take_global(tensor_bytes(typ))
            self.global_at[op.task_id] = address
            self.declarations.append(isa.InputOp(op.input_name.data, typ, address, isa.GlobalLayout.NCHW))
        for op in self.graph.outputs():
            typ = nchw_type(op.source.type)  # pyright: ignore[reportArgumentType]
            address = self.take_global(tensor_bytes(typ))
            self.global_at[op.task_id] = address
            self.declarations.append(isa.OutputOp(op.output_name.data, typ, address, isa.GlobalLayout.NCHW))

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
                body += ops[:store] + self.beside[coord].get(time, []) + ops[store:] + self.late[coord].get(time, [])
                body.append(isa.SyncOp(phase))
            cores.append(isa.CoreOp(coord, body))
        return cores

    def steps(self) -> int:
        """Steps of the target's `max_phases` phases the program's phases take."""
        phases = len({time for phases in self.code.values() for time in phases})
        limit = self.target.max_phases
        return 1 if limit is None else max(1, -(-phases // limit))

    def emit(self, task_id: int, time: int, *ops: Operation) -> None:
        self.code[self.plan.core(task_id)][time].extend(ops)

    def emit_load(self, block: task.StorageOp, *ops: Operation) -> None:
        """Load into a storage block in its first phase: with the phase's other loads, or as
        a prefetch when only compute blocks of later phases read it."""
        time, core = self.plan.first(block.task_id), self.plan.core(block.task_id)
        if self.read_later(block, time):
            self.emit_beside(core, time, *ops)
        else:
            self.emit(block.task_id, time, *ops)

    def emit_beside(self, core: Coord, time: int, *ops: Operation) -> None:
        """DMA that runs beside the compute of its phase (`beside`)."""
        self.code[core].setdefault(time, [])  # the phase holds this core's instructions, if only these
        self.beside[core][time].extend(ops)

    # --- Loads and stores ---------------------------------------------------------------

    def load_data(self, op: task.WeightOp | task.BiasOp | task.TableOp) -> None:
        """One `isa.data` per distinct box, loaded in the first phase the block lives; on a
        target with `multicast_loads`, once for all the cores that load it in that phase
        (`shared_loads`): the first of them in graph order loads it with `isa.dma_multicast`
        to the others, which receive it where they would have loaded it (a prefetch: at the
        end of their phase)."""
        key = (op.data, op.full_type, op.box)
        nbytes = tensor_bytes(op.result.type)
        if key not in self.global_at:
            self.global_at[key] = address = self.take_global(nbytes)
            self.declarations.append(isa.DataOp(op.data, op.full_type, address, op.box))
        share = self.shared.get(op.task_id)
        if share is None:
            self.emit_load(op, isa.DmaLoadOp([nbytes], self.global_at[key], self.local(op)))
        elif share.loader == op.task_id:
            multicast = isa.DmaMulticastOp([nbytes], self.global_at[key], self.local(op), share.receivers, share.tag)
            self.emit_load(op, multicast)
        else:
            recv = isa.RecvOp(nbytes, self.local(op), share.source, share.tag)
            self.emit_receive(op, self.plan.core(op.task_id), self.plan.first(op.task_id), recv)

    def load_inputs(self, buffer: task.BufferOp) -> None:
        """The boxes of network inputs a buffer takes, at the start of its first phase."""
        for value, box, offset in self.plan.sources[buffer.task_id]:
            source = value.owner
            if not isinstance(source, task.InputOp):
                continue
            shape = nchw_type(source.result.type).get_shape()
            global_box = nchw_box(self.global_at[source.task_id], shape, 1, box.lo, box.shape)
            tile = self.buffer_box(buffer, offset, box.shape)
            if self.staged:
                self.emit_load(buffer, *load_through_nc1hwc0(global_box, self.local(buffer, STAGING_IN), tile))
            else:
                self.load_box(buffer, (buffer.task_id, source.task_id, box), global_box, tile)

    def store_output(self, output: task.OutputOp) -> None:
        buffer = output.source.owner
        assert isinstance(buffer, task.BufferOp)
        shape = tuple(buffer.result.type.get_shape())
        tile = self.buffer_box(buffer, (0,) * len(shape), shape)
        typ = nchw_type(buffer.result.type)
        itemsize = element_width(typ) // 8  # pyright: ignore[reportOptionalOperand]
        destination = nchw_box(self.global_at[output.task_id], typ.get_shape(), itemsize, (0,) * len(shape), shape)
        if itemsize > 1:  # the bytes of each element are the innermost dimension on both sides
            tile = Box(tile.address, (*shape, itemsize), (*tile.strides[:-1], itemsize, 1))
        if self.staged and itemsize == 1:
            ops = store_through_nc1hwc0(tile, self.local(buffer, STAGING_OUT), destination)
        else:
            ops = [isa.DmaStoreOp(tile.sizes, destination.address, tile.address, destination.strides, tile.strides)]
        self.emit(buffer.task_id, self.plan.last(buffer.task_id), *ops)

    def buffer_box(self, buffer: task.BufferOp, offset: tuple[int, ...], extent: tuple[int, ...]) -> Box:
        typ = buffer.result.type
        itemsize = element_width(typ) // 8  # pyright: ignore[reportOptionalOperand]
        return nhwc_box(self.local(buffer), typ.get_shape(), itemsize, offset, extent)

    # --- Compute and the results' way to buffers ----------------------------------------

    def compute(self, op: task.ComputeBlock) -> None:
        time = self.plan.first(op.task_id)
        self.emit(op.task_id, time, self.instruction(op))
        fills = []
        for buffer, box, offset in self.plan.pieces.get(op.task_id, []):
            if self.plan.in_place.get(op.task_id) == (buffer, box, offset):
                continue
            if self.plan.spilled(op.task_id, buffer):
                self.reload(op, buffer, box, offset)
            else:
                fills.append(self.filling(op, buffer, box, offset))
        self.fill(op, fills, time)

    def spill(self, op: task.ComputeBlock) -> int:
        """Store a result to global memory once, right after it is made, or beside the next
        phase's compute with `st.store_late`; its address there."""
        if op.task_id in self.global_at:
            return self.global_at[op.task_id]
        nbytes = tensor_bytes(op.result.type)
        self.global_at[op.task_id] = address = self.take_global(nbytes)
        store = isa.DmaStoreOp([nbytes], address, self.local(op))
        if (time := self.plan.stored(op.task_id)) > self.plan.first(op.task_id):
            self.emit_beside(self.plan.core(op.task_id), time, store)
        else:
            self.emit(op.task_id, time, store)
        return address

    def reload(self, op: task.ComputeBlock, buffer: task.BufferOp, box: task.BoxAttr, offset: tuple[int, ...]) -> None:
        """Load a spilled box of a result into a buffer, in the buffer's first phase."""
        typ = op.result.type
        itemsize = element_width(typ) // 8  # pyright: ignore[reportOptionalOperand]
        source = nhwc_box(self.spill(op), typ.get_shape(), itemsize, box.lo, box.shape)
        self.load_box(buffer, (buffer.task_id, op.task_id, box), source, self.buffer_box(buffer, offset, box.shape))

    def load_box(self, buffer: task.BufferOp, load: BoxLoad, source: Box, destination: Box) -> None:
        """Load a box from global memory into a buffer in its first phase; on a target with
        `multicast_loads`, once for all the buffers that load it in that phase
        (`shared_box_loads`): the first loads it with `isa.dma_multicast`, the others
        receive it into their own box."""
        share = self.shared_boxes.get(load)
        if share is None:
            sizes = destination.sizes
            op = isa.DmaLoadOp(sizes, source.address, destination.address, source.strides, destination.strides)
            self.emit_load(buffer, op)
        elif share.loader == buffer.task_id:
            receivers, tag = share.receivers, share.tag
            op = isa.DmaMulticastOp(
                destination.sizes,
                source.address,
                destination.address,
                receivers,
                tag,
                source.strides,
                destination.strides,
            )
            self.emit_load(buffer, op)
        else:
            recv = isa.RecvOp(destination.sizes, destination.address, share.source, share.tag, destination.strides)
            self.emit_receive(buffer, self.plan.core(buffer.task_id), self.plan.first(buffer.task_id), recv)

    def instruction(self, op: task.ComputeBlock) -> isa.ComputeInstruction:
        kind = INSTRUCTIONS[type(op)]
        inputs: list[isa.TileAttr] = []
        bias: isa.TileAttr | None = None
        for operand in op.operands:
            block = operand.owner
            assert isinstance(block, task.StorageOp)
            if isinstance(block, task.BiasOp):
                bias = self.tile(block)
            else:
                inputs.append(self.tile(block))
        if bias is not None and not kind.HAS_BIAS:
            raise PassFailedException(f"{self.pass_name}: {describe(op)} has a bias, which {kind.name} does not take")
        clauses = {name: self.clause(op.properties[name]) for name in kind.CLAUSES if name in op.properties}
        return kind(inputs, self.tile(op), bias, **clauses)

    @staticmethod
    def clause(value: Attribute) -> int | tuple[int, ...]:
        if isinstance(value, IntegerAttr):
            return value.value.data
        return isa.ints(value)

    def filling(self, op: task.ComputeBlock, buffer: task.BufferOp, box: task.BoxAttr, offset: tuple[int, ...]) -> Fill:
        """Where the box of `op`'s result comes from and goes to in one buffer."""
        typ = op.result.type
        itemsize = element_width(typ) // 8  # pyright: ignore[reportOptionalOperand]
        source = nhwc_box(self.local(op), typ.get_shape(), itemsize, box.lo, box.shape)
        return Fill(buffer, source, self.buffer_box(buffer, offset, box.shape), self.plan.core(buffer.task_id))

    def fill(self, op: task.ComputeBlock, fills: list[Fill], time: int) -> None:
        """Move boxes of `op`'s result into their buffers, in order: a local copy on the
        same core; to other cores, one multicast send per distinct source box, to every
        core that takes that box (`multicasts`), each with its own receive."""
        sender = self.plan.core(op.task_id)
        groups = multicasts(fills, sender)
        for index, each in enumerate(fills):
            source = each.source
            if each.core == sender:
                target = each.destination
                copy = isa.CopyOp(source.sizes, source.address, target.address, source.strides, target.strides)
                self.emit(op.task_id, time, copy)
            elif index in groups:
                tag = next(self.tags)
                cores = [member.core for member in groups[index]]
                self.emit(op.task_id, time, isa.SendOp(source.sizes, source.address, cores, tag, source.strides))
                for member in groups[index]:
                    self.receive(member, sender, tag, time)

    def receive(self, fill: Fill, sender: Coord, tag: int, time: int) -> None:
        destination = fill.destination
        recv = isa.RecvOp(destination.sizes, destination.address, sender, tag, destination.strides)
        self.emit_receive(fill.buffer, fill.core, time, recv)

    def emit_receive(self, block: task.StorageOp, core: Coord, time: int, recv: isa.RecvOp) -> None:
        """A receive into `block`: with the phase's code, or at the end of the core's phase
        when only later phases read the block (`late`)."""
        if not self.read_later(block, time):
            self.emit(block.task_id, time, recv)
            return
        self.code[core].setdefault(time, [])  # the phase holds this core's instructions, if only these
        self.late[core][time].append(recv)

    def read_later(self, buffer: task.StorageOp, time: int) -> bool:
        """Whether only compute blocks of later phases read the block."""
        return all(
            isinstance(use.operation, task.ComputeBlock) and self.plan.first(use.operation.task_id) > time
            for use in buffer.result.uses
        )


@attrs.frozen
class Fill:
    """A box of a result that goes into a buffer: from where, to where, on which core."""

    buffer: task.BufferOp
    source: Box
    destination: Box
    core: Coord


def multicasts(fills: list[Fill], sender: Coord) -> dict[int, list[Fill]]:
    """The fills to cores other than `sender` grouped into sends: those that take the same
    source box go together, one fill per core (a second fill of the same box on a core
    starts another send). Keyed by the index of each send's first fill."""
    open_groups: dict[Box, list[list[Fill]]] = defaultdict(list)
    groups: dict[int, list[Fill]] = {}
    for index, each in enumerate(fills):
        if each.core == sender:
            continue
        group = next((g for g in open_groups[each.source] if all(m.core != each.core for m in g)), None)
        if group is None:
            group = groups[index] = []
            open_groups[each.source].append(group)
        group.append(each)
    return groups


def lower_graph(graph: task.GraphOp, target: HardwareTarget, target_name: str) -> isa.ProgramOp:
    """The `isa.program` of a placed, routed and allocated graph."""
    check_routed(graph, "isa-lower")
    return GraphLowering(graph, target, target_name).lower()


def check_routed(graph: task.GraphOp, pass_name: str) -> None:
    """Every block is placed (st-place ran) and every block that receives data carries its
    routes (st-route ran); the first block that is not names the pass to run."""
    for op in graph.tasks():
        if COORD not in op.attributes:
            raise PassFailedException(
                f"{pass_name}: {describe(op)} of task.graph @{graph.graph_name} is not placed; run st-place first"
            )
    for op in graph.tasks():
        if isinstance(op, task.BufferOp | task.OutputOp) and ROUTES not in op.attributes:
            raise PassFailedException(
                f"{pass_name}: {describe(op)} of task.graph @{graph.graph_name} has no {ROUTES}; run st-route first"
            )
