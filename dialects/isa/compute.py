"""
The compute instructions of the `isa` dialect: the task ops (conv, fc, pools, relu, lut,
add, mul) on local-memory tiles, with the task dialect's exact integer semantics.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import I64, ArrayAttr, IntegerAttr
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from stc.compiler.rules.windows import slid_windows
from stc.compiler.targets.core_dataflow import Dataflow
from stc.dialects.integers import i64_array, i64_attr
from stc.dialects.isa.access import Access, tile_kind
from stc.dialects.isa.activation import activation_problem, parse_activation, print_activation
from stc.dialects.isa.attrs import TileAttr, i64_array_def, ints
from stc.dialects.isa.core import Instruction
from stc.dialects.syntax import check_clauses_given, clause_default, parse_int_list, print_attr_dict, print_clauses

INPUT_KINDS = {"weight": "weight", "table": "bias"}
"""Storage kinds of input roles that are not activations (tables align like biases)."""


class ComputeInstruction(Instruction):
    """
    The shared form of compute instructions, the task ops on local-memory tiles:

        isa.<op> TILE, ... (bias TILE)? -> TILE (CLAUSE VALUE)* (relu CMP | lut TILE)?

    where a TILE is `ADDRESS : tensor<...>`. Results are exact, as in the task dialect:
    saturate((acc + bias) >> shift) to the output tile's i8 or i32. Clauses equal to
    their default are not printed. A conv or fc on a target with `fused_activation` may
    apply its layer's activation to its outputs on their way out, as the task dialect's
    relu (max(x, CMP)) or lut (TABLE[x as an unsigned byte]) would after it.
    """

    inputs = prop_def(ArrayAttr[TileAttr])
    bias = opt_prop_def(TileAttr)
    output = prop_def(TileAttr)
    relu = opt_prop_def(IntegerAttr[I64])
    """The fused relu's cmp, if any."""
    table = opt_prop_def(TileAttr)
    """The fused lookup table, if any."""

    COMPUTES: ClassVar[bool] = True
    INPUT_ROLES: ClassVar[tuple[str, ...]]
    """The input tiles' roles, in order; empty for any number of branches."""
    CLAUSES: ClassVar[tuple[str, ...]] = ()
    HAS_BIAS: ClassVar[bool] = False
    ACTIVATES: ClassVar[bool] = False
    """Whether it may apply a fused relu or lut to its outputs (conv, fc)."""

    def __init__(
        self,
        inputs: Sequence[TileAttr],
        output: TileAttr,
        bias: TileAttr | None = None,
        **clauses: int | Sequence[int],
    ):
        properties: dict[str, Attribute | None] = {
            "inputs": ArrayAttr(inputs),
            "output": output,
            "bias": bias,
        }
        for name, value in clauses.items():
            properties[name] = i64_attr(value) if isinstance(value, int) else i64_array(value)
        super().__init__(properties=properties)

    def clause_int(self, name: str) -> int:
        value = self.properties[name]
        assert isinstance(value, IntegerAttr)
        return value.value.data

    def clause_ints(self, name: str) -> tuple[int, ...]:
        return ints(self.properties[name])

    @property
    def shift_amount(self) -> int:
        return self.clause_int("shift") if "shift" in self.CLAUSES else 0

    def core_work_shape(self) -> tuple[int, int, int, int, int]:
        """A conv's or fc's positions, filters, taps, channels and input elements (`core_dataflow`)."""
        source, weight = self.inputs.data
        filters, ky, kx, channels = weight.shape
        return math.prod(self.output.shape) // filters, filters, ky * kx, channels, math.prod(source.shape)

    def chosen_dataflow(self) -> Dataflow | None:
        """The `dataflow` clause; None without one (the target's default, `core_dataflow.fitting`)."""
        if "dataflow" not in self.CLAUSES or not (values := self.clause_ints("dataflow")):
            return None
        return Dataflow.of_clause(values)

    def input_roles(self) -> list[str]:
        return list(self.INPUT_ROLES) or [f"branch #{index}" for index in range(len(self.inputs))]

    def local_accesses(self) -> list[Access]:
        accesses = [
            Access(role, tile.address, tile.nbytes, INPUT_KINDS.get(role) or tile_kind(tile))
            for role, tile in zip(self.input_roles(), self.inputs, strict=True)
        ]
        if self.bias is not None:
            accesses.append(Access("bias", self.bias.address, self.bias.nbytes, "bias"))
        if self.table is not None:
            accesses.append(Access("table", self.table.address, self.table.nbytes, "bias"))
        accesses.append(Access("output", self.output.address, self.output.nbytes, tile_kind(self.output)))
        return accesses

    @classmethod
    def parse(cls, parser: Parser) -> ComputeInstruction:
        start = parser.pos
        inputs = [TileAttr.parse_body(parser)]
        while parser.parse_optional_punctuation(","):
            inputs.append(TileAttr.parse_body(parser))
        bias = TileAttr.parse_body(parser) if cls.HAS_BIAS and parser.parse_optional_keyword("bias") else None
        parser.parse_punctuation("->")
        output = TileAttr.parse_body(parser)
        clauses: dict[str, int | Sequence[int]] = {}
        while clause := parser.parse_optional_keyword_in(cls.CLAUSES):
            if isinstance(clause_default(cls, clause), IntegerAttr):
                clauses[clause] = parser.parse_integer(allow_boolean=False)
            else:
                clauses[clause] = parse_int_list(parser)
        check_clauses_given(parser, cls, cls.CLAUSES, clauses, start)
        op = cls(inputs, output, bias, **clauses)
        if cls.ACTIVATES:
            op.properties.update(parse_activation(parser))
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.inputs, lambda tile: tile.print_body(printer))
        if self.bias is not None:
            printer.print_string(" bias ")
            self.bias.print_body(printer)
        printer.print_string(" -> ")
        self.output.print_body(printer)
        print_clauses(printer, self, self.CLAUSES)
        print_activation(printer, self.relu, self.table)
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        if self.INPUT_ROLES and len(self.inputs) != len(self.INPUT_ROLES):
            raise self.error(
                f"takes {len(self.INPUT_ROLES)} input tiles ({', '.join(self.INPUT_ROLES)}), got {len(self.inputs)}"
            )
        if not self.inputs:
            raise self.error("takes at least one input tile")
        if len(self.output.shape) != 4:
            raise self.error(f"the output is an NHWC tile of rank 4, got {self.output.tensor_type}")
        if "shift" in self.CLAUSES and not 0 <= self.shift_amount <= 31:
            raise self.error(f"shift must be in [0, 31], got {self.shift_amount}")
        if "dataflow" in self.CLAUSES and (flow := self.clause_ints("dataflow")):
            if len(flow) != 4 or flow[0] not in (0, 1) or min(flow[1:]) < 1:
                raise self.error(f"dataflow is [packed 0 or 1, split, groups, tile >= 1], got {list(flow)}")
        if self.bias is not None:
            self._verify_bias(self.bias)
        if problem := activation_problem(self.ACTIVATES, self.relu, self.table, self.output):
            raise self.error(problem)
        self.verify_shapes()

    def _verify_bias(self, bias: TileAttr) -> None:
        if not self.HAS_BIAS:
            raise self.error("takes no bias")
        channels = self.output.shape[-1]
        if bias.element_bits != 32 or bias.shape != (channels,):
            raise self.error(f"the bias must be tensor<{channels}xi32>, got {bias.tensor_type}")

    def verify_shapes(self) -> None:
        """Check the tiles' shapes and element types against each other."""

    def expect_int8(self, tile: TileAttr, role: str) -> None:
        if tile.element_bits != 8 or len(tile.shape) != 4:
            raise self.error(f"the {role} is an i8 tile of rank 4, got {tile.tensor_type}")

    def expect_output_shape(self, shape: Sequence[int]) -> None:
        if self.output.shape != tuple(shape):
            raise self.error(f"the output must be {list(shape)} for these inputs, got {list(self.output.shape)}")

    def expect_same_shape(self, tile: TileAttr, role: str) -> None:
        if tile.shape != self.output.shape:
            raise self.error(f"{role} {tile.tensor_type} must have the output's shape {list(self.output.shape)}")


