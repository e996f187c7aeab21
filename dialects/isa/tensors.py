"""
The global-memory declarations of an `isa.program`: network inputs and outputs
(`isa.input`, `isa.output`) and constant data (`isa.data`).
"""

from __future__ import annotations

import math
from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, irdl_op_definition, opt_prop_def, prop_def
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from stc.dialects.integers import i64_attr
from stc.dialects.isa.attrs import GlobalLayout, GlobalLayoutAttr
from stc.dialects.isa.base import held_by_program
from stc.dialects.syntax import TypeProperty, print_attr_dict
from stc.dialects.task.attrs import BoxAttr, NpzDataAttr, RandomDataAttr, format_box
from stc.dialects.task.data import DataReference, parse_data_reference, print_data_reference


@irdl_custom_directive
class Layout(CustomDirective):
    """The layout of a global tensor, a bare keyword: `nhwc`."""

    layout: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        layout = parser.parse_keyword_in([v.value for v in GlobalLayout], " layout")
        self.layout.set(state, GlobalLayoutAttr(GlobalLayout(layout)))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        layout = self.layout.get(op)
        assert isinstance(layout, GlobalLayoutAttr)
        state.print_whitespace(printer)
        printer.print_string(layout.data.value)


class NetworkTensorOp(IRDLOperation):
    """
    The shared form of `isa.input` and `isa.output`: a named int8 tensor that users hand
    over in NCHW (the declared type), stored from a global address in an NCHW or NHWC
    layout.

        isa.input "x" : tensor<1x16x8x8xi8> at 0 as nhwc
    """

    tensor_name = prop_def(StringAttr, prop_name="name")
    tensor_type = prop_def(TensorType, prop_name="type")
    address = prop_def(IntegerAttr[I64])
    layout = prop_def(GlobalLayoutAttr)
    traits = held_by_program()
    assembly_format = "$name `:` custom<TypeProperty>($type) `at` $address `as` custom<Layout>($layout) attr-dict"
    custom_directives = (TypeProperty, Layout)

    ROLE: ClassVar[str]
    ELEMENTS: ClassVar[tuple[int, ...]]
    """The element widths the tensor may have."""

    def __init__(self, name: str, tensor_type: TensorType[Attribute], address: int, layout: GlobalLayout):
        super().__init__(
            properties={
                "name": StringAttr(name),
                "type": tensor_type,
                "address": i64_attr(address),
                "layout": GlobalLayoutAttr(layout),
            }
        )

    @property
    def nchw_shape(self) -> tuple[int, ...]:
        return self.tensor_type.get_shape()

    @property
    def stored_shape(self) -> tuple[int, ...]:
        """The shape of the bytes in global memory, in their layout's order."""
        n, c, h, w = self.nchw_shape
        return (n, h, w, c) if self.layout.data == GlobalLayout.NHWC else (n, c, h, w)

    @property
    def start(self) -> int:
        return self.address.value.data

    @property
    def itemsize(self) -> int:
        return self.tensor_type.get_element_type().bitwidth // 8  # pyright: ignore[reportAttributeAccessIssue]

    @property
    def nbytes(self) -> int:
        return math.prod(self.nchw_shape) * self.itemsize

    def describe(self) -> str:
        return f'{self.ROLE} "{self.tensor_name.data}"'

    def verify_(self) -> None:
        element = self.tensor_type.get_element_type()
        shape = self.nchw_shape
        if len(shape) != 4 or min(shape) < 1 or element not in [IntegerType(bits) for bits in self.ELEMENTS]:
            kinds = " or ".join(f"i{bits}" for bits in self.ELEMENTS)
            raise VerifyException(
                f"{self.describe()}: network {self.ROLE}s are NCHW {kinds} tensors of rank 4, got {self.tensor_type}"
            )
        if self.start < 0:
            raise VerifyException(f"{self.describe()}: global address {self.start} is negative")


