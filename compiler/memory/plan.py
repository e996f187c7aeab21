"""
What a mapped task graph keeps in each core's local memory, and when: the regions that
`st-lmem-alloc` gives addresses and `isa-lower` reads and writes.

Time is the mapping's (step, phase), counted as one index `step · span + phase`. The
regions of a core:

- every storage block placed on it (weight, bias, table, activation buffer), dense, over
  the phases the mapping gives it (a result made in an earlier phase than its buffer's
  first waits in global memory: "spilled"; one made while the buffer is held is written
  into it in its own phase, so the writers of a concatenation fill it one after another);
- the result tile of every compute block placed on it, for the block's phase (and the
  next k, with `st.store_late` of distance k: its store to global memory runs then, beside that phase's
  compute; with `st.keep`, until the first phase of the last buffer first held later that
  takes a box of it, which it is sent or copied to then instead of through global
  memory), unless the result lands whole and contiguously in a buffer of the same core
  held as long, where the block then writes it directly ("in place"): a conv's result in
  the next relu's input buffer, a row band of a split conv in its output buffer; a conv
  or fc that applies its relu or lut (`applier`) writes the activation's result, and the
  buffer between them has no region;
- on an NC1HWC0 target, two staging areas (NCHW and NC1HWC0, `Nc1hwc0Geometry`) for each
  buffer that loads a network input, in its first phase, and for each buffer that stores a
  network output, in its last.

```mlir
%c = task.conv 4 %in, %w bias %b : tensor<1x16x16x16xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 0, axon)>}
%r = task.buffer 5 si %c : tensor<1x16x16x16xi8> {st.coord = #st.coord<(0, 0, 0, 0), (0, 0, memory)>}
```

Here the conv writes its result in place into buffer 5; had the buffer been held from
phase 1 on, the result would have waited in global memory (a tile for phase 0, a store,
and a load in phase 1).
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs
import numpy as np
from xdsl.ir import SSAValue
from xdsl.utils.exceptions import PassFailedException, VerifyException

from stc.compiler.targets.hardware import Coord, HardwareTarget
from stc.dialects import task
from stc.dialects.st import COORD, CoordAttr
from stc.dialects.st.local_memory import (
    KEEP,
    STAGING_ALIGNMENT,
    STORE_LATE,
    alignment_kind,
    late_phases,
    stores_directly,
)
from stc.dialects.task.base import element_width, task_id_of, tensor_bytes
from stc.dialects.task.compute import applied_on_the_way_out
from stc.dialects.task.stats import is_contiguous, offset_bytes
from stc.runtime.kernels.layout import Nc1hwc0Geometry

Piece = tuple[task.BufferOp, task.BoxAttr, tuple[int, ...]]
"""Where a result goes: a buffer, the box of the result it takes, where the box lands."""


@attrs.frozen
class Region:
    """Bytes a core holds for a while: a storage block, a result tile or a staging area."""

    key: tuple[int, str]
    """(task id of the owner, role): role is "storage", "result", "staging in" or "staging out"."""
    core: Coord
    size: int
    alignment: str
    """The target's alignment kind (activation, partial_sum, weight, bias) or "staging"."""
    start: int
    end: int
    label: str


def describe(op: task.TaskOp) -> str:
    return f"block {op.task_id} ({op.name})"


