"""
Whole-op printing, the reverse of the whole-op reading of this package: `LinePrinter` is
xDSL's `Printer`, except that a `task` block without discardable attributes is written as
one string built from its fields, the text its own `print` writes through some twenty
printer calls. A split or a fit makes tens of thousands of such blocks; xDSL's printer
spends some 70 µs on each.

    LinePrinter(stream=out).print_op(module)   # the text Printer(stream=out) prints

Values are named as `Printer.print_ssa_value` names them (a name hint, then `_1`, `_2`,
...; else the next number), in the same order: the results, then the operands as printed.
Anything else (other ops, a block with attributes, inline `dense<...>` data, a string that
needs escapes, the generic form, locations, diagnostics) is printed by xDSL's printer
(tests/unit/test_op_printer.py compares both on every lit test and zoo network).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from xdsl.ir import Operation, SSAValue
from xdsl.printer import Printer

from stc.dialects.syntax import clauses_text, format_int_list, type_text
from stc.dialects.task import (
    AddOp,
    AvgPoolOp,
    BiasOp,
    BufferOp,
    ComputeBlock,
    ConvOp,
    DataOp,
    FcOp,
    InputOp,
    LutOp,
    MaxPoolOp,
    MulOp,
    NpzDataAttr,
    OutputOp,
    RandomDataAttr,
    ReluOp,
    TableOp,
    WeightOp,
)
from stc.dialects.task.attrs import format_box

PLAIN = re.compile(r"[ !#-\[\]-~]*+")
"""A string that `print_string_literal` writes as it is, between quotes."""

Name = Callable[[SSAValue], str]


class LinePrinter(Printer):
    """xDSL's printer, writing each plain `task` block in one string (see the module)."""

    def print_op(self, op: Operation) -> None:
        if (
            op.attributes
            or self.print_generic_format
            or self.print_debuginfo
            or self.print_properties_as_attributes
            or op in self.diagnostic.op_messages
            or (write := WRITERS.get(type(op))) is None
        ):
            super().print_op(op)
            return
        results = "".join(f"%{self.value_name(result)} = " for result in op.results)
        if (text := write(op, self.value_name)) is None:
            super().print_op(op)  # its results are named now, as xDSL's printer leaves them
            return
        self.print_string(f"{results}{op.name}{text}")

    def value_name(self, value: SSAValue) -> str:
        """The name of `value` (without `%`), given as `print_ssa_value` gives it."""
        if (name := self._ssa_values.get(value)) is not None:
            return name
        hint = value.name_hint
        if hint:
            names = self.ssa_names
            index = names.get(hint, 0)
            name = f"{hint}_{index}" if index else hint
            names[hint] = index + 1
        else:
            name = self._get_new_valid_name_id()
        self._ssa_values[value] = name
        return name


def compute_text(op: Operation, name: Name) -> str | None:
    """What `ComputeBlock.print` writes after the op's name."""
    assert isinstance(op, ComputeBlock)
    bias = op.optional_bias
    operands = ", ".join(f"%{name(value)}" for value in op.operands if value is not bias)
    text = [f" {op.task_id} {operands}"]
    if bias is not None:
        text.append(f" bias %{name(bias)}")
    text.append(clauses_text(op, op.CLAUSES))
    text.append(f" : {type_text(op.result.type)}")
    return "".join(text)


def buffer_text(op: Operation, name: Name) -> str:
    """What `BufferOp.print` writes after the op's name."""
    assert isinstance(op, BufferOp)
    sources: list[str] = []
    for source, box, offset in zip(op.sources, op.boxes, op.offsets, strict=True):
        text = f"%{name(source)}"
        shift = offset.get_values()
        if any(shift) or not box.covers(source.type.get_shape()):  # pyright: ignore[reportAttributeAccessIssue]
            text += format_box(box)
        if any(shift):
            text += f" at {format_int_list(shift)}"
        sources.append(text)
    return f" {op.task_id} {op.kind.data.value} {', '.join(sources)} : {type_text(op.result.type)}"


def data_text(op: Operation, name: Name) -> str | None:
    """What `DataOp.print` writes after the op's name, for random and npz data."""
    assert isinstance(op, DataOp)
    data = op.data
    if isinstance(data, RandomDataAttr):
        reference = f"#task.random<{data.data}>"
    elif isinstance(data, NpzDataAttr) and PLAIN.fullmatch(data.path) and PLAIN.fullmatch(data.key):
        reference = f'#task.npz<"{data.path}", "{data.key}">'
    else:
        return None
    box = "" if op.box is None else format_box(op.box)
    return f" {op.task_id} {reference} : {type_text(op.full_type)}{box}"


def input_text(op: Operation, name: Name) -> str | None:
    """What `InputOp.print` writes after the op's name."""
    assert isinstance(op, InputOp)
    if not PLAIN.fullmatch(text := op.input_name.data):
        return None
    return f' {op.task_id} "{text}" : {type_text(op.result.type)}'


def output_text(op: Operation, name: Name) -> str | None:
    """What `OutputOp.print` writes after the op's name."""
    assert isinstance(op, OutputOp)
    if not PLAIN.fullmatch(text := op.output_name.data):
        return None
    return f' {op.task_id} "{text}" %{name(op.source)}'


WRITERS: dict[type[Operation], Callable[[Operation, Name], str | None]] = {
    **{op: compute_text for op in (ConvOp, FcOp, AvgPoolOp, MaxPoolOp, ReluOp, LutOp, AddOp, MulOp)},
    BufferOp: buffer_text,
    WeightOp: data_text,
    BiasOp: data_text,
    TableOp: data_text,
    InputOp: input_text,
    OutputOp: output_text,
}
"""The text after the name of each `task` block, or None where xDSL's printer writes it."""
