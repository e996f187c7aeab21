"""
A task graph seen as the cost model sees it: layers and the tensors between them.

A layer is one conv, fc, pool, add or mul block together with the unary blocks (relu,
lut) that only post-process its result, as SET fuses activations into their layer. Every
layer knows its shapes, its weight bytes and where each of its inputs comes from.

    network = network_of(graph)        # graph: a task.GraphOp
    network.layers[0].macs_per_image

```mlir
%in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
%c = task.conv 4 %in, %w bias %b pad [1, 1, 1, 1] : tensor<1x8x8x32xi8>
%r_in = task.buffer 5 si %c : tensor<1x8x8x32xi8>
%r = task.relu 6 %r_in : tensor<1x8x8x32xi8>     // layer 0: blocks (4, 6)
```
"""

from __future__ import annotations

import math

import attrs
from attrs import frozen
from xdsl.dialects.builtin import TensorType
from xdsl.ir import SSAValue

from stc.compiler.diagnostics import StcError
from stc.dialects import task
from stc.dialects.task.base import element_width
from stc.dialects.task.compute import applied_on_the_way_out
from stc.dialects.task.stats import macs, tensor_bytes

NETWORK_INPUT = -1
"""The producer of a tensor that comes from the network's input (in DRAM)."""

UNARY_BLOCKS = (task.ReluOp, task.LutOp)
"""Blocks fused into the layer whose result they post-process."""


@frozen(cache_hash=True)
class Source:
    """One input tensor of a layer: the producer layer (or NETWORK_INPUT), the operand it
    feeds (`branch`, for adds and muls) and the channels of the layer's input it fills."""

    producer: int
    branch: int
    channel_offset: int
    channels: int
    element_bytes: int = 1
    """1 for int8 activations, 4 for int32 partial sums."""
    start: int = 0
    """The producer's first output channel this source reads (a buffer may read a slice)."""


@frozen(cache_hash=True)
class Layer:
    """One layer: shapes per image in NHWC, the kernel geometry, its sources and weights."""

    name: str
    kind: str
    """"conv" (conv and fc: MAC-array work) or "vector" (pools, add, mul)."""
    block_ids: tuple[int, ...]
    """The main block first, then the fused unary blocks."""
    in_hw: tuple[int, int]
    in_channels: int
    out_hw: tuple[int, int]
    out_channels: int
    kernel: tuple[int, int]
    stride: tuple[int, int]
    pad: tuple[int, int]
    """Top and left padding."""
    channelwise: bool
    """Whether an output channel reads only the same input channel (pools, add, mul)."""
    sources: tuple[Source, ...]
    weight_bytes: int
    """Weights, biases and tables, in bytes."""
    macs_per_image: int
    vector_bytes_per_output: float
    """Local-memory bytes the vector unit reads and writes per output element (pools,
    adds and the fused unary blocks), as the machine counts them."""
    is_output: bool
    output_bytes: int = 0
    """The bytes of the network output it writes (all images), if it is one."""
    table_bytes: int = 0
    """Lookup tables of fused lut blocks: every piece holds them whole."""
    out_element_bytes: int = 1
    """1 for an int8 result, 4 for int32 partial sums."""
    weight_rows: int = 0
    """Rows of the weight (Ky·Kx·R; an output channel is one byte of each row), 0 without one."""
    has_bias: bool = False
    tables: tuple[int, ...] = ()
    """Bytes of each lookup table (the main block's and the fused luts')."""
    activation: bool = False
    """Whether it is a conv or fc and one relu (no shift, no change of type) or lut
    post-processes its result: what a target with `compute.fused_activation` applies on
    the outputs' way out of the array, with no vector pass (`fused_activations`)."""
    activated: bool = False
    """Whether its conv or fc applies that activation (`fused_activations`): its result is
    written once, by the main block, and nothing streams through the vector unit."""

    @property
    def results(self) -> int:
        """The result tiles a piece writes: one per block, one in all when its conv or fc
        applies its activation (`activated`)."""
        return 1 if self.activated else len(self.block_ids)

    @property
    def output_bytes_per_image(self) -> int:
        return self.out_hw[0] * self.out_hw[1] * self.out_channels * self.out_element_bytes

    @property
    def input_bytes_per_image(self) -> int:
        width = max((source.element_bytes for source in self.sources), default=1)
        return self.in_hw[0] * self.in_hw[1] * self.in_channels * max(1, len(self.branches)) * width

    @property
    def branches(self) -> set[int]:
        return {source.branch for source in self.sources}

    @property
    def producers(self) -> set[int]:
        return {source.producer for source in self.sources if source.producer != NETWORK_INPUT}


