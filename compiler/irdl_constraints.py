"""
IRDL's attribute and range constraints compiled into plain predicates (`attr_check`,
`range_check`): `isinstance` for a base, `==` for an equality, one call per element of a
range; a constraint they do not know is checked by its own `verify` (`verified_by`). A
check answers a passed attribute at once (`remembered`). `irdl_checks.py` builds an op's
check from them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import ArrayAttr, ArrayOfConstraint
from xdsl.ir import Attribute
from xdsl.irdl import (
    AllOf,
    AnyAttr,
    AnyInt,
    AnyOf,
    AttrConstraint,
    AttrSetConstraint,
    BaseAttr,
    EqAttrConstraint,
    EqIntConstraint,
    MessageConstraint,
    ParamAttrConstraint,
    RangeConstraint,
    RangeLengthConstraint,
    RangeOf,
    VerificationContext,
)
from xdsl.utils.exceptions import VerifyException

AttrCheck = Callable[[Attribute], bool]
RangeCheck = Callable[[Sequence[Attribute]], bool]


def verified_by(constraint: AttrConstraint | RangeConstraint) -> Callable[[object], bool]:
    """Whether `constraint`'s own verifier accepts a value (it has no variables, so a
    fresh context is the one IRDL would use)."""

    def check(value: object) -> bool:
        try:
            constraint.verify(value, VerificationContext())  # pyright: ignore[reportArgumentType]
        except VerifyException:
            return False
        return True

    return check


def attr_check(constraint: AttrConstraint) -> AttrCheck | None:
    """Whether an attribute satisfies `constraint`; None when every attribute does."""
    if isinstance(constraint, AnyAttr):
        return None
    if isinstance(constraint, BaseAttr):
        base = constraint.attr
        return lambda attr: isinstance(attr, base)
    if isinstance(constraint, EqAttrConstraint):
        expected = constraint.attr
        return lambda attr: attr is expected or attr == expected
    if isinstance(constraint, AttrSetConstraint):
        values = constraint.values
        return lambda attr: attr in values
    if isinstance(constraint, MessageConstraint):
        return attr_check(constraint.constr)
    if isinstance(constraint, AllOf):
        return all_of([attr_check(c) for c in constraint.attr_constrs])
    if isinstance(constraint, AnyOf):
        return any_of(constraint)
    if isinstance(constraint, ParamAttrConstraint):
        return param_check(constraint)
    if isinstance(constraint, ArrayOfConstraint):
        elements = range_check(constraint.elem_range_constraint)
        if elements is None:
            return lambda attr: isinstance(attr, ArrayAttr)
        return remembered(lambda attr: isinstance(attr, ArrayAttr) and elements(attr.data))
    return verified_by(constraint)


def all_of(checks: list[AttrCheck | None]) -> AttrCheck | None:
    present = [check for check in checks if check is not None]
    if not present:
        return None
    return lambda attr: all(check(attr) for check in present)


def any_of(constraint: AnyOf) -> AttrCheck:
    """AnyOf picks the constraint of the attribute's class, else its abstract one."""
    by_class = {base: attr_check(c) for base, c in constraint._based_constrs.items()}  # pyright: ignore[reportPrivateUsage]
    abstract = constraint._abstr_constr  # pyright: ignore[reportPrivateUsage]
    otherwise = None if abstract is None else attr_check(abstract)

    def check(attr: Attribute) -> bool:
        if attr.__class__ in by_class:
            found = by_class[attr.__class__]
            return found is None or found(attr)
        if abstract is None:
            return False
        return otherwise is None or otherwise(attr)

    return check


def param_check(constraint: ParamAttrConstraint) -> AttrCheck:
    """An attribute of the base whose parameters satisfy theirs; each attribute that
    passes is remembered (attributes are immutable, and ops share them)."""
    base = constraint.base_attr
    checks = [attr_check(c) for c in constraint.param_constrs]
    count = len(checks)
    indexed = [(index, check) for index, check in enumerate(checks) if check is not None]
    names = [name for name, _ in base.get_irdl_definition().parameters]
    fields = [(names[index], check) for index, check in indexed] if len(names) == count else None

    def check(attr: Attribute) -> bool:
        if fields is not None and type(attr) is base:
            for name, field_check in fields:
                if not field_check(getattr(attr, name)):
                    return False
            return True
        if not isinstance(attr, base):
            return False
        parameters = attr.parameters
        return len(parameters) == count and all(check(parameters[index]) for index, check in indexed)

    return remembered(check)


REMEMBERED = 1 << 12
"""How many attributes each check remembers as passed (kept alive, so that an id is
not reused while it is remembered)."""


def remembered(check: AttrCheck) -> AttrCheck:
    """`check`, answered at once for an attribute (the same object) that passed it."""
    passed: dict[int, Attribute] = {}

    def remembering(attr: Attribute) -> bool:
        if passed.get(id(attr)) is attr:
            return True
        if not check(attr):
            return False
        if len(passed) >= REMEMBERED:
            passed.clear()
        passed[id(attr)] = attr
        return True

    return remembering


def range_check(constraint: RangeConstraint) -> RangeCheck | None:
    """Whether a range of attributes satisfies `constraint`; None when every range does."""
    if isinstance(constraint, RangeOf):
        element = attr_check(constraint.constr)
        if element is None:
            return None

        def each(attrs: Sequence[Attribute]) -> bool:
            for attr in attrs:
                if not element(attr):
                    return False
            return True

        return each
    if isinstance(constraint, RangeLengthConstraint):
        elements = range_check(constraint.constraint)
        length = constraint.length
        if isinstance(length, AnyInt):
            return elements
        if not isinstance(length, EqIntConstraint):
            return verified_by(constraint)
        wanted = length.value
        if elements is None:
            return lambda attrs: len(attrs) == wanted
        return lambda attrs: len(attrs) == wanted and elements(attrs)
    return verified_by(constraint)
