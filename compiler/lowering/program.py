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
  stored once ("spilled") right after it is made; or, when the block is marked `st.keep`,
  its result stays in its core's local memory and fills the buffer in the buffer's first
  phase, sent or copied as above.
- A buffer read by a network output is stored back in NCHW in the last phase it lives;
  where it takes every box from global memory (`MemoryPlan.direct_outputs`), each result
  is stored straight to its place in the output instead, and the buffer holds nothing.
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

from collections import Counter, defaultdict

import attrs
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.heap import collection_paused
from stc.compiler.lowering.boxes import Box
from stc.compiler.lowering.global_memory import GlobalMemory
from stc.compiler.lowering.shared_loads import shared_box_loads, shared_loads
from stc.compiler.memory.plan import describe
from stc.compiler.targets.core_dataflow import chosen
from stc.compiler.targets.hardware import Coord, HardwareTarget
from stc.dialects import isa, task
from stc.dialects.integers import i64_array
from stc.dialects.st import COORD, ROUTES

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


class GraphLowering(GlobalMemory):
    """Builds the program of one graph: global memory first, then each core's phases."""

    # --- The program ------------------------------------------------------------------

    def lower(self) -> isa.ProgramOp:
        self.declare_globals()
        if self.target.global_memory.shares_loads:
            self.shared = shared_loads(self.graph, self.plan, self.read_later, self.tags)
            if not self.staged:
                self.shared_boxes = shared_box_loads(self.graph, self.plan, self.frames, self.read_later, self.tags)
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

    # --- Compute and the results' way to buffers ----------------------------------------

    def compute(self, op: task.ComputeBlock) -> None:
        """The block's instruction (a conv that applies its relu or lut where that one's
        would be: after the lut's table is loaded), then its result's fills."""
        time = self.plan.first(op.task_id)
        if (applier := self.plan.appliers.get(op.task_id)) is not None:
            self.emit(op.task_id, time, self.instruction(applier, self.plan.applied[applier.task_id]))
        elif op.task_id not in self.plan.applied:
            self.emit(op.task_id, time, self.instruction(op))
        fills: dict[int, list[Fill]] = defaultdict(list)
        for buffer, box, offset in self.plan.pieces.get(op.task_id, []):
            if self.plan.in_place.get(op.task_id) == (buffer, box, offset):
                continue
            if buffer.task_id in self.plan.direct_outputs:
                self.store_into_output(op, buffer, box, offset)
            elif self.plan.spilled(op.task_id, buffer) and not self.plan.kept(op.task_id):
                self.reload(op, buffer, box, offset)
            else:
                fills[max(time, self.plan.first(buffer.task_id))].append(self.filling(op, buffer, box, offset))
        for when, group in sorted(fills.items()):
            self.fill(op, group, when)

    def instruction(
        self, op: task.ComputeBlock, activation: task.ReluOp | task.LutOp | None = None
    ) -> isa.ComputeInstruction:
        """`op`'s instruction; with `activation`, applying it and writing its output tile."""
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
        instruction = kind(inputs, self.tile(activation or op), bias, **clauses)
        if isinstance(activation, task.ReluOp):
            instruction.properties["relu"] = activation.cmp
        elif isinstance(activation, task.LutOp):
            instruction.properties["table"] = self.tile(activation.operands[1].owner)  # pyright: ignore[reportArgumentType]
        return self.with_dataflow(instruction)

    def with_dataflow(self, instruction: isa.ComputeInstruction) -> isa.ComputeInstruction:
        """A conv or fc with its cheapest dataflow through the core's buffers written as its
        `dataflow` clause, where that is not the target's default (`core_dataflow.fitting`)."""
        buffers = self.target.core_buffers
        if buffers is None or "dataflow" not in instruction.CLAUSES:
            return instruction
        if flow := chosen(buffers, *instruction.core_work_shape()):
            instruction.properties["dataflow"] = i64_array(flow.clause)
        return instruction

    @staticmethod
    def clause(value: Attribute) -> int | tuple[int, ...]:
        if isinstance(value, IntegerAttr):
            return value.value.data
        return isa.ints(value)

    def filling(self, op: task.ComputeBlock, buffer: task.BufferOp, box: task.BoxAttr, offset: tuple[int, ...]) -> Fill:
        """Where the box of `op`'s result comes from and goes to in one buffer."""
        extent = box.shape
        source = self.buffer_box(op, box.lo, extent)
        return Fill(buffer, source, self.buffer_box(buffer, offset, extent), self.plan.core(buffer.task_id))

    def fill(self, op: task.ComputeBlock, fills: list[Fill], time: int) -> None:
        """Move boxes of `op`'s result into their buffers, in order: a local copy on the
        same core; to other cores, one multicast send per distinct source box, to every
        core that takes that box (`multicasts`), each with its own receive. A result kept
        from an earlier phase (`st.keep`) is sent and copied at the start of the phase."""
        sender = self.plan.core(op.task_id)
        groups = multicasts(fills, sender)
        emit = self.emit if time == self.plan.first(op.task_id) else self.emit_head
        for index, each in enumerate(fills):
            source = each.source
            if each.core == sender:
                target = each.destination
                copy = isa.CopyOp(source.sizes, source.address, target.address, source.strides, target.strides)
                emit(op.task_id, time, copy)
            elif index in groups:
                tag = next(self.tags)
                cores = [member.core for member in groups[index]]
                emit(op.task_id, time, isa.SendOp(source.sizes, source.address, cores, tag, source.strides))
                for member in groups[index]:
                    self.receive(member, sender, tag, time)

    def receive(self, fill: Fill, sender: Coord, tag: int, time: int) -> None:
        destination = fill.destination
        recv = isa.RecvOp(destination.sizes, destination.address, sender, tag, destination.strides)
        self.emit_receive(fill.buffer, time, recv)


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
    starts another send). Keyed by the index of each send's first fill. A core's n-th fill
    of a box joins the box's n-th send: its earlier fills are in the sends before it and
    only its own fills put it in one."""
    sends: dict[Box, list[list[Fill]]] = defaultdict(list)
    taken: Counter[tuple[Box, Coord]] = Counter()
    groups: dict[int, list[Fill]] = {}
    for index, each in enumerate(fills):
        if each.core == sender:
            continue
        same, nth = sends[each.source], taken[each.source, each.core]
        taken[each.source, each.core] += 1
        if nth == len(same):
            same.append(groups.setdefault(index, []))
        same[nth].append(each)
    return groups


def lower_graph(graph: task.GraphOp, target: HardwareTarget, target_name: str) -> isa.ProgramOp:
    """The `isa.program` of a placed, routed and allocated graph (built with the collector
    paused: a searched ResNet-18 on tianjicx has 200,000 instructions)."""
    check_routed(graph, "isa-lower")
    with collection_paused():
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