class WindowInstruction(ComputeInstruction):
    """A compute instruction sliding a window over an NHWC tile: conv and the pools."""

    stride = i64_array_def("stride", i64_array((1, 1)))
    pad = i64_array_def("pad", i64_array((0, 0, 0, 0)))
    """Zero padding as [top, bottom, left, right]."""

    def window_shape(self) -> tuple[int, ...]:
        return self.clause_ints("window")

    def dilations(self) -> tuple[int, ...]:
        return (1, 1)

    def output_channels(self) -> int:
        return self.inputs.data[0].shape[3]

    def verify_shapes(self) -> None:
        source = self.inputs.data[0]
        if len(source.shape) != 4:
            raise self.error(f"the input is an NHWC tile of rank 4, got {source.tensor_type}")
        n, h, w, _ = source.shape
        geometry = (
            tuple(self.window_shape()),
            tuple(self.clause_ints("stride")),
            tuple(self.clause_ints("pad")),
            tuple(self.dilations()),
        )
        windows = slid_windows(h, w, *geometry)
        if isinstance(windows, str):
            raise self.error(windows)
        self.expect_output_shape((n, *windows, self.output_channels()))


@irdl_op_definition
class ConvOp(WindowInstruction):
    """
    Convolution (task.conv): input NHWC i8, weight F×Ky×Kx×C i8, optional i32 bias.

    ```mlir
    isa.conv 0 : tensor<1x6x8x16xi8>, 1024 : tensor<32x3x3x16xi8> bias 5632 : tensor<32xi32>
        -> 5760 : tensor<1x4x8x32xi8> pad [0, 0, 1, 1] shift 9
    ```
    """

    name = "isa.conv"
    dilation = i64_array_def("dilation", i64_array((1, 1)))
    shift = prop_def(IntegerAttr[I64], default_value=i64_attr(0))
    dataflow = i64_array_def("dataflow", i64_array(()))

    INPUT_ROLES: ClassVar[tuple[str, ...]] = ("input", "weight")
    CLAUSES: ClassVar[tuple[str, ...]] = ("stride", "pad", "dilation", "shift", "dataflow")
    HAS_BIAS: ClassVar[bool] = True
    ACTIVATES: ClassVar[bool] = True

    def window_shape(self) -> tuple[int, ...]:
        return self.inputs.data[1].shape[1:3]

    def dilations(self) -> tuple[int, ...]:
        return self.clause_ints("dilation")

    def output_channels(self) -> int:
        return self.inputs.data[1].shape[0]

    def verify_shapes(self) -> None:
        source, weight = self.inputs.data
        self.expect_int8(source, "input")
        self.expect_int8(weight, "weight")
        if weight.shape[3] != source.shape[3]:
            raise self.error(f"the weight {weight.tensor_type} must reduce over the input's {source.shape[3]} channels")
        super().verify_shapes()


