"""
IRDL's verification of an op, compiled into plain predicates once per op definition.

xDSL verifies an op against its definition (`OpDef.verify`) by walking the definition's
constraints with a fresh `VerificationContext` every time: some 25 µs per op, as much as
the rest of reading it. `compile_checks(dialect)` gives each op definition of `dialect`
a predicate built from the same constraints (`isinstance` for a base, `==` for an
equality, one call per element of a range), which says whether IRDL accepts the op.
When it does, the op has passed; when it does not, or might not, xDSL's own verifier
runs and raises its own message. So the ops accepted and the errors are IRDL's, only
the common case is cheaper:

```python
Task = compile_checks(Dialect("task", [...], [...]))
op.verify()  # an op IRDL accepts: one predicate; one it rejects: xDSL's error, as before
```

The attribute and range constraints are compiled by `irdl_constraints.py`; operands
sized by a property (`task.add`'s) are split by its sizes; a definition with constraint
variables, other options or several variadic groups of one kind keeps xDSL's verifier
alone (tests/unit/test_irdl_checks.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import DenseArrayBase, i32
from xdsl.ir import Attribute, Dialect, Operation
from xdsl.irdl import (
    AttrSizedOperandSegments,
    EqIntConstraint,
    OpDef,
    OptAttributeDef,
    OptionalDef,
    OptPropertyDef,
    RangeConstraint,
    RangeLengthConstraint,
    RangeOf,
    SingleBlockRegionDef,
    VariadicDef,
)

from stc.compiler.irdl_constraints import AttrCheck, attr_check, range_check


def has_variables(op_def: OpDef) -> bool:
    constraints = [
        *(d.constr for _, d in op_def.operands),
        *(d.constr for _, d in op_def.results),
        *(d.constr for d in op_def.properties.values()),
        *(d.constr for d in op_def.attributes.values()),
        *(d.entry_args for _, d in op_def.regions),
    ]
    return any(c.variables() for c in constraints)


Slicer = Callable[[Sequence[Attribute]], list[Sequence[Attribute]] | None]


def slicer(defs: Sequence[object]) -> Slicer | None:
    """
    A function that splits an op's operand (or result) types among `defs` as IRDL does,
    or gives None when their count is not one IRDL accepts; None itself for more than
    one variadic definition, whose split this does not follow.
    """
    count = len(defs)
    variadic = [index for index, d in enumerate(defs) if isinstance(d, VariadicDef)]
    if not variadic:
        return lambda values: [values[i : i + 1] for i in range(count)] if len(values) == count else None
    if len(variadic) > 1:
        return None
    at = variadic[0]
    optional = isinstance(defs[at], OptionalDef)

    def split(values: Sequence[Attribute]) -> list[Sequence[Attribute]] | None:
        size = len(values) - (count - 1)
        if size < 0 or (optional and size > 1):
            return None
        return [
            *(values[i : i + 1] for i in range(at)),
            values[at : at + size],
            *(values[i : i + 1] for i in range(at + size, len(values))),
        ]

    return split


def single_check(constraint: RangeConstraint) -> AttrCheck | None | bool:
    """For the constraint of a single operand (or result), the check of its one type (None
    when any type passes); False when `constraint` is not one of exactly one element."""
    if (
        isinstance(constraint, RangeLengthConstraint)
        and isinstance(constraint.length, EqIntConstraint)
        and constraint.length.value == 1
        and isinstance(constraint.constraint, RangeOf)
    ):
        return attr_check(constraint.constraint.constr)
    return False


def list_check(defs: Sequence[tuple[str, object]]) -> Callable[[Sequence[Attribute]], bool] | None:
    """Whether the types of an op's operands (or results) satisfy `defs`; None when unsupported."""
    singles = [False if isinstance(d, VariadicDef) else single_check(d.constr) for _, d in defs]  # pyright: ignore[reportAttributeAccessIssue]
    if not any(check is False for check in singles):
        count = len(singles)
        indexed = [(index, check) for index, check in enumerate(singles) if check is not None]

        def check_singles(types: Sequence[Attribute]) -> bool:
            if len(types) != count:
                return False
            for index, check in indexed:
                if not check(types[index]):  # pyright: ignore[reportCallIssue]
                    return False
            return True

        return check_singles
    if len(defs) == 1 and isinstance(only := defs[0][1], VariadicDef) and not isinstance(only, OptionalDef):
        every = range_check(only.constr)
        return every if every is not None else lambda types: True
    split = slicer([d for _, d in defs])
    if split is None:
        return None
    checks = [(index, check) for index, (_, d) in enumerate(defs) if (check := range_check(d.constr)) is not None]  # pyright: ignore[reportAttributeAccessIssue]

    def check(types: Sequence[Attribute]) -> bool:
        groups = split(types)
        return groups is not None and all(check(groups[index]) for index, check in checks)

    return check


