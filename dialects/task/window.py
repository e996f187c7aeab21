"""
Windowed blocks of the `task` dialect: conv, avgpool and maxpool slide a window over their
input (the geometry, which the `isa` level shares, is `stc.compiler.rules.windows`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import I64, DenseArrayBase, IntegerAttr, TensorType
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
)

from stc.compiler.rules.blocks import conv_weight_problem, window_problem
from stc.dialects.integers import i64_array, i64_attr
from stc.dialects.task.attrs import StorageKind
from stc.dialects.task.base import check_element_width, tensor_shape
from stc.dialects.task.compute import ComputeBlock, Role
from stc.dialects.task.data import DataOp, WeightOp


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
        geometry = (self.window(), self.ints("stride"), self.ints("pad"), self.dilations())
        input_shape = tensor_shape(self.input.type)  # pyright: ignore[reportAttributeAccessIssue]
        self.expect(window_problem(input_shape, *geometry, self.output_channels(), tensor_shape(self.result.type)))


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
        self.expect(conv_weight_problem(tensor_shape(self.weight.type), self.weight.type, channels))  # pyright: ignore[reportArgumentType]


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
