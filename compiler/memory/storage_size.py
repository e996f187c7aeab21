"""Local-memory bytes of a storage block on a target, with the target's row alignment.

BiMap's storage-size model pads every row of a block's first-stored dimension: the
channels of an activation buffer (int8 activations or int32 partial sums), the output
channels F of a weight (its rows are Ky·Kx·R), a bias vector or a lookup table as one
row. Network inputs and outputs cross the chip's IO and take no local memory. On
`tianjicx` a 10x4x4x32 fc weight takes 512 rows of 32 B: 16,384 B.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from stc.compiler.targets.hardware import HardwareTarget
from stc.dialects import task
from stc.dialects.task.base import element_width


def buffer_bytes(shape: Sequence[int], bits: int, target: HardwareTarget) -> int:
    """An NHWC activation buffer of int8 activations or int32 partial sums."""
    *outer, channels = shape
    if bits == 32:
        return target.aligned_bytes("partial_sum", 4 * channels, rows=math.prod(outer))
    return target.aligned_bytes("activation", channels, rows=math.prod(outer))


def weight_bytes(shape: Sequence[int], target: HardwareTarget) -> int:
    """An F×Ky×Kx×R weight: F bytes in each of Ky·Kx·R rows."""
    f, *rows = shape
    return target.aligned_bytes("weight", f, rows=math.prod(rows))


def bias_bytes(channels: int, target: HardwareTarget) -> int:
    return target.aligned_bytes("bias", 4 * channels)


def storage_bytes(op: task.StorageOp, target: HardwareTarget) -> int:
    """Bytes `op` takes in a core's local memory on `target`."""
    if isinstance(op, task.InputOp | task.OutputOp):
        return 0
    shape = op.results[0].type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    if isinstance(op, task.BufferOp):
        return buffer_bytes(shape, element_width(op.result.type) or 8, target)
    if isinstance(op, task.WeightOp):
        return weight_bytes(shape, target)
    if isinstance(op, task.BiasOp):
        return bias_bytes(shape[0], target)
    assert isinstance(op, task.TableOp)
    return target.aligned_bytes("bias", shape[0])
