"""
Constant data blocks of the `task` dialect: weights, biases and lookup tables, each a
reference to a whole tensor (random, an npz array or inline `dense<...>`) and the box of it
the block holds, with the syntax of that reference, which the `isa` level shares.

```mlir
%w0 = task.weight 12 #task.random<7> : tensor<32x3x3x16xi8>[0:16, 0:3, 0:3, 0:16]
```
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    TensorType,
)
from xdsl.irdl import (
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from stc.compiler.rules.blocks import data_box_problem, table_problem
from stc.dialects.integers import i64_attr
from stc.dialects.syntax import (
    parse_i64,
    parse_tensor_type,
    print_attr_dict,
    print_type,
)
from stc.dialects.task.attrs import (
    BoxAttr,
    NpzDataAttr,
    RandomDataAttr,
    box_shape,
    format_box,
    parse_optional_box,
)
from stc.dialects.task.base import StorageOp, check_tensor, tensor_shape
from stc.dialects.task.storage import NO_ENCODING

DataReference = RandomDataAttr | NpzDataAttr | DenseIntOrFPElementsAttr


def parse_data_reference(parser: Parser) -> tuple[DataReference, TensorType, BoxAttr | None]:
    """
    Parse the data a constant block holds: a reference, the type of the whole tensor
    (which `dense<...>` carries itself) and an optional box of it.

        #task.random<7> : tensor<32x3x3x16xi8>[0:16, 0:3, 0:3, 0:16]
    """
    start = parser.pos
    data = parser.parse_attribute()
    if isinstance(data, DenseIntOrFPElementsAttr):
        full_type = data.type
    elif isinstance(data, RandomDataAttr | NpzDataAttr):
        parser.parse_punctuation(":")
        full_type = parse_tensor_type(parser)
    else:
        parser.raise_error("expected #task.random<seed>, #task.npz<path, key> or dense<...>", start, parser.pos)
    if not isinstance(full_type, TensorType):
        parser.raise_error("data must be a tensor", start, parser.pos)
    box = parse_optional_box(parser)
    return data, full_type, None if box is None else BoxAttr(box)


def print_data_reference(printer: Printer, data: DataReference, full_type: TensorType, box: BoxAttr | None) -> None:
    """Print what `parse_data_reference` parses."""
    printer.print_attribute(data)
    if not isinstance(data, DenseIntOrFPElementsAttr):
        printer.print_string(" : ")
        print_type(printer, full_type)
    if box is not None:
        printer.print_string(format_box(box))


class DataOp(StorageOp):
    """
    A block of constant data: a reference to the whole tensor (`data`, of `full_type`)
    and the box of it this block holds. Splitting never copies data, it narrows the box.
    """

    data = prop_def(RandomDataAttr | NpzDataAttr | DenseIntOrFPElementsAttr)
    full_type = prop_def(TensorType)
    box = opt_prop_def(BoxAttr)
    result = result_def(TensorType)

    RANK: ClassVar[int]
    ELEMENT_WIDTHS: ClassVar[tuple[int, ...]]

    def __init__(self, task_id: int, data: DataReference, full_type: TensorType, box: BoxAttr | None = None):
        shape = full_type.get_shape() if box is None else box.shape
        super().__init__(
            properties={"id": i64_attr(task_id), "data": data, "full_type": full_type, "box": box},
            result_types=[TensorType(full_type.get_element_type(), shape)],
        )

    @property
    def region(self) -> BoxAttr:
        """The box of the whole tensor this block holds."""
        return self.box or BoxAttr.whole(self.full_type.get_shape())

    @classmethod
    def parse(cls, parser: Parser) -> DataOp:
        task_id = parse_i64(parser, "block id")
        op = cls(task_id, *parse_data_reference(parser))
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.task_id} ")
        print_data_reference(printer, self.data, self.full_type, self.box)
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        check_tensor(self, "data", self.full_type, self.RANK, self.ELEMENT_WIDTHS)
        if isinstance(self.data, DenseIntOrFPElementsAttr) and self.data.type != self.full_type:
            raise self.error(f"dense data of type {self.data.type} does not match {self.full_type}")
        full_shape = tensor_shape(self.full_type)
        if problem := data_box_problem(None if self.box is None else self.box.data, full_shape):
            raise self.error(problem)
        result = self.result.type
        shape = full_shape if self.box is None else box_shape(self.box)
        element = self.full_type.get_element_type()
        if tensor_shape(result) != shape or result.get_element_type() != element or result.encoding != NO_ENCODING:
            raise self.error(
                f"result {result} must be {TensorType(element, shape)}, "
                f"the type of box {format_box(self.region)} of the data"
            )


@irdl_op_definition
class WeightOp(DataOp):
    """
    Weights of a conv or fc (TianjicX SW/SWFC), int8 in F×Ky×Kx×R order.

    ```mlir
    %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
    %w0 = task.weight 12 #task.random<7> : tensor<32x3x3x16xi8>[0:16, 0:3, 0:3, 0:16]
    ```
    """

    name = "task.weight"
    RANK: ClassVar[int] = 4
    ELEMENT_WIDTHS: ClassVar[tuple[int, ...]] = (8,)


@irdl_op_definition
class BiasOp(DataOp):
    """
    A per-channel int32 bias (TianjicX SB).

    ```mlir
    %b = task.bias 3 #task.random<8> : tensor<32xi32>
    ```
    """

    name = "task.bias"
    RANK: ClassVar[int] = 1
    ELEMENT_WIDTHS: ClassVar[tuple[int, ...]] = (32,)


@irdl_op_definition
class TableOp(DataOp):
    """
    A 256-entry int8 lookup table (TianjicX SB feeding a CLUT), indexed by the unsigned
    byte of the input value. Splitting a lookup never splits its table.

    ```mlir
    %t = task.table 4 #task.random<9> : tensor<256xi8>
    %zero = task.table 5 dense<0> : tensor<256xi8>
    ```
    """

    name = "task.table"
    RANK: ClassVar[int] = 1
    ELEMENT_WIDTHS: ClassVar[tuple[int, ...]] = (8,)

    def verify_(self) -> None:
        super().verify_()
        if problem := table_problem(self.full_type.get_shape(), self.box is not None, self.result.type):
            raise self.error(problem)
