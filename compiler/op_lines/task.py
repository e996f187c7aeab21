"""
Whole-op readers of the `task` dialect's blocks (see `stc.compiler.op_lines`): each
matches the text the op's `print` writes and builds the op its `parse` builds, with the
same operands, properties in the same order and the same result type.

```mlir
%4 = task.conv 372 %1, %2 bias %3 stride [2, 2] pad [3, 0, 3, 0] shift 11 : tensor<1x56x16x64xi8>
%1 = task.buffer 369 sic %0[0:1, 0:114, 0:34, 0:3] at [0, 2, 0, 0] : tensor<1x114x34x3xi8>
%2 = task.weight 370 #task.random<1> : tensor<64x7x7x3xi8>[0:32, 0:7, 0:7, 0:3]
```
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, StringAttr, TensorType, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import AttrSizedOperandSegments

from stc.compiler.op_lines import Build, OpLines, Reader
from stc.compiler.rules.blocks import box_problem
from stc.compiler.spelling import (
    BUFFER_TEXT,
    CLAUSE_TEXT,
    COMPUTE_TEXT,
    DATA_TEXT,
    INPUT_TEXT,
    INTERVAL_TEXT,
    OUTPUT_TEXT,
    SOURCE_TEXT,
    ints_of,
)
from stc.dialects.created import created
from stc.dialects.integers import i64_array, i64_attr
from stc.dialects.prechecked import prechecked
from stc.dialects.syntax import clause_default
from stc.dialects.task import (
    AddOp,
    AvgPoolOp,
    BiasOp,
    BufferOp,
    ComputeBlock,
    ConvOp,
    FcOp,
    InputOp,
    LutOp,
    MaxPoolOp,
    MulOp,
    NpzDataAttr,
    OutputOp,
    RandomDataAttr,
    ReluOp,
    StorageKind,
    StorageKindAttr,
    TableOp,
    WeightOp,
)
from stc.dialects.task.attrs import BoxAttr
from stc.dialects.task.base import tensor_shape
from stc.dialects.task.storage import NO_ENCODING


def values(lines: OpLines, names: Sequence[str]) -> list[SSAValue] | None:
    found = [lines.value(name) for name in names]
    return None if None in found else found  # pyright: ignore[reportReturnType]


def box(lines: OpLines, text: str) -> BoxAttr | None:
    """The box of `[lo:hi, ...]`, if every interval is one (else xDSL's parser reports it)."""
    if (known := lines.attributes.get(text)) is None:
        intervals = tuple((int(lo), int(hi)) for lo, hi in INTERVAL_TEXT.findall(text))
        if box_problem(intervals):
            return None
        known = lines.attributes[text] = prechecked(BoxAttr, intervals)  # checked as BoxAttr.verify checks
    assert isinstance(known, BoxAttr)
    return known


def read_compute(lines: OpLines, op_type: type[Operation], start: int) -> tuple[Build, int] | None:
    """`ID OPERANDS (bias %b)? (CLAUSE VALUE)* : TYPE`, as `ComputeBlock.parse` reads it."""
    assert issubclass(op_type, ComputeBlock)
    if (match := COMPUTE_TEXT.match(lines.text, start)) is None:
        return None
    result_type = lines.tensor_type(match["type"])
    operands = values(lines, [name[1:] for name in match["operands"].split(", ")])
    if operands is None:
        return None
    groups: list[list[SSAValue]]
    if op_type.OPERAND_NAMES == ("inputs",):
        groups = [operands]
    elif len(operands) != len(op_type.OPERAND_NAMES):
        return None
    else:
        groups = [[operand] for operand in operands]
    if op_type.has_bias():
        bias = [] if match["bias"] is None else values(lines, [match["bias"]])
        if bias is None:
            return None
        groups.append(bias)
    elif match["bias"] is not None:
        return None
    properties: dict[str, Attribute] = {"id": i64_attr(int(match["id"]))}
    for clause, value in CLAUSE_TEXT.findall(match["clauses"]):
        if clause not in op_type.CLAUSES or clause in properties:
            return None
        single = isinstance(clause_default(op_type, clause), IntegerAttr)
        if single == value.startswith("["):
            return None
        properties[clause] = i64_attr(int(value)) if single else i64_array(ints_of(value))
    if any(c not in properties and clause_default(op_type, c) is None for c in op_type.CLAUSES):
        return None
    if any(isinstance(option, AttrSizedOperandSegments) for option in op_type.get_irdl_definition().options):
        sizes = [len(group) for group in groups]
        properties[AttrSizedOperandSegments.attribute_name] = DenseArrayBase.from_list(i32, sizes)
    flat = [value for group in groups for value in group]

    def build(attributes: dict[str, Attribute]) -> Operation:
        return created(op_type, operands=flat, result_types=[result_type], properties=properties, attributes=attributes)

    return build, match.end()


def read_buffer(lines: OpLines, op_type: type[Operation], start: int) -> tuple[Build, int] | None:
    """`ID KIND %SOURCE([BOX])?( at [OFFSET])?, ... : TYPE`, as `BufferOp.parse` reads it."""
    if (match := BUFFER_TEXT.match(lines.text, start)) is None:
        return None
    result_type = lines.tensor_type(match["type"])
    operands: list[SSAValue] = []
    boxes: list[BoxAttr] = []
    offsets: list[DenseArrayBase] = []
    for name, box_text, offset_text in SOURCE_TEXT.findall(match["sources"]):
        if (source := lines.value(name)) is None:
            return None
        if box_text:
            if (read_box := box(lines, box_text)) is None:
                return None
        else:
            if not isinstance(source.type, TensorType) or min(shape := tensor_shape(source.type), default=1) < 1:
                return None
            read_box = box(lines, "[" + ", ".join(f"0:{size}" for size in shape) + "]")
            assert read_box is not None
        operands.append(source)
        boxes.append(read_box)
        offsets.append(i64_array(ints_of(offset_text) if offset_text else (0,) * len(read_box.data)))
    properties: dict[str, Attribute] = {
        "id": i64_attr(int(match["id"])),
        "kind": kind_attr(match["kind"]),
        "boxes": lines.array(boxes),
        "offsets": lines.array(offsets),
    }

    def build(attributes: dict[str, Attribute]) -> Operation:
        return created(
            op_type, operands=operands, result_types=[result_type], properties=properties, attributes=attributes
        )

    return build, match.end()


KINDS = {kind.value: StorageKindAttr(kind) for kind in StorageKind}


def kind_attr(text: str) -> StorageKindAttr:
    return KINDS[text]


def read_data(lines: OpLines, op_type: type[Operation], start: int) -> tuple[Build, int] | None:
    """`ID #task.random<SEED> : TYPE([BOX])?` or `ID #task.npz<"path", "key"> : ...`, as
    `DataOp.parse` reads it (inline `dense<...>` data goes to xDSL's parser)."""
    if (match := DATA_TEXT.match(lines.text, start)) is None:
        return None
    full_type = lines.tensor_type(match["type"])
    if match["seed"] is None and (match["path"] == '""' or match["key"] == '""'):
        return None
    if (data := lines.attributes.get(spelled := match["data"])) is None:
        if match["seed"] is not None:
            data = RandomDataAttr(int(match["seed"]))
        else:
            data = NpzDataAttr((match["path"][1:-1], match["key"][1:-1]))
        lines.attributes[spelled] = data
    properties: dict[str, Attribute] = {"id": i64_attr(int(match["id"])), "data": data, "full_type": full_type}
    shape = full_type.get_shape()
    if match["box"] is None:
        result_type = full_type if full_type.encoding == NO_ENCODING else TensorType(full_type.element_type, shape)
    else:
        if (read_box := box(lines, match["box"])) is None:
            return None
        properties["box"] = read_box
        result_type = box_type(lines, full_type, match["type"] + match["box"], read_box)

    def build(attributes: dict[str, Attribute]) -> Operation:
        return created(op_type, result_types=[result_type], properties=properties, attributes=attributes)

    return build, match.end()


def box_type(lines: OpLines, full_type: TensorType, text: str, read_box: BoxAttr) -> Attribute:
    """The type of the box `read_box` (spelled `text`, type and box) of data of `full_type`,
    built once per spelling."""
    if (known := lines.attributes.get(text)) is None:
        known = lines.attributes[text] = TensorType(full_type.get_element_type(), read_box.shape)
    return known


def read_input(lines: OpLines, op_type: type[Operation], start: int) -> tuple[Build, int] | None:
    """`ID "NAME" : TYPE`, as `InputOp.parse` reads it."""
    if (match := INPUT_TEXT.match(lines.text, start)) is None:
        return None
    result_type = lines.tensor_type(match["type"])
    properties = {"id": i64_attr(int(match["id"])), "name": StringAttr(match["name"][1:-1])}

    def build(attributes: dict[str, Attribute]) -> Operation:
        return created(op_type, result_types=[result_type], properties=properties, attributes=attributes)

    return build, match.end()


def read_output(lines: OpLines, op_type: type[Operation], start: int) -> tuple[Build, int] | None:
    """`ID "NAME" %SOURCE`, as `OutputOp.parse` reads it."""
    if (match := OUTPUT_TEXT.match(lines.text, start)) is None:
        return None
    if (source := lines.value(match["source"])) is None:
        return None
    properties = {"id": i64_attr(int(match["id"])), "name": StringAttr(match["name"][1:-1])}

    def build(attributes: dict[str, Attribute]) -> Operation:
        return created(op_type, operands=[source], properties=properties, attributes=attributes)

    return build, match.end()


READERS: dict[type[Operation], Reader] = {
    **{op: read_compute for op in (ConvOp, FcOp, AvgPoolOp, MaxPoolOp, ReluOp, LutOp, AddOp, MulOp)},
    BufferOp: read_buffer,
    WeightOp: read_data,
    BiasOp: read_data,
    TableOp: read_data,
    InputOp: read_input,
    OutputOp: read_output,
}