class MemoryPlan:
    """The local-memory regions of one mapped graph, and how results reach buffers."""

    def __init__(self, graph: task.GraphOp, target: HardwareTarget, pass_name: str):
        self.graph = graph
        self.target = target
        self.pass_name = pass_name
        self.blocks: dict[int, task.TaskOp] = {op.task_id: op for op in graph.tasks()}
        self.coords = {task_id: self.coord_of(op) for task_id, op in self.blocks.items()}
        self.places: dict[int, tuple[Coord, int, int, int]] = {}
        """(core, step, phase, last phase) of every block, read from its coordinate once."""
        for task_id, coord in self.coords.items():
            self.places[task_id] = place_of(coord)
        self.span = target.max_phases or 1 + max(last for _, _, _, last in self.places.values())
        self.sources: dict[int, list[tuple[SSAValue, task.BoxAttr, tuple[int, ...]]]] = {}
        """The pieces of every buffer (`BufferOp.pieces`), decoded once."""
        self.pieces: dict[int, list[Piece]] = {}
        """The buffer pieces each compute block or input fills, in graph order."""
        for op in self.blocks.values():
            if isinstance(op, task.BufferOp):
                self.sources[op.task_id] = op.pieces
                for value, box, offset in self.sources[op.task_id]:
                    self.pieces.setdefault(task_id_of(value.owner), []).append((op, box, offset))
        self.in_place = {
            task_id: piece for task_id, op in self.blocks.items() if (piece := self.in_place_piece(op)) is not None
        }
        """Compute blocks whose result is written straight into a piece of a buffer."""
        self.applied: dict[int, task.ReluOp | task.LutOp] = {}
        """Per conv or fc block, the relu or lut block it applies on the way out of the
        array (`applier`), on a target with `compute.fused_activation`."""
        if target.compute.fused_activation:
            for op in graph.tasks():
                if isinstance(op, task.ReluOp | task.LutOp) and (producer := self.applier(op)) is not None:
                    self.applied[producer.task_id] = op
        self.appliers = {op.task_id: self.blocks[conv] for conv, op in self.applied.items()}
        """Per relu or lut block so applied, the conv or fc block that applies it."""
        self.bypassed = {task_id_of(op.operands[0].owner) for op in self.applied.values()}
        """The buffers between a conv and the activation it applies: never written, no region."""
        self.direct_outputs = {
            task_id
            for task_id, op in self.blocks.items()
            if isinstance(op, task.BufferOp) and stores_directly(op, target)
        }
        """The buffers whose producers store their boxes straight into the network output
        the buffer stores, where they would wait in global memory for it (`stores_directly`):
        no region (a whole output of VGG-19's convolutions at batch 64, 1.6 MB, on no core)."""
        self.regions = list(self.make_regions())

    # --- Coordinates and time ---------------------------------------------------------

    def coord_of(self, op: task.TaskOp) -> CoordAttr:
        coord = op.attributes.get(COORD)
        if not isinstance(coord, CoordAttr):
            raise PassFailedException(
                f"{self.pass_name}: {describe(op)} of task.graph @{self.graph.graph_name} is not placed; "
                "run st-place (or st-apply) first"
            )
        chip_y, chip_x, _, _ = coord.space
        if (chip_y, chip_x) != (0, 0):
            raise PassFailedException(
                f"{self.pass_name}: {describe(op)} is on chip ({chip_y}, {chip_x}); "
                "programs are made for chip (0, 0) only"
            )
        return coord

    def read_coord(self, task_id: int) -> None:
        """Read a block's `st.coord` again, after its phases changed."""
        self.coords[task_id] = self.coord_of(self.blocks[task_id])
        self.places[task_id] = place_of(self.coords[task_id])

    def core(self, task_id: int) -> Coord:
        return self.places[task_id][0]

    def first(self, task_id: int) -> int:
        _, step, phase, _ = self.places[task_id]
        return step * self.span + phase

    def last(self, task_id: int) -> int:
        _, step, _, last = self.places[task_id]
        return step * self.span + last

    def stored(self, task_id: int) -> int:
        """When a compute block's result is stored to global memory, if it is ("spilled"),
        and until when it lives: its phase, or k later with `st.store_late` of distance k."""
        try:
            return self.first(task_id) + late_phases(self.blocks[task_id])
        except VerifyException as error:
            raise PassFailedException(f"{self.pass_name}: {error}") from error

    def kept(self, task_id: int) -> bool:
        """Whether a compute block's result stays on its core for the buffers first held
        after it (`st.keep`): they get it then over the NoC, not through global memory."""
        return KEEP in self.blocks[task_id].attributes

    def lives_until(self, task_id: int) -> int:
        """The last time a compute block's result lives on its core: when it is stored, or
        with `st.keep` the first time of the last buffer first held after it that takes it."""
        if not self.kept(task_id):
            return self.stored(task_id)
        made = self.first(task_id)
        return max([made, *(self.first(buffer.task_id) for buffer, _, _ in self.pieces.get(task_id, []))])

    def when(self, time: int) -> str:
        step, phase = divmod(time, self.span)
        return f"step {step}, phase {phase}" if step else f"phase {phase}"

    # --- Results ------------------------------------------------------------------------

    def in_place_piece(self, op: task.TaskOp) -> Piece | None:
        """The first buffer piece on the same core, held while the result lives, that takes
        the whole result as one run."""
        if not isinstance(op, task.ComputeBlock):
            return None
        for buffer, box, offset in self.pieces.get(op.task_id, []):
            if (
                self.core(buffer.task_id) == self.core(op.task_id)
                and not self.spilled(op.task_id, buffer)
                and self.last(buffer.task_id) >= self.lives_until(op.task_id)
                and takes_whole(op, (buffer, box, offset), self.target)
            ):
                return buffer, box, offset
        return None

    def applier(self, op: task.ReluOp | task.LutOp) -> task.ConvOp | task.FcOp | None:
        """The conv or fc that applies a relu or lut on its outputs' way out of the array,
        if one can: the relu or lut is one the array applies
        (`task.compute.applied_on_the_way_out`), its input buffer holds that conv's or fc's
        whole result alone, written in place on the same core in the same phase, and it is
        the buffer's only reader and the result's only destination. The conv then writes the
        activation's output tile and the buffer between them is never written.

            %4 = task.conv 4 %1, %2 bias %3 ... : tensor<1x8x8x32xi8>
            %6 = task.buffer 6 si %4 : tensor<1x8x8x32xi8>     // no region
            %7 = task.lut 7 %6, %5 : tensor<1x8x8x32xi8>       // conv 4 writes its output
        """
        if not applied_on_the_way_out(op):
            return None
        buffer = op.operands[0].owner
        if not isinstance(buffer, task.BufferOp) or len(self.sources[buffer.task_id]) != 1:
            return None
        producer = self.sources[buffer.task_id][0][0].owner
        if not isinstance(producer, task.ConvOp | task.FcOp) or producer.result.type != buffer.result.type:
            return None
        alone = [use.operation for use in producer.result.uses] == [buffer]
        only_reader = [use.operation for use in buffer.result.uses] == [op]
        in_place = self.in_place.get(producer.task_id, (None,))[0] is buffer
        same_core = self.core(producer.task_id) == self.core(op.task_id)
        same_phase = self.first(producer.task_id) == self.first(op.task_id)
        return producer if alone and only_reader and in_place and same_core and same_phase else None

    def result_home(self, task_id: int) -> tuple[tuple[int, str], int]:
        """The region a compute block's result lives in, and its byte offset there (a conv
        that applies an activation: the activation's)."""
        if (activation := self.applied.get(task_id)) is not None:
            return self.result_home(activation.task_id)
        if (piece := self.in_place.get(task_id)) is None:
            return (task_id, "result"), 0
        buffer, _, offset = piece
        return (buffer.task_id, "storage"), offset_bytes(buffer.result.type, offset)

    # --- Regions ------------------------------------------------------------------------

    def make_regions(self) -> Iterator[Region]:
        for task_id, op in self.blocks.items():
            yield from self.block_regions(task_id, op)

    def block_regions(self, task_id: int, op: task.TaskOp) -> Iterator[Region]:
        """The regions a block owns: its storage and staging, or its result tile."""
        if isinstance(op, task.InputOp | task.OutputOp):
            return  # network inputs and outputs stay in global memory
        if isinstance(op, task.StorageOp):
            if task_id in self.bypassed or task_id in self.direct_outputs:
                return
            yield self.storage_region(op)
            yield from self.staging_regions(op)
        elif isinstance(op, task.ComputeBlock) and task_id not in self.in_place:
            start, end = self.first(task_id), self.lives_until(task_id)
            size = tensor_bytes(op.result.type)
            label = f"{describe(op)} result, {size} B"
            yield Region((task_id, "result"), self.core(task_id), size, alignment_kind(op), start, end, label)

    def storage_region(self, op: task.StorageOp) -> Region:
        start, end = self.first(op.task_id), self.last(op.task_id)
        if isinstance(op, task.BufferOp):
            self.check_filled_in_time(op)
        size = tensor_bytes(op.results[0].type)
        label = f"{describe(op)}, {size} B"
        return Region((op.task_id, "storage"), self.core(op.task_id), size, alignment_kind(op), start, end, label)

    def check_filled_in_time(self, buffer: task.BufferOp) -> None:
        """Every producer of a buffer computes before the buffer's first reader and no later
        than its last phase: a producer before its first phase is spilled (and, when it stores
        late, stored before that phase), the others write it while it is held (several writers
        of a concatenation, in their own phases)."""
        readers = [
            self.first(use.operation.task_id)
            for use in buffer.result.uses
            if isinstance(use.operation, task.ComputeBlock)
        ]
        deadline = min([*readers, self.last(buffer.task_id)])
        for value, _, _ in self.sources[buffer.task_id]:
            producer = value.owner
            if not isinstance(producer, task.ComputeBlock):
                continue
            made, first = self.first(producer.task_id), self.first(buffer.task_id)
            if made < first <= (stored := self.stored(producer.task_id)):
                raise PassFailedException(
                    f"{self.pass_name}: {describe(producer)} stores its result late ({STORE_LATE}), in "
                    f"{self.when(stored)}, but {describe(buffer)} loads it from global memory in {self.when(first)}"
                )
            if made > deadline:
                why = "first read" if readers and deadline == min(readers) else "last held"
                raise PassFailedException(
                    f"{self.pass_name}: {describe(buffer)} is {why} in {self.when(deadline)}, but its producer "
                    f"{describe(producer)} computes in {self.when(made)}; a buffer is "
                    "filled while it is held, before its first reader"
                )

    def spilled(self, producer: int, buffer: task.BufferOp) -> bool:
        """Whether a result reaches a buffer through global memory: the buffer is first held
        in a later phase than the result is made, so the bytes wait in global memory."""
        return self.first(producer) < self.first(buffer.task_id)

    def staging_regions(self, op: task.StorageOp) -> Iterator[Region]:
        """NC1HWC0 staging for a buffer that loads a network input or stores an output."""
        if self.target.activation_layout.kind != "nc1hwc0" or not isinstance(op, task.BufferOp):
            return
        core = self.core(op.task_id)
        loaded = [box for value, box, _ in self.sources[op.task_id] if isinstance(value.owner, task.InputOp)]
        if loaded:
            size = max(staging_bytes(box.shape) for box in loaded)
            time = self.first(op.task_id)
            label = f"{describe(op)} input staging, {size} B"
            yield Region((op.task_id, "staging in"), core, size, "staging", time, time, label)
        stores_output = any(isinstance(use.operation, task.OutputOp) for use in op.result.uses)
        if stores_output and element_width(op.result.type) == 8:
            size = staging_bytes(tuple(op.result.type.get_shape()))
            time = self.last(op.task_id)
            label = f"{describe(op)} output staging, {size} B"
            yield Region((op.task_id, "staging out"), core, size, "staging", time, time, label)

    def apart(self) -> dict[tuple[int, str], set[tuple[int, str]]]:
        """For each compute block's output region, its input regions (better in other banks)."""
        apart: dict[tuple[int, str], set[tuple[int, str]]] = {}
        for task_id, op in self.blocks.items():
            if not isinstance(op, task.ComputeBlock) or task_id in self.appliers:
                continue
            output, _ = self.result_home(task_id)
            inputs = {(task_id_of(operand.owner), "storage") for operand in op.operands}
            apart.setdefault(output, set()).update(inputs)
            for key in inputs:
                apart.setdefault(key, set()).add(output)
        return apart