@frozen
class Network:
    """The layers of one task graph in graph order (a topological order), at one batch."""

    name: str
    batch: int
    layers: tuple[Layer, ...]

    def consumers(self) -> list[set[int]]:
        result: list[set[int]] = [set() for _ in self.layers]
        for index, layer in enumerate(self.layers):
            for producer in layer.producers:
                result[producer].add(index)
        return result

    @property
    def macs(self) -> int:
        return self.batch * sum(layer.macs_per_image for layer in self.layers)

    @property
    def weight_bytes(self) -> int:
        return sum(layer.weight_bytes for layer in self.layers)


def shape(value: SSAValue) -> tuple[int, ...]:
    typ = value.type
    assert isinstance(typ, TensorType)
    return tuple(typ.get_shape())


def network_of(graph: task.GraphOp) -> Network:
    """The layers of a task graph; see the module docstring."""
    layer_of: dict[SSAValue, int] = {}
    consumers: dict[SSAValue, int] = {}
    for op in graph.block.ops:
        for value in op.operands:
            consumers[value] = consumers.get(value, 0) + 1
    layers: list[dict] = []
    batch = 0
    for op in graph.block.ops:
        if isinstance(op, task.InputOp):
            batch = shape(op.result)[0]
        if isinstance(op, task.OutputOp):
            for producer in buffer_producers(op.source, layer_of):
                layers[producer]["is_output"] = True
                layers[producer]["output_bytes"] = tensor_bytes(op.source.type)
        if not isinstance(op, task.ComputeBlock):
            continue
        fused = fused_into(op, layer_of, consumers)
        if fused is not None:
            layers[fused]["block_ids"] += (op.task_id,)
            layers[fused]["table_bytes" if isinstance(op, task.LutOp) else "weight_bytes"] += data_bytes(op)
            layers[fused]["tables"] += table_sizes(op)
            layers[fused]["out_element_bytes"] = element_bytes(op.result)
            layers[fused]["vector_bytes_per_output"] += vector_bytes(op) / math.prod(shape(op.result))
            layers[fused]["activation"] = (
                len(layers[fused]["block_ids"]) == 2 and layers[fused]["kind"] == "conv" and applied_on_the_way_out(op)
            )
            layer_of[op.result] = fused
            continue
        layer_of[op.result] = len(layers)
        layers.append(layer_fields(op, layer_of))
    if not layers:
        raise StcError(f"task.graph @{graph.graph_name}: no compute block to schedule")
    built = tuple(Layer(**fields) for fields in layers)
    return Network(graph.graph_name, batch or 1, built)


def fused_activations(network: Network) -> Network:
    """The network as a target with `compute.fused_activation` runs it: a layer whose
    activation its conv or fc applies (`Layer.activation`) streams nothing through the
    vector unit."""
    layers = tuple(
        attrs.evolve(layer, vector_bytes_per_output=0.0, activated=True) if layer.activation else layer
        for layer in network.layers
    )
    return attrs.evolve(network, layers=layers)


def buffer_producers(buffer: SSAValue, layer_of: dict[SSAValue, int]) -> list[int]:
    owner = buffer.owner
    assert isinstance(owner, task.BufferOp)
    return [layer_of.get(source, NETWORK_INPUT) for source, _, _ in owner.pieces]


