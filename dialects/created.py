"""
Ops built without xDSL's generic builder (`irdl_op_init`), which normalises every
argument list against the op's definition: a third to a half of building an op. For ops
without successors or regions, whose arguments their builder already holds as xDSL
would store them. The fields are those `Operation.__init__` sets, set directly, with the
defaults of properties not given added in declaration order, as
`IRDLOperation.__post_init__` adds them (tests/unit/test_op_lines.py compares the two).

    created(ReluOp, operands=[value], result_types=[typ], properties={"id": i64_attr(3)})
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TypeVar

from xdsl.dialects.builtin import UNKNOWN_LOC
from xdsl.ir import Attribute, OpResult, SSAValue, SSAValues, Use
from xdsl.irdl import IRDLOperation, OptionalDef

OpType = TypeVar("OpType", bound=IRDLOperation)


def created(
    op_type: type[OpType],
    operands: Sequence[SSAValue] = (),
    result_types: Sequence[Attribute] = (),
    properties: dict[str, Attribute] | None = None,
    attributes: dict[str, Attribute] | None = None,
) -> OpType:
    """`op_type.create(...)` for an op without successors or regions, at half its cost.
    `properties` becomes the op's."""
    op = op_type.__new__(op_type)
    filled(op, operands, result_types, properties, attributes)
    return op


def filled(
    op: IRDLOperation,
    operands: Sequence[SSAValue] = (),
    result_types: Sequence[Attribute] = (),
    properties: dict[str, Attribute] | None = None,
    attributes: dict[str, Attribute] | None = None,
) -> None:
    """Set the fields of `op`, allocated and not yet initialised, as `created` does: what
    an op's own constructor calls instead of `IRDLOperation.__init__`."""
    op._operands = SSAValues(operands)  # pyright: ignore[reportPrivateUsage]
    uses = tuple(Use(op, index) for index in range(len(operands)))
    for operand, use in zip(operands, uses, strict=True):
        operand.add_use(use)
    op._operand_uses = uses  # pyright: ignore[reportPrivateUsage]
    op.results = SSAValues(OpResult(typ, op, index) for index, typ in enumerate(result_types))
    properties = {} if properties is None else properties
    for name, default in property_defaults(type(op)):
        if name not in properties:
            properties[name] = default
    op.properties = properties
    op.attributes = {} if attributes is None else attributes
    op.location = UNKNOWN_LOC
    op._successors = ()  # pyright: ignore[reportPrivateUsage]
    op._successor_uses = ()  # pyright: ignore[reportPrivateUsage]
    op.regions = ()


@cache
def property_defaults(op_type: type[IRDLOperation]) -> list[tuple[str, Attribute]]:
    """The default of each property of `op_type` that has one, as `IRDLOperation.__post_init__` adds them."""
    return [
        (name, d.default_value)
        for name, d in op_type.get_irdl_definition().properties.items()
        if not isinstance(d, OptionalDef) and d.default_value is not None
    ]
