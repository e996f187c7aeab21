"""
The layers of a task graph as layer grouping sees them, read from the IR once into plain
data: each compute block in graph order (a topological order), the buffers it reads and
where their pieces come from, its data blocks, and the buffers that take its result.

```mlir
%4 = task.conv 4 %1, %2 bias %3 pad [1, 1, 1, 1] shift 10 : tensor<1x16x16x16xi8>
%5 = task.buffer 5 si %4 : tensor<1x16x16x16xi8>
%6 = task.relu 6 %5 : tensor<1x16x16x16xi8>
```

Here layer 6 reads layer 4 through buffer 5: `producers[6] == [4]`, `consumers[4] == [6]`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from attrs import frozen

from stc.compiler.memory.storage_size import storage_bytes
from stc.compiler.targets.hardware import HardwareTarget
from stc.dialects import task
from stc.dialects.st.local_memory import alignment_kind
from stc.dialects.task.base import element_width
from stc.dialects.task.stats import macs, tensor_bytes

Interval = tuple[int, int]
Box = tuple[Interval, ...]


@frozen
class Source:
    """A piece of a buffer: its producer (a layer id, None for a network input), the box of
    the producer's result it takes, and where that box lands in the buffer."""

    producer: int | None
    box: Box
    offset: tuple[int, ...]


@frozen
class Tile:
    """A buffer: its id, NHWC shape, bytes per element, alignment kind and sources."""

    task_id: int
    shape: tuple[int, ...]
    itemsize: int
    kind: str
    sources: tuple[Source, ...]
    reader: int | None
    """The layer reading it; None for a buffer a network output stores."""


@frozen
class Window:
    """A windowed layer's geometry along the rows."""

    stride: int
    extent: int
    """dilation·(k − 1) + 1"""
    pad_top: int
    taps: int
    """ky·kx: the elements each output element reads from each channel (a pool streams them)."""


@frozen
class Layer:
    """One compute block as plain data."""

    task_id: int
    name: str
    shape: tuple[int, ...]
    """NHWC of the result."""
    itemsize: int
    kind: str
    """Alignment kind of the result."""
    in_height: int
    window: Window | None
    whole_input: bool
    """An fc: every slice reads its whole input."""
    macs: int
    on_mac_array: bool
    inputs: tuple[Tile, ...]
    data: tuple[tuple[int, str, int, str, int], ...]
    """(id, op name, bytes, alignment kind, bytes in the st matrix's storage model) of each
    weight, bias and table block."""
    outputs: tuple[Tile, ...]
    """The buffers taking (part of) its result."""

    def describe(self) -> str:
        return f"{self.name} {self.task_id}"


def tile_of(buffer: task.BufferOp) -> Tile:
    sources = tuple(
        Source(
            value.owner.task_id if isinstance(value.owner, task.ComputeBlock) else None,
            tuple(box.data),
            tuple(offset),
        )
        for value, box, offset in buffer.pieces
    )
    readers = [use.operation for use in buffer.result.uses if isinstance(use.operation, task.ComputeBlock)]
    typ = buffer.result.type
    return Tile(
        buffer.task_id,
        tuple(typ.get_shape()),
        element_width(typ) // 8,  # pyright: ignore[reportOptionalOperand]
        alignment_kind(buffer),
        sources,
        readers[0].task_id if readers else None,
    )


def layer_of(op: task.ComputeBlock, target: HardwareTarget) -> Layer:
    inputs = [value.owner for value in op.data_inputs]
    buffers = [owner for owner in dict.fromkeys(inputs) if isinstance(owner, task.BufferOp)]
    data = [owner for owner in dict.fromkeys(v.owner for v in op.operands) if isinstance(owner, task.DataOp)]
    window = None
    if isinstance(op, task.WindowBlock):
        extent = op.dilations()[0] * (op.window()[0] - 1) + 1
        window = Window(op.ints("stride")[0], extent, op.ints("pad")[0], math.prod(op.window()))
    typ = op.result.type
    return Layer(
        op.task_id,
        op.name,
        tuple(typ.get_shape()),
        element_width(typ) // 8,  # pyright: ignore[reportOptionalOperand]
        alignment_kind(op),
        op.data_inputs[0].type.get_shape()[1],  # pyright: ignore[reportAttributeAccessIssue]
        window,
        isinstance(op, task.FcOp),
        macs(op),
        isinstance(op, task.ConvOp | task.FcOp),
        tuple(tile_of(buffer) for buffer in buffers),
        tuple(
            (d.task_id, d.name, tensor_bytes(d.result.type), alignment_kind(d), storage_bytes(d, target)) for d in data
        ),
        tuple(tile_of(use.operation) for use in op.result.uses if isinstance(use.operation, task.BufferOp)),
    )


class LayerGraph:
    """The layers of one task graph and the edges between them, sized for a target."""

    def __init__(self, graph: task.GraphOp, target: HardwareTarget):
        self.graph = graph
        self.ops: list[Layer] = [layer_of(op, target) for op in graph.tasks() if isinstance(op, task.ComputeBlock)]
        self.position = {layer.task_id: index for index, layer in enumerate(self.ops)}
        self.producers: dict[int, list[int]] = {}
        self.consumers: dict[int, list[int]] = {layer.task_id: [] for layer in self.ops}
        self.stored: set[int] = set()
        """Layers whose result (some of it) reaches a network output."""
        for layer in self.ops:
            sources = (source.producer for tile in layer.inputs for source in tile.sources)
            self.producers[layer.task_id] = list(dict.fromkeys(p for p in sources if p is not None))
            for producer in self.producers[layer.task_id]:
                self.consumers[producer].append(layer.task_id)
            if any(tile.reader is None for tile in layer.outputs):
                self.stored.add(layer.task_id)

    def __len__(self) -> int:
        return len(self.ops)

    def op(self, task_id: int) -> Layer:
        return self.ops[self.position[task_id]]

    def outputs_of(self, members: Sequence[int]) -> list[int]:
        """The members whose result leaves the group: read by a layer outside it, or stored."""
        inside = set(members)
        return [
            task_id
            for task_id in members
            if task_id in self.stored or any(consumer not in inside for consumer in self.consumers[task_id])
        ]

    def is_connected(self, members: Sequence[int]) -> bool:
        """Whether the members form one piece when edges are read in both directions."""
        inside = set(members)
        seen = {members[0]}
        todo = [members[0]]
        while todo:
            task_id = todo.pop()
            for other in self.producers[task_id] + self.consumers[task_id]:
                if other in inside and other not in seen:
                    seen.add(other)
                    todo.append(other)
        return len(seen) == len(inside)

    def is_convex(self, members: Sequence[int]) -> bool:
        """Whether no path leaves the members and comes back: every layer on a path between
        two members is a member."""
        inside = set(members)
        last = max(self.position[task_id] for task_id in members)
        outside = [c for m in members for c in self.consumers[m] if c not in inside]
        seen = set(outside)
        while outside:
            task_id = outside.pop()
            for consumer in self.consumers[task_id]:
                if consumer in inside:
                    return False
                if consumer not in seen and self.position[consumer] < last:
                    seen.add(consumer)
                    outside.append(consumer)
        return True