@irdl_op_definition
class InputOp(NetworkTensorOp):
    """
    A network input: the machine writes the user's NCHW array into global memory, in
    the declared layout, before phase 0.

    ```mlir
    isa.input "x" : tensor<1x16x8x8xi8> at 0 as nhwc
    ```
    """

    name = "isa.input"
    ROLE: ClassVar[str] = "input"
    ELEMENTS: ClassVar[tuple[int, ...]] = (8,)


@irdl_op_definition
class OutputOp(NetworkTensorOp):
    """
    A network output: after the last phase the machine reads it from global memory, in
    the declared layout, and hands it over in NCHW. Outputs are i8, or i32 where the
    network ends in raw partial sums.

    ```mlir
    isa.output "y" : tensor<1x32x8x8xi8> at 1024 as nchw
    ```
    """

    name = "isa.output"
    ROLE: ClassVar[str] = "output"
    ELEMENTS: ClassVar[tuple[int, ...]] = (8, 32)


DATA_KINDS = {(4, 8): "weight", (1, 32): "bias", (1, 8): "table"}
"""The kinds of constant data, by (rank, element bits), as the task dialect has them."""


@irdl_op_definition
class DataOp(IRDLOperation):
    """
    Constant data in global memory, initialised before phase 0: a box of a referenced
    tensor (`#task.random<seed>`, `#task.npz<path, key>` or `dense<...>`, exactly as a
    task weight, bias or table block holds it), stored densely in row-major order. The
    same reference and box give the same bytes as in the task graph.

    ```mlir
    isa.data #task.random<7> : tensor<32x3x3x16xi8>[0:16, 0:3, 0:3, 0:16] at 4096
    isa.data #task.random<8> : tensor<32xi32> at 8704
    ```
    """

    name = "isa.data"
    data = prop_def(RandomDataAttr | NpzDataAttr | DenseIntOrFPElementsAttr)
    full_type = prop_def(TensorType)
    box = opt_prop_def(BoxAttr)
    address = prop_def(IntegerAttr[I64])
    traits = held_by_program()

    def __init__(
        self,
        data: DataReference,
        full_type: TensorType[Attribute],
        address: int,
        box: BoxAttr | None = None,
    ):
        super().__init__(
            properties={
                "data": data,
                "full_type": full_type,
                "box": box,
                "address": i64_attr(address),
            }
        )

    @property
    def region(self) -> BoxAttr:
        return self.box or BoxAttr.whole(self.full_type.get_shape())

    @property
    def element_bits(self) -> int:
        element = self.full_type.get_element_type()
        return element.width.data if isinstance(element, IntegerType) else 0

    @property
    def kind(self) -> str | None:
        """`weight`, `bias` or `table`, as the task dialect would hold this data."""
        return DATA_KINDS.get((len(self.full_type.get_shape()), self.element_bits))

    @property
    def start(self) -> int:
        return self.address.value.data

    @property
    def nbytes(self) -> int:
        return math.prod(self.region.shape) * self.element_bits // 8

    def describe(self) -> str:
        return f"data at {self.start}"

    @classmethod
    def parse(cls, parser: Parser) -> DataOp:
        data, full_type, box = parse_data_reference(parser)
        parser.parse_keyword("at")
        address = parser.parse_integer(allow_boolean=False)
        op = cls(data, full_type, address, box)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_data_reference(printer, self.data, self.full_type, self.box)
        printer.print_string(f" at {self.start}")
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        if self.kind is None:
            raise VerifyException(
                f"{self.describe()}: data is a weight (rank 4, i8), a bias (rank 1, i32) or "
                f"a table (rank 1, i8), got {self.full_type}"
            )
        if isinstance(self.data, DenseIntOrFPElementsAttr) and self.data.type != self.full_type:
            raise VerifyException(f"{self.describe()}: dense data of type {self.data.type} is not {self.full_type}")
        if not self.region.inside(self.full_type.get_shape()):
            raise VerifyException(f"{self.describe()}: box {format_box(self.region)} is not inside {self.full_type}")
        if self.start < 0:
            raise VerifyException(f"{self.describe()}: global address {self.start} is negative")


GlobalOp = NetworkTensorOp | DataOp
"""A declared region of global memory."""