@irdl_op_definition
class FcOp(ComputeInstruction):
    """
    Fully connected layer (task.fc): the F×H×W×C weight spans the whole input tile.

    ```mlir
    isa.fc 0 : tensor<1x4x4x16xi8>, 256 : tensor<10x4x4x16xi8> -> 2816 : tensor<1x1x1x10xi8> shift 7
    ```
    """

    name = "isa.fc"
    shift = prop_def(IntegerAttr[I64], default_value=i64_attr(0))
    dataflow = i64_array_def("dataflow", i64_array(()))

    INPUT_ROLES: ClassVar[tuple[str, ...]] = ("input", "weight")
    CLAUSES: ClassVar[tuple[str, ...]] = ("shift", "dataflow")
    HAS_BIAS: ClassVar[bool] = True
    ACTIVATES: ClassVar[bool] = True

    def verify_shapes(self) -> None:
        source, weight = self.inputs.data
        self.expect_int8(source, "input")
        self.expect_int8(weight, "weight")
        if weight.shape[1:] != source.shape[1:]:
            raise self.error(f"the weight {weight.tensor_type} must span the whole input {source.tensor_type}")
        self.expect_output_shape((source.shape[0], 1, 1, weight.shape[0]))


@irdl_op_definition
class AvgPoolOp(WindowInstruction):
    """
    Average pooling as a window sum plus bias (task.avgpool); the shift divides.

    ```mlir
    isa.avgpool 0 : tensor<1x8x8x16xi8> -> 1024 : tensor<1x4x4x16xi8> window [2, 2]
        stride [2, 2] shift 2
    ```
    """

    name = "isa.avgpool"
    window = i64_array_def("window")
    shift = prop_def(IntegerAttr[I64], default_value=i64_attr(0))

    INPUT_ROLES: ClassVar[tuple[str, ...]] = ("input",)
    CLAUSES: ClassVar[tuple[str, ...]] = ("window", "stride", "pad", "shift")
    HAS_BIAS: ClassVar[bool] = True


