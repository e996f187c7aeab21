"""
Windowed blocks of the `task` dialect: conv, avgpool and maxpool slide a window over their
input, and the window geometry they share with the `isa` level (output sizes, the limits
and the message for a window that cannot slide).

    >>> window_output_hw(224, 224, window=(7, 7), stride=(2, 2), pad=(3, 3, 3, 3), dilation=(1, 1))
    (112, 112)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import ClassVar

from xdsl.dialects.builtin import I64, DenseArrayBase, IntegerAttr, TensorType
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
)

from stc.dialects.integers import i64_array, i64_attr
from stc.dialects.task.attrs import StorageKind
from stc.dialects.task.base import check_element_width, tensor_shape
from stc.dialects.task.compute import ComputeBlock, Role
from stc.dialects.task.data import DataOp, WeightOp


def window_output_size(size: int, kernel: int, stride: int, pad_lo: int, pad_hi: int, dilation: int = 1) -> int:
    """Number of windows along one axis: ⌊(size + pads − dilation·(kernel−1) − 1) / stride⌋ + 1."""
    return (size + pad_lo + pad_hi - dilation * (kernel - 1) - 1) // stride + 1


def window_output_hw(
    height: int,
    width: int,
    window: Sequence[int],
    stride: Sequence[int],
    pad: Sequence[int],
    dilation: Sequence[int],
) -> tuple[int, int]:
    """Number of windows along each axis of a height×width input; `pad` is [top, bottom,
    left, right]."""
    return (
        window_output_size(height, window[0], stride[0], pad[0], pad[1], dilation[0]),
        window_output_size(width, window[1], stride[1], pad[2], pad[3], dilation[1]),
    )


WINDOW_LIMIT = 2**16 - 1
"""Largest stride, pad, dilation and window size: far beyond any network's, and small
enough that no window arithmetic comes near 64 bits."""


def window_error(
    height: int,
    width: int,
    window: Sequence[int],
    stride: Sequence[int],
    pad: Sequence[int],
    dilation: Sequence[int],
) -> str | None:
    """Why a window cannot slide over a height×width input, or None: each parameter has
    two values (four for `pad`) in range, padding stays within the window's extent and
    at least one window fits."""

    def within(values: Sequence[int], count: int, lowest: int) -> bool:
        return len(values) == count and all(lowest <= v <= WINDOW_LIMIT for v in values)

    if not within(stride, 2, 1):
        return f"stride must be two integers in [1, {WINDOW_LIMIT}], got {list(stride)}"
    if not within(pad, 4, 0):
        return f"pad must be four integers in [0, {WINDOW_LIMIT}] (top, bottom, left, right), got {list(pad)}"
    if not within(dilation, 2, 1):
        return f"dilation must be two integers in [1, {WINDOW_LIMIT}], got {list(dilation)}"
    if not within(window, 2, 1):
        return f"window must be two integers in [1, {WINDOW_LIMIT}], got {list(window)}"
    extents = [dilation[axis] * (window[axis] - 1) + 1 for axis in (0, 1)]
    for axis, (lo, hi) in enumerate((pad[0:2], pad[2:4])):
        if max(lo, hi) >= extents[axis]:
            return f"pad {[lo, hi]} must be smaller than the window extent {extents[axis]}"
    if min(window_output_hw(height, width, window, stride, pad, dilation)) < 1:
        return f"window extent {extents} does not fit the padded {height}x{width} input"
    return None


@lru_cache(maxsize=4096)
def slid_windows(
    height: int,
    width: int,
    window: tuple[int, ...],
    stride: tuple[int, ...],
    pad: tuple[int, ...],
    dilation: tuple[int, ...],
) -> tuple[int, int] | str:
    """The number of windows along each axis (`window_output_hw`), or why they cannot slide
    (`window_error`), once per geometry: the pieces of a split share a few."""
    if message := window_error(height, width, window, stride, pad, dilation):
        return message
    return window_output_hw(height, width, window, stride, pad, dilation)


class WindowBlock(ComputeBlock):
    """A block sliding a window over its input: conv, avgpool, maxpool."""

    stride = prop_def(DenseArrayBase[I64], default_value=i64_array((1, 1)))
    pad = prop_def(DenseArrayBase[I64], default_value=i64_array((0, 0, 0, 0)))
    """Padding as [top, bottom, left, right]."""

    def window(self) -> tuple[int, int]:
        return self.ints("window")  # pyright: ignore[reportReturnType]

    def dilations(self) -> tuple[int, int]:
        return (1, 1)

    def output_channels(self) -> int:
        return tensor_shape(self.input.type)[3]  # pyright: ignore[reportAttributeAccessIssue]

    def verify_shapes(self) -> None:
        # `input`, each window block's first operand, is its one activation input: a buffer
        # (verify_roles has checked it)
        n, h, w, _ = tensor_shape(self.input.type)  # pyright: ignore[reportAttributeAccessIssue]
        windows = slid_windows(h, w, self.window(), self.ints("stride"), self.ints("pad"), self.dilations())
        if isinstance(windows, str):
            raise self.error(windows)
        self.expect_result_shape((n, *windows, self.output_channels()))


@irdl_op_definition
class ConvOp(WindowBlock):
    """
    Convolution (TianjicX CC): out[n,y,x,f] = bias[f] + Σ in[n, y·sy + ky·dy − pad_top,
    x·sx + kx·dx − pad_left, r] · w[f,ky,kx,r], zero padding. A piece of a split along r
    writes raw int32 partial sums (no bias, no shift).

    ```mlir
    %c = task.conv 4 %in, %w bias %b stride [2, 2] pad [1, 1, 1, 1] shift 9 : tensor<1x4x4x32xi8>
    ```
    """

    name = "task.conv"
    input = operand_def(TensorType)
    weight = operand_def(TensorType)
    bias = opt_operand_def(TensorType)
    dilation = prop_def(DenseArrayBase[I64], default_value=i64_array((1, 1)))
    shift = prop_def(IntegerAttr[I64], default_value=i64_attr(0))

    OPERAND_NAMES: ClassVar[tuple[str, ...]] = ("input", "weight")
    CLAUSES: ClassVar[tuple[str, ...]] = ("stride", "pad", "dilation", "shift")
    DATA_ROLES: ClassVar[dict[str, type[DataOp]]] = {"weight": WeightOp}
    INPUT_KIND: ClassVar[StorageKind] = StorageKind.SIC

    def window(self) -> tuple[int, int]:
        _, ky, kx, _ = tensor_shape(self.weight.type)  # pyright: ignore[reportArgumentType]
        return ky, kx

    def dilations(self) -> tuple[int, int]:
        return self.ints("dilation")  # pyright: ignore[reportReturnType]

    def output_channels(self) -> int:
        return tensor_shape(self.weight.type)[0]  # pyright: ignore[reportArgumentType]

    def verify_roles(self, roles: Sequence[Role]) -> None:
        super().verify_roles(roles)
        check_element_width(self, "the input", self.input.type, (8,))
        channels = tensor_shape(self.input.type)[3]  # pyright: ignore[reportArgumentType]
        if tensor_shape(self.weight.type)[3] != channels:  # pyright: ignore[reportArgumentType]
            raise self.error(f"weight {self.weight.type} must reduce over the input's {channels} channels")


@irdl_op_definition
class AvgPoolOp(WindowBlock):
    """
    Average pooling (TianjicX CAVG): a window sum plus bias, zero padding; the shift does
    the division.

    ```mlir
    %p = task.avgpool 5 %in window [7, 7] shift 6 : tensor<1x1x1x512xi8>
    ```
    """

    name = "task.avgpool"
    input = operand_def(TensorType)
    bias = opt_operand_def(TensorType)
    window_ = prop_def(DenseArrayBase[I64], prop_name="window")
    shift = prop_def(IntegerAttr[I64], default_value=i64_attr(0))

    OPERAND_NAMES: ClassVar[tuple[str, ...]] = ("input",)
    CLAUSES: ClassVar[tuple[str, ...]] = ("window", "stride", "pad", "shift")


@irdl_op_definition
class MaxPoolOp(WindowBlock):
    """
    Max pooling (TianjicX CCMPB): max(cmp, window max), padding never wins.

    ```mlir
    %p = task.maxpool 6 %in window [3, 3] stride [2, 2] pad [1, 1, 1, 1] : tensor<1x56x56x64xi8>
    ```
    """

    name = "task.maxpool"
    input = operand_def(TensorType)
    window_ = prop_def(DenseArrayBase[I64], prop_name="window")
    cmp = prop_def(IntegerAttr[I64], default_value=i64_attr(-128))
    shift = prop_def(IntegerAttr[I64], default_value=i64_attr(0))

    OPERAND_NAMES: ClassVar[tuple[str, ...]] = ("input",)
    CLAUSES: ClassVar[tuple[str, ...]] = ("window", "stride", "pad", "cmp", "shift")