def sized_segments_check(op_def: OpDef) -> Callable[[Operation, Sequence[Attribute]], bool] | None:
    """
    Whether an op's operand types satisfy `op_def`'s operands split by the sizes of its
    `operandSegmentSizes` property (`AttrSizedOperandSegments(as_property=True)`), as
    IRDL checks the sizes and each group; None for any other option.
    """
    if len(op_def.options) != 1:
        return None
    option = op_def.options[0]
    if not isinstance(option, AttrSizedOperandSegments) or not option.as_property:
        return None
    name = option.attribute_name
    defs = [d for _, d in op_def.operands]
    most = [1 if isinstance(d, OptionalDef) or not isinstance(d, VariadicDef) else None for d in defs]
    least = [0 if isinstance(d, VariadicDef) else 1 for d in defs]
    groups = list(zip(least, most, [range_check(d.constr) for d in defs], strict=True))

    def check(op: Operation, types: Sequence[Attribute]) -> bool:
        sizes = op.properties.get(name)
        if not isinstance(sizes, DenseArrayBase) or sizes.elt_type != i32:
            return False
        values = sizes.get_values()
        if len(values) != len(groups) or sum(values) != len(types):
            return False
        start = 0
        for size, (fewest, limit, group) in zip(values, groups, strict=True):
            if size < fewest or (limit is not None and size > limit):
                return False
            if group is not None and not group(types[start : start + size]):
                return False
            start += size
        return True

    return check


def operands_check(op_def: OpDef) -> Callable[[Operation, Sequence[Attribute]], bool] | None:
    """Whether an op's operand types satisfy `op_def`; None when unsupported."""
    if op_def.options:
        return sized_segments_check(op_def)
    if (check := list_check(op_def.operands)) is None:
        return None
    return lambda op, types: check(types)


def op_check(op_def: OpDef) -> Callable[[Operation], bool] | None:
    """
    Whether IRDL accepts an op of `op_def` (its traits aside): None when the definition
    is beyond this compiler, False when IRDL might reject it.
    """
    if op_def.successors or has_variables(op_def):
        return None
    if any(not isinstance(d, SingleBlockRegionDef) or isinstance(d, VariadicDef) for _, d in op_def.regions):
        return None
    operands, results = operands_check(op_def), list_check(op_def.results)
    if operands is None or results is None:
        return None
    region_checks = [range_check(d.entry_args) for _, d in op_def.regions]
    region_count = len(region_checks)
    declared = {name: attr_check(d.constr) for name, d in op_def.properties.items()}
    required = [name for name, d in op_def.properties.items() if not isinstance(d, OptPropertyDef)]
    attributes = [(name, attr_check(d.constr), isinstance(d, OptAttributeDef)) for name, d in op_def.attributes.items()]

    def check(op: Operation) -> bool:
        operand_types = [value.type for value in op._operands]  # pyright: ignore[reportPrivateUsage]
        if op.successors or not operands(op, operand_types) or not results([result.type for result in op.results]):
            return False
        if len(op.regions) != region_count:
            return False
        for region, entry in zip(op.regions, region_checks, strict=True):
            blocks = list(region.blocks)
            if len(blocks) != 1 or (entry is not None and not entry(blocks[0].arg_types)):
                return False
        properties = op.properties
        for name in required:
            if name not in properties:
                return False
        for name, value in properties.items():
            if name not in declared:
                return False
            if (check := declared[name]) is not None and not check(value):
                return False
        for name, check, is_optional in attributes:
            if (value := op.attributes.get(name)) is None:
                if not is_optional:
                    return False
            elif check is not None and not check(value):
                return False
        return True

    return check


def compiled_verify(op_def: OpDef, check: Callable[[Operation], bool]) -> Callable[[Operation], None]:
    """`op_def.verify`, which runs xDSL's checks only when `check` does not pass the op."""
    irdl_verify = op_def.verify

    def verify(op: Operation) -> None:
        if not check(op):
            irdl_verify(op)
            return
        for trait in op_def.traits:
            trait.verify(op)

    return verify


def compile_checks(dialect: Dialect) -> Dialect:
    """Give each op definition of `dialect` its compiled check (once), and return the dialect."""
    for op_type in dialect.operations:
        op_def = op_type.get_irdl_definition()  # pyright: ignore[reportAttributeAccessIssue]
        if "verify" in op_def.__dict__ or (check := op_check(op_def)) is None:
            continue
        op_def.verify = compiled_verify(op_def, check)
    return dialect