def place_of(coord: CoordAttr) -> tuple[Coord, int, int, int]:
    """(core, step, phase, last phase) of a coordinate, as plain integers."""
    _, _, y, x = coord.space
    return (y, x), coord.step, coord.phase, coord.last_phase


def takes_whole(op: task.ComputeBlock, piece: Piece, target: HardwareTarget) -> bool:
    """Whether a buffer piece takes a compute block's whole result as one run at an address
    aligned for it, so that the block may write its result there ("in place")."""
    buffer, box, offset = piece
    shape = tuple(op.result.type.get_shape())
    alignment = getattr(target.local_memory.alignment_bytes, alignment_kind(op))
    return (
        box.lo == (0,) * len(shape)
        and box.shape == shape
        and buffer.result.type.get_element_type() == op.result.type.get_element_type()
        and is_contiguous(shape, tuple(buffer.result.type.get_shape()))
        and offset_bytes(buffer.result.type, offset) % alignment == 0
    )


def staging_bytes(nhwc: tuple[int, ...]) -> int:
    """Bytes of the two staging areas (NCHW, NC1HWC0) of an int8 NHWC box, each whole 32-byte blocks."""
    n, h, w, c = nhwc
    one = Nc1hwc0Geometry.from_nchw((n, c, h, w), np.int8).staging_bytes
    return 2 * -(-one // STAGING_ALIGNMENT) * STAGING_ALIGNMENT
