"""
Global memory in `isa-lower`: its regions (network inputs and outputs in NCHW, one
`isa.data` per distinct data box, spilled results) and the DMA between it and the cores'
local memories: data blocks, input boxes, output stores, spills and their reloads, shared
by multicast on targets with `multicast_loads`, or relayed by the core that loads them
with `relay_loads` (`isa.dma_load`, then `isa.send`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType

from stc.compiler.lowering.boxes import Box, nchw_box, nhwc_box, strided_box
from stc.compiler.lowering.layout import load_through_nc1hwc0, store_through_nc1hwc0
from stc.compiler.lowering.phases import PhaseCode
from stc.compiler.lowering.shared_loads import BoxLoad, SharedLoad
from stc.dialects import isa, task
from stc.dialects.st import STAGING_IN, STAGING_OUT
from stc.dialects.task.base import element_width
from stc.dialects.task.stats import row_major_strides, tensor_bytes

GLOBAL_ALIGNMENT = 64
"""Where global regions start: no target requires it; it keeps DMA boxes round."""


def nchw_type(typ: TensorType) -> TensorType:
    n, h, w, c = typ.get_shape()
    return TensorType(typ.get_element_type(), (n, c, h, w))


class GlobalMemory(PhaseCode):
    """The global memory of one graph's program, and the DMA to and from it."""

    def take_global(self, nbytes: int) -> int:
        address = -(-self.global_end // GLOBAL_ALIGNMENT) * GLOBAL_ALIGNMENT
        self.global_end = address + nbytes
        return address

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

    # --- Loads and stores ---------------------------------------------------------------

    def load_data(self, op: task.WeightOp | task.BiasOp | task.TableOp) -> None:
        """One `isa.data` per distinct box, loaded in the first phase the block lives; on a
        target that shares loads, once for all the cores that load it in that phase
        (`shared_loads`): the first of them in graph order loads it for the others
        (`load_shared`), which receive it where they would have loaded it (a prefetch: at
        the end of their phase)."""
        key = (op.data, op.full_type, op.box)
        nbytes = tensor_bytes(op.result.type)
        if key not in self.global_at:
            self.global_at[key] = address = self.take_global(nbytes)
            self.declarations.append(isa.DataOp(op.data, op.full_type, address, op.box))
        self.load_shared(op, self.shared.get(op.task_id), [nbytes], self.global_at[key], self.local(op))

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
        """Store the buffer of a network output in NCHW in its last phase (unless its
        producers store their boxes straight into the output: `store_into_output`)."""
        buffer = output.source.owner
        assert isinstance(buffer, task.BufferOp)
        if buffer.task_id in self.plan.direct_outputs:
            return
        shape = tuple(buffer.result.type.get_shape())
        tile, destination, itemsize = self.output_boxes(output, buffer, (0,) * len(shape), shape, (0,) * len(shape))
        if self.staged and itemsize == 1:
            ops = store_through_nc1hwc0(tile, self.local(buffer, STAGING_OUT), destination)
        else:
            ops = [isa.DmaStoreOp(tile.sizes, destination.address, tile.address, destination.strides, tile.strides)]
        self.emit(buffer.task_id, self.plan.last(buffer.task_id), *ops)

    def store_into_output(
        self, op: task.ComputeBlock, buffer: task.BufferOp, box: task.BoxAttr, offset: Sequence[int]
    ) -> None:
        """Store a result's box of a buffer of `MemoryPlan.direct_outputs` straight to its
        place in the network output, when it would have been spilled: right after it is
        made, or beside the next phase's compute with `st.store_late`."""
        output = next(use.operation for use in buffer.result.uses)
        assert isinstance(output, task.OutputOp)
        tile, destination, _ = self.output_boxes(output, op, box.lo, box.shape, offset)
        self.emit_store(
            op, isa.DmaStoreOp(tile.sizes, destination.address, tile.address, destination.strides, tile.strides)
        )

    def output_boxes(
        self, output: task.OutputOp, block: task.TaskOp, lo: Sequence[int], extent: Sequence[int], at: Sequence[int]
    ) -> tuple[Box, Box, int]:
        """The box `lo` + `extent` of a block's local tile and where it goes in a network
        output in NCHW (from `at` in NHWC), with the bytes of an element."""
        typ = nchw_type(output.source.type)  # pyright: ignore[reportArgumentType]
        itemsize = element_width(typ) // 8  # pyright: ignore[reportOptionalOperand]
        tile = self.buffer_box(block, lo, extent)
        destination = nchw_box(self.global_at[output.task_id], typ.get_shape(), itemsize, at, extent)
        if itemsize > 1:  # the bytes of each element are the innermost dimension on both sides
            tile = Box(tile.address, (*extent, itemsize), (*tile.strides[:-1], itemsize, 1))
        return tile, destination, itemsize

    def load_shared(
        self,
        block: task.StorageOp,
        share: SharedLoad | None,
        sizes: Sequence[int],
        source: int,
        destination: int,
        source_strides: Sequence[int] | None = None,
        strides: Sequence[int] | None = None,
    ) -> None:
        """Load a box from global memory into a block in its first phase, or where the load
        is shared, by its loader only: with one `isa.dma_multicast`, or where the target
        relays loads (`relay_loads`) a load and one send to the other cores, which receive
        the box into their own, at the start of the phase (`emit_relay`)."""
        if share is None:
            self.emit_load(block, isa.DmaLoadOp(sizes, source, destination, source_strides, strides))
            return
        if share.loader != block.task_id:
            recv = isa.RecvOp(sizes, destination, share.source, share.tag, strides)
            self.emit_receive(block, self.plan.first(block.task_id), recv)
            return
        receivers, tag = share.receivers, share.tag
        if self.target.global_memory.multicast_loads:
            multicast = isa.DmaMulticastOp(sizes, source, destination, receivers, tag, source_strides, strides)
            self.emit_load(block, multicast)
            return
        load = isa.DmaLoadOp(sizes, source, destination, source_strides, strides)
        self.emit_relay(block, load, isa.SendOp(sizes, destination, receivers, tag, strides))

    def buffer_box(self, block: task.TaskOp, offset: Sequence[int], extent: Sequence[int]) -> Box:
        """The box `offset` + `extent` of a block's local tile (a buffer, or a compute
        block's result), its layout worked out once per block."""
        if (layout := self.layouts.get(block.task_id)) is None:
            typ = block.results[0].type
            itemsize = element_width(typ) // 8  # pyright: ignore[reportOptionalOperand]
            layout = (self.local(block), row_major_strides(typ.get_shape(), itemsize), itemsize)  # pyright: ignore[reportAttributeAccessIssue]
            self.layouts[block.task_id] = layout
        return strided_box(*layout, offset, extent)

    def spill(self, op: task.ComputeBlock) -> None:
        """Store a result to global memory once, right after it is made, or beside the next
        phase's compute with `st.store_late`: to a region of its own, or strided to its
        place in its frame (`spill_frames`)."""
        if op.task_id in self.spilled:
            return
        self.spilled.add(op.task_id)
        typ = op.result.type
        nbytes = tensor_bytes(typ)
        if (framed := self.frames.frames.get(op.task_id)) is None:
            store = isa.DmaStoreOp([nbytes], self.region(op.task_id, nbytes), self.local(op))
        else:
            name, place = framed
            shape, itemsize = typ.get_shape(), element_width(typ) // 8  # pyright: ignore[reportOptionalOperand]
            frame = self.frames.shapes[name]
            address = self.region(name, math.prod(frame) * itemsize)
            destination = nhwc_box(address, frame, itemsize, place, shape)
            tile = self.buffer_box(op, (0,) * len(shape), shape)
            store = isa.DmaStoreOp(tile.sizes, destination.address, tile.address, destination.strides, tile.strides)
        self.emit_store(op, store)

    def emit_store(self, op: task.ComputeBlock, store: isa.DmaStoreOp) -> None:
        """A store of a result to global memory, right after it is made, or beside the next
        phase's compute with `st.store_late`."""
        if (time := self.plan.stored(op.task_id)) > self.plan.first(op.task_id):
            self.emit_beside(op.task_id, time, store)
        else:
            self.emit(op.task_id, time, store)

    def region(self, key: int | str, nbytes: int) -> int:
        """The global address of a spilled result's region or of a frame, taken once."""
        if key not in self.global_at:
            self.global_at[key] = self.take_global(nbytes)
        return self.global_at[key]

    def reload(self, op: task.ComputeBlock, buffer: task.BufferOp, box: task.BoxAttr, offset: tuple[int, ...]) -> None:
        """Spill a result and load a box of it into a buffer, in the buffer's first phase:
        with the load of the other pieces of its frame the buffer takes, where they make
        one box (`SpillFrames.loads`: emitted with the first of them)."""
        self.spill(op)
        if (load := self.frames.loads.get((buffer.task_id, op.task_id, box, offset))) is None:
            return
        shape = self.frames.shapes.get(load.region, op.result.type.get_shape())  # pyright: ignore[reportArgumentType]
        source = nhwc_box(self.global_at[load.region], shape, load.itemsize, load.box.lo, load.box.shape)
        destination = self.buffer_box(buffer, load.offset, load.box.shape)
        self.load_box(buffer, (buffer.task_id, load.region, load.box), source, destination)

    def load_box(self, buffer: task.BufferOp, load: BoxLoad, source: Box, destination: Box) -> None:
        """Load a box from global memory into a buffer in its first phase; on a target that
        shares loads, once for all the buffers that load it in that phase
        (`shared_box_loads`, `load_shared`)."""
        share = self.shared_boxes.get(load)
        places = (source.address, destination.address, source.strides, destination.strides)
        self.load_shared(buffer, share, destination.sizes, *places)
