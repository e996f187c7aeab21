"""
Named operands, results and regions of an op read by one index into the op's own tuple.

IRDL gives each named single operand (result, region) of an op definition an accessor
whose `__get__` asks which construct it reads, builds the op's `OpOperands` view and
indexes it through two more Python calls: some 1 µs per read, and verifiers, passes
and printers read these names hundreds of thousands of times per module.
`direct_accessors(dialect)` replaces, on each op class of `dialect`, every accessor of a
single construct before (or after) the variadic ones by one that indexes the tuple the
op holds (`op._operands`, `op.results`, `op.regions`) at the same position, so it reads
the same object, or raises the same IndexError on an op with too few:

```python
Task = direct_accessors(compile_checks(Dialect("task", [...], [...])))
conv.input  # op._operands[0], as IRDL's accessor reads it
```

Variadic and optional accessors keep IRDL's (their slice depends on the op).
"""

from __future__ import annotations

from typing import Any

from xdsl.ir import Dialect, Operation
from xdsl.irdl import VarIRConstruct
from xdsl.irdl.operations import AfterVariadicSingleAccessor, BaseAccessor, BeforeVariadicSingleAccessor

HELD_IN = {
    VarIRConstruct.OPERAND: "_operands",
    VarIRConstruct.RESULT: "results",
    VarIRConstruct.REGION: "regions",
}
"""The op's own tuple each construct's accessor indexes."""


class DirectAccessor:
    """A named single construct of an op, read as `getattr(op, held)[index]`."""

    __slots__ = ("held", "index", "upstream")

    def __init__(self, held: str, index: int, upstream: BaseAccessor):
        self.held = held
        self.index = index
        self.upstream = upstream

    def __get__(self, op: Operation | None, owner: type | None = None) -> Any:
        if op is None:
            return self
        return tuple.__getitem__(getattr(op, self.held), self.index)

    def __set__(self, op: Operation, value: object) -> None:
        self.upstream.__set__(op, value)


def direct(accessor: object) -> DirectAccessor | None:
    """The direct form of an IRDL accessor, or None when it has none."""
    if type(accessor) is BeforeVariadicSingleAccessor:
        index = accessor.idx
    elif type(accessor) is AfterVariadicSingleAccessor:
        index = accessor.idx - accessor.num_defs
    else:
        return None
    if (held := HELD_IN.get(accessor.construct)) is None:
        return None
    return DirectAccessor(held, index, accessor)


def direct_accessors(dialect: Dialect) -> Dialect:
    """Give each op class of `dialect` direct accessors (once), and return the dialect."""
    for op_type in dialect.operations:
        for name, accessor in list(vars(op_type).items()):
            if (replacement := direct(accessor)) is not None:
                setattr(op_type, name, replacement)
    return dialect
