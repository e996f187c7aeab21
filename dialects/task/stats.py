"""Static statistics of a task graph: multiply-accumulates and bytes per storage kind."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType

from stc.dialects import task
from stc.dialects.task.base import element_width, tensor_bytes


def macs(op: task.ComputeBlock) -> int:
    """Multiply-accumulates of one compute block (conv, fc and mul; 0 for the rest)."""
    result = op.result.type.get_shape()
    if isinstance(op, task.ConvOp):
        _, ky, kx, r = op.weight.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
        return math.prod(result) * ky * kx * r
    if isinstance(op, task.FcOp):
        return math.prod(op.weight.type.get_shape()) * result[0]  # pyright: ignore[reportAttributeAccessIssue]
    if isinstance(op, task.MulOp):
        return math.prod(result)
    return 0


def row_major_strides(shape: Sequence[int], itemsize: int) -> tuple[int, ...]:
    """Byte strides of a dense row-major tensor of `shape`."""
    strides = [itemsize] * len(shape)
    for axis in range(len(shape) - 2, -1, -1):
        strides[axis] = strides[axis + 1] * shape[axis + 1]
    return tuple(strides)


def is_contiguous(box: tuple[int, ...], shape: tuple[int, ...]) -> bool:
    """Whether a sub-box of a row-major tensor is one run of bytes: every dimension after
    the first one the box spans more than once is whole."""
    spanning = [axis for axis, size in enumerate(box) if size > 1]
    return not spanning or all(box[axis] == shape[axis] for axis in range(spanning[0] + 1, len(shape)))


def offset_bytes(typ: TensorType, offset: Sequence[int]) -> int:
    """Where the element at `offset` starts in the dense row-major bytes of a tensor."""
    bits = element_width(typ)
    assert bits is not None
    return sum(i * stride for i, stride in zip(offset, row_major_strides(typ.get_shape(), bits // 8), strict=True))


def storage_kind(op: task.StorageOp) -> str:
    if isinstance(op, task.BufferOp):
        return op.kind.data.value
    return op.name.removeprefix("task.")


def graph_stats(graph: task.GraphOp) -> dict[str, object]:
    """
    `{"macs": ..., "ops": {op name: count}, "bytes": {storage kind: bytes}}`; output bytes
    count the buffers the outputs read.
    """
    ops: Counter[str] = Counter()
    storage: Counter[str] = Counter()
    total_macs = 0
    for op in graph.block.ops:
        ops[op.name] += 1
        if isinstance(op, task.ComputeBlock):
            total_macs += macs(op)
        elif isinstance(op, task.OutputOp):
            storage["output"] += tensor_bytes(op.source.type)  # pyright: ignore[reportArgumentType]
        elif isinstance(op, task.StorageOp):
            storage[storage_kind(op)] += tensor_bytes(op.results[0].type)  # pyright: ignore[reportArgumentType]
    kinds = ["input", "output", "si", "sic", "sifc", "so", "weight", "bias", "table"]
    return {
        "graph": graph.graph_name,
        "macs": total_macs,
        "ops": dict(sorted(ops.items())),
        "bytes": {kind: storage[kind] for kind in kinds},
    }