def fused_into(op: task.ComputeBlock, layer_of: dict[SSAValue, int], consumers: dict[SSAValue, int]) -> int | None:
    """The layer a unary block joins: its input's only producer, if that result feeds
    nothing else."""
    if not isinstance(op, UNARY_BLOCKS):
        return None
    owner = op.operands[0].owner
    if not isinstance(owner, task.BufferOp) or len(owner.pieces) != 1:
        return None
    source = owner.pieces[0][0]
    if source not in layer_of or consumers.get(source, 0) != 1:
        return None
    return layer_of[source]


def element_bytes(value: SSAValue) -> int:
    return (element_width(value.type) or 8) // 8


def table_sizes(op: task.ComputeBlock) -> tuple[int, ...]:
    return tuple(tensor_bytes(value.type) for value in op.operands if isinstance(value.owner, task.TableOp))  # pyright: ignore[reportArgumentType]


def data_bytes(op: task.ComputeBlock) -> int:
    return sum(
        tensor_bytes(value.type)  # pyright: ignore[reportArgumentType]
        for value in op.operands
        if isinstance(value.owner, task.DataOp)
    )


def vector_bytes(op: task.ComputeBlock) -> int:
    """Bytes the machine's vector unit streams for a whole block (0 for conv and fc): it reads
    each operand (a pool its windows) and writes its result, in their elements' bytes (int32
    partial sums are 4 per element)."""
    if isinstance(op, task.ConvOp | task.FcOp):
        return 0
    out = math.prod(shape(op.result))
    written = out * element_bytes(op.result)
    if isinstance(op, task.AvgPoolOp | task.MaxPoolOp):
        ky, kx = op.window()
        return out * ky * kx * element_bytes(op.operands[0]) + written
    buffers = [value for value in op.operands if isinstance(value.owner, task.BufferOp)]
    return out * sum(element_bytes(value) for value in buffers) + written


def layer_fields(op: task.ComputeBlock, layer_of: dict[SSAValue, int]) -> dict:
    """The fields of the layer whose main block is `op`."""
    buffers = [value for value in op.operands if isinstance(value.owner, task.BufferOp)]
    first = shape(buffers[0])
    out = shape(op.result)
    batch = out[0]
    sources = []
    for branch, buffer in enumerate(buffers):
        owner = buffer.owner
        assert isinstance(owner, task.BufferOp)
        for value, box, offset in owner.pieces:
            producer = layer_of.get(value, NETWORK_INPUT)
            sources.append(Source(producer, branch, offset[3], box.shape[3], element_bytes(value), box.lo[3]))
    if isinstance(op, task.FcOp):
        kernel, stride, pad = (first[1], first[2]), (1, 1), (0, 0)
    elif isinstance(op, task.WindowBlock):
        kernel, stride, pads = op.window(), op.ints("stride"), op.ints("pad")
        pad = (pads[0], pads[2])
    else:
        kernel, stride, pad = (1, 1), (1, 1), (0, 0)
    is_conv = isinstance(op, task.ConvOp | task.FcOp)
    return {
        "name": f"{op.name.removeprefix('task.')}{op.task_id}",
        "kind": "conv" if is_conv else "vector",
        "block_ids": (op.task_id,),
        "in_hw": (first[1], first[2]),
        "in_channels": first[3],
        "out_hw": (out[1], out[2]),
        "out_channels": out[3],
        "kernel": tuple(kernel),
        "stride": tuple(stride),
        "pad": pad,
        "channelwise": not is_conv,
        "sources": tuple(sources),
        "weight_bytes": 0 if isinstance(op, task.LutOp) else data_bytes(op),
        "table_bytes": data_bytes(op) if isinstance(op, task.LutOp) else 0,
        "macs_per_image": macs(op) // batch if is_conv else 0,
        "vector_bytes_per_output": vector_bytes(op) / math.prod(out),
        "is_output": False,
        "out_element_bytes": element_bytes(op.result),
        "weight_rows": math.prod(shape(op.weight)[1:]) if is_conv else 0,  # pyright: ignore[reportAttributeAccessIssue]
        "has_bias": op.optional_bias is not None,
        "tables": table_sizes(op),
    }