@irdl_op_definition
class MaxPoolOp(WindowInstruction):
    """
    Max pooling (task.maxpool): max(cmp, window max) >> shift; padding never wins.

    ```mlir
    isa.maxpool 0 : tensor<1x8x8x16xi8> -> 1024 : tensor<1x4x4x16xi8> window [2, 2] stride [2, 2]
    ```
    """

    name = "isa.maxpool"
    window = i64_array_def("window")
    cmp = prop_def(IntegerAttr[I64], default_value=i64_attr(-128))
    shift = prop_def(IntegerAttr[I64], default_value=i64_attr(0))

    INPUT_ROLES: ClassVar[tuple[str, ...]] = ("input",)
    CLAUSES: ClassVar[tuple[str, ...]] = ("window", "stride", "pad", "cmp", "shift")


@irdl_op_definition
class ReluOp(ComputeInstruction):
    """
    ReLU (task.relu): max(input, cmp) >> shift, also int32 → int8 requantization.

    ```mlir
    isa.relu 0 : tensor<1x8x8x16xi32> -> 4096 : tensor<1x8x8x16xi8> shift 8
    ```
    """

    name = "isa.relu"
    cmp = prop_def(IntegerAttr[I64], default_value=i64_attr(0))
    shift = prop_def(IntegerAttr[I64], default_value=i64_attr(0))

    INPUT_ROLES: ClassVar[tuple[str, ...]] = ("input",)
    CLAUSES: ClassVar[tuple[str, ...]] = ("cmp", "shift")

    def verify_shapes(self) -> None:
        self.expect_output_shape(self.inputs.data[0].shape)


@irdl_op_definition
class LutOp(ComputeInstruction):
    """
    Table lookup (task.lut): output = table[input as an unsigned byte].

    ```mlir
    isa.lut 0 : tensor<1x4x4x16xi8>, 256 : tensor<256xi8> -> 512 : tensor<1x4x4x16xi8>
    ```
    """

    name = "isa.lut"

    INPUT_ROLES: ClassVar[tuple[str, ...]] = ("input", "table")

    def verify_shapes(self) -> None:
        source, table = self.inputs.data
        self.expect_int8(source, "input")
        if table.element_bits != 8 or table.shape != (256,):
            raise self.error(f"the table is tensor<256xi8>, got {table.tensor_type}")
        if self.output.element_bits != 8:
            raise self.error(f"the output is i8, got {self.output.tensor_type}")
        self.expect_output_shape(source.shape)


@irdl_op_definition
class AddOp(ComputeInstruction):
    """
    Sum of branches plus bias (task.add).

    ```mlir
    isa.add 0 : tensor<1x4x4x16xi8>, 256 : tensor<1x4x4x16xi8> -> 512 : tensor<1x4x4x16xi8> shift 1
    ```
    """

    name = "isa.add"
    shift = prop_def(IntegerAttr[I64], default_value=i64_attr(0))

    INPUT_ROLES: ClassVar[tuple[str, ...]] = ()
    CLAUSES: ClassVar[tuple[str, ...]] = ("shift",)
    HAS_BIAS: ClassVar[bool] = True

    def verify_shapes(self) -> None:
        for role, tile in zip(self.input_roles(), self.inputs, strict=True):
            self.expect_same_shape(tile, role)


@irdl_op_definition
class MulOp(ComputeInstruction):
    """
    Elementwise product of two i8 tiles plus bias (task.mul).

    ```mlir
    isa.mul 0 : tensor<1x4x4x16xi8>, 256 : tensor<1x4x4x16xi8> -> 512 : tensor<1x4x4x16xi8> shift 7
    ```
    """

    name = "isa.mul"
    shift = prop_def(IntegerAttr[I64], default_value=i64_attr(0))

    INPUT_ROLES: ClassVar[tuple[str, ...]] = ("lhs", "rhs")
    CLAUSES: ClassVar[tuple[str, ...]] = ("shift",)
    HAS_BIAS: ClassVar[bool] = True

    def verify_shapes(self) -> None:
        for role, tile in zip(self.INPUT_ROLES, self.inputs, strict=True):
            self.expect_int8(tile, role)
            self.expect_same_shape(tile, role)
