"""
Storage blocks of the `task` dialect: network inputs and outputs and activation buffers.
The constant data blocks (weights, biases, lookup tables) are in `data.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    DenseArrayBase,
    NoneAttr,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from stc.compiler.rules.blocks import consumers_problem, source_problem
from stc.compiler.rules.tiling import tiling_error
from stc.dialects.integers import array_values, i64_array, i64_attr
from stc.dialects.syntax import (
    format_int_list,
    parse_defined_operand,
    parse_i64,
    parse_int_list,
    parse_tensor_type,
    print_attr_dict,
    print_type,
)
from stc.dialects.task.attrs import (
    BoxAttr,
    StorageKind,
    StorageKindAttr,
    box_shape,
    format_box,
    parse_optional_box,
)
from stc.dialects.task.base import ComputeOp, StorageOp, check_tensor, task_id_of, tensor_shape

NO_ENCODING = NoneAttr()
"""The encoding of every tensor a task graph holds."""


@irdl_op_definition
class InputOp(StorageOp):
    """
    A network input (TianjicX INPUT). Users hand it over in NCHW; inside the graph it is
    the NHWC tensor of the result type.

    ```mlir
    %x = task.input 0 "image" : tensor<1x224x224x3xi8>
    ```
    """

    name = "task.input"
    input_name = prop_def(StringAttr, prop_name="name")
    result = result_def(TensorType)

    RANK: ClassVar[int] = 4
    ELEMENT_WIDTHS: ClassVar[tuple[int, ...]] = (8,)

    def __init__(self, task_id: int, input_name: str, typ: TensorType):
        super().__init__(
            properties={"id": i64_attr(task_id), "name": StringAttr(input_name)},
            result_types=[typ],
        )

    @classmethod
    def parse(cls, parser: Parser) -> InputOp:
        task_id = parse_i64(parser, "block id")
        input_name = parser.parse_str_literal(" for the input name")
        parser.parse_punctuation(":")
        op = cls(task_id, input_name, parse_tensor_type(parser))
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.task_id} ")
        printer.print_string_literal(self.input_name.data)
        printer.print_string(" : ")
        print_type(printer, self.result.type)
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        check_tensor(self, "an input", self.result.type, self.RANK, self.ELEMENT_WIDTHS)


@irdl_op_definition
class OutputOp(StorageOp):
    """
    A network output (TianjicX OUTPUT): reads a buffer and hands it to the user in NCHW.

    ```mlir
    task.output 9 "logits" %out
    ```
    """

    name = "task.output"
    output_name = prop_def(StringAttr, prop_name="name")
    source = operand_def(TensorType)

    def __init__(self, task_id: int, output_name: str, source: SSAValue | Operation):
        super().__init__(
            properties={"id": i64_attr(task_id), "name": StringAttr(output_name)},
            operands=[source],
        )

    @classmethod
    def parse(cls, parser: Parser) -> OutputOp:
        task_id = parse_i64(parser, "block id")
        output_name = parser.parse_str_literal(" for the output name")
        op = cls(task_id, output_name, parse_defined_operand(parser))
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.task_id} ")
        printer.print_string_literal(self.output_name.data)
        printer.print_string(" ")
        printer.print_operand(self.source)
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        if not isinstance(self.source.owner, BufferOp):
            raise self.error("an output reads an activation buffer (task.buffer)")


@irdl_op_definition
class BufferOp(StorageOp):
    """
    An activation buffer (TianjicX SI, SIC, SIFC or SO), assembled from boxes of its
    producers' results. Each source names a box of the producer's result and the offset
    in the buffer where that box lands; the boxes tile the buffer exactly. Halo rows,
    replication, concatenation and partial outputs are all expressed this way. A buffer
    feeds one operand of at most one compute block (plus any number of outputs).

    ```mlir
    %in = task.buffer 3 sic %x : tensor<1x8x8x16xi8>
    %cat = task.buffer 7 si %a, %b[0:1, 0:8, 0:8, 0:16] at [0, 0, 0, 16] : tensor<1x8x8x32xi8>
    ```
    """

    name = "task.buffer"
    kind = prop_def(StorageKindAttr)
    sources = var_operand_def(TensorType)
    boxes = prop_def(ArrayAttr[BoxAttr])
    """Per source: the box of the producer's result that is read."""
    offsets = prop_def(ArrayAttr[DenseArrayBase[I64]])
    """Per source: where the box lands in the buffer."""
    result = result_def(TensorType)

    RANK: ClassVar[int] = 4
    ELEMENT_WIDTHS: ClassVar[tuple[int, ...]] = (8, 32)

    def __init__(
        self,
        task_id: int,
        kind: StorageKind,
        sources: Sequence[tuple[SSAValue | Operation, BoxAttr, Sequence[int]]],
        typ: TensorType,
    ):
        # One operand group and no optional property: xDSL's generic builder, which sorts
        # values into groups and drops absent properties, would leave these as they are.
        Operation.__init__(
            self,
            operands=[SSAValue.get(source) for source, _, _ in sources],
            properties={
                "id": i64_attr(task_id),
                "kind": StorageKindAttr(kind),
                "boxes": ArrayAttr(box for _, box, _ in sources),
                "offsets": ArrayAttr(i64_array(offset) for _, _, offset in sources),
            },
            result_types=[typ],
        )

    @staticmethod
    def whole(task_id: int, kind: StorageKind, source: SSAValue | Operation) -> BufferOp:
        """A buffer holding the whole result of one producer."""
        typ = SSAValue.get(source).type
        assert isinstance(typ, TensorType)
        shape = typ.get_shape()
        return BufferOp(task_id, kind, [(source, BoxAttr.whole(shape), (0,) * len(shape))], typ)

    @property
    def pieces(self) -> list[tuple[SSAValue, BoxAttr, tuple[int, ...]]]:
        """(source, box, offset) of every source."""
        return [
            (source, box, array_values(offset))
            for source, box, offset in zip(self.sources, self.boxes, self.offsets, strict=True)
        ]

    @classmethod
    def parse(cls, parser: Parser) -> BufferOp:
        task_id = parse_i64(parser, "block id")
        kind = StorageKind(parser.parse_keyword_in([k.value for k in StorageKind], " as the storage kind"))
        sources: list[tuple[SSAValue, BoxAttr, Sequence[int]]] = []
        while True:
            start = parser.pos
            source = parse_defined_operand(parser)
            box = parse_optional_box(parser)
            if box is None:
                if not isinstance(source.type, TensorType) or min(source.type.get_shape(), default=1) < 1:
                    parser.raise_error(
                        f"a source without a box is read whole, which needs static, positive dimensions, "
                        f"got {source.type}",
                        start,
                        parser.pos,
                    )
                box = BoxAttr.whole(source.type.get_shape()).data
            offset = parse_int_list(parser, "offset") if parser.parse_optional_keyword("at") else (0,) * len(box)
            sources.append((source, BoxAttr(box), offset))
            if parser.parse_optional_punctuation(",") is None:
                break
        parser.parse_punctuation(":")
        op = cls(task_id, kind, sources, parse_tensor_type(parser))
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.task_id} {self.kind.data.value} ")
        for index, (source, box, offset) in enumerate(self.pieces):
            if index:
                printer.print_string(", ")
            printer.print_operand(source)
            source_type = source.type
            assert isinstance(source_type, TensorType)
            if not box.covers(source_type.get_shape()) or any(offset):
                printer.print_string(format_box(box))
            if any(offset):
                printer.print_string(f" at {format_int_list(offset)}")
        printer.print_string(" : ")
        print_type(printer, self.result.type)
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        result_type = self.result.type
        check_tensor(self, "a buffer", result_type, self.RANK, self.ELEMENT_WIDTHS)
        sources, boxes, offsets = self.operands, self.boxes.data, self.offsets.data
        if not len(sources) == len(boxes) == len(offsets):
            raise self.error(
                f"{len(sources)} sources need as many boxes and offsets, got {len(boxes)} and {len(offsets)}"
            )
        element = result_type.element_type
        placed: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        for index, (source, box, offset_values) in enumerate(zip(sources, boxes, offsets, strict=True)):
            offset = array_values(offset_values)
            self._verify_source(index, source, box, offset, element)
            placed.append((offset, box_shape(box)))
        if problem := tiling_error(tensor_shape(result_type), placed):
            raise self.error(f"sources do not tile the buffer: {problem}")
        self._verify_consumers()

    def _verify_source(
        self, index: int, source: SSAValue, box: BoxAttr, offset: Sequence[int], element: Attribute
    ) -> None:
        producer = source.owner
        if not isinstance(producer, ComputeOp | InputOp):
            raise self.error(
                f"source #{index} must be the result of a compute block or an input, "
                f"got {producer.name if isinstance(producer, Operation) else 'a block argument'}"
            )
        source_type = source.type
        assert isinstance(source_type, TensorType)
        check_tensor(self, f"source #{index}", source_type, self.RANK, self.ELEMENT_WIDTHS)
        source_element = source_type.element_type
        same = source_element is element or source_element == element
        shape = tensor_shape(source_type)
        if problem := source_problem(index, shape, same, source_element, element, box.data, offset, self.RANK):
            raise self.error(problem)

    def _verify_consumers(self) -> None:
        readers = [
            f"operand #{use.index} of {use.operation.name} {task_id_of(use.operation)}"
            for use in self.result.uses
            if not isinstance(use.operation, OutputOp)
        ]
        if problem := consumers_problem(self.kind.data.value, readers):
            raise self.error(problem)
