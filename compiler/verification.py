"""
Verification that re-checks only what changed since the last verification.

`module.verify()` checks every op after every pass; most passes add an attribute here
and there (st-route its routes, st-lmem-alloc its addresses) and leave the rest alone.
An op's own verifier (`verify_`, its IRDL constraints, its traits) reads only its
*inputs*: its attributes and properties, its operands (their types, the ops that define
them and those ops' attributes and properties), its results (their types and uses), the
op that holds it (and that op's attributes and properties), and whether it ends its
block. `Verifier` keeps, for every leaf op it verified, those inputs (the objects
themselves: xDSL attributes are immutable, so an input that changed is a different
object, or an unequal one), and skips an op whose inputs are the same as when it passed.
stc's own ops (`task`, `st`, `isa`) keep their data in properties, and their verifiers
read no discardable attribute, of theirs or of any other op: the `st.coord`, `st.routes`
and `st.addr` that st-place, st-route and st-lmem-alloc add are checked by the
`st.mapping` verifier (and by the attributes' own constructors). So for those ops the
discardable attributes are not inputs, and a pass that only adds them re-verifies none.
Ops with regions (a `task.graph`, an `st.mapping`, an `isa.program`) check their whole
contents and are always verified, as are new and changed ops.

    verifier = Verifier()
    verifier.verify(module)          # everything, the first time
    StRoutePass().apply(ctx, module)
    verifier.verify(module)          # the graph and the mapping: routes are not task ops' inputs

`Verifier(full=True)` verifies everything every time, as `module.verify()` does.
"""

from __future__ import annotations

import gc

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

Inputs = tuple[object, ...]


AUDITED_DIALECTS = frozenset({"task", "st", "isa"})
"""The dialects whose ops' verifiers read no discardable attribute."""


def op_inputs(op: Operation) -> Inputs:
    """What an op's own verifier reads (see the module docstring), as a tuple of the
    objects themselves."""
    discardable = op.dialect_name() not in AUDITED_DIALECTS
    parent = op.parent_op()
    return (
        tuple(op.attributes.values()) if discardable else (),
        tuple(op.properties.values()),
        op.next_op is None,
        parent,
        () if parent is None else data_of(parent, discardable),
        tuple(
            (value, value.type, owner, data_of(owner, discardable))
            if isinstance(owner := value.owner, Operation)
            else (value, value.type, owner)
            for value in op.operands
        ),
        tuple((result.type, tuple((use.operation, use.index) for use in result.uses)) for result in op.results),
        tuple(op.successors),
    )


def data_of(op: Operation, discardable: bool) -> Inputs:
    """An op's properties, and its attributes when `discardable` ones count."""
    properties = tuple(op.properties.values())
    return (properties, tuple(op.attributes.values())) if discardable else (properties,)


class Verifier:
    """Verifies a module, re-checking only ops whose inputs changed since they passed
    (every op with `full`)."""

    def __init__(self, full: bool = False):
        self.full = full
        self.passed: dict[Operation, Inputs] = {}
        self.checked = 0
        """How many ops the last `verify` checked."""

    def verify(self, module: ModuleOp, last: bool = False) -> None:
        """Verify `module` as `module.verify()` does (contents before the op that holds
        them), skipping the unchanged leaf ops. With `last` (no verification follows),
        the inputs of new ops are not recorded."""
        if self.full:
            module.verify()
            return
        passed: dict[Operation, Inputs] = {}
        self.checked = 0
        collecting = gc.isenabled()
        gc.disable()  # the inputs are many small tuples: no cycles, but they would trigger collections
        try:
            self.check(module, passed, last)
        finally:
            if collecting:
                gc.enable()
        self.passed = passed

    def check(self, op: Operation, passed: dict[Operation, Inputs], last: bool) -> None:
        if not op.regions:
            if op in self.passed and self.passed[op] == (inputs := op_inputs(op)):
                passed[op] = inputs
                return
            op.verify()
            self.checked += 1
            if not last:
                passed[op] = op_inputs(op)
            return
        for region in op.regions:
            for block in region.blocks:
                if block.parent is not region:
                    raise ValueError("Parent pointer of block does not refer to containing region")
                if block.first_op is None:
                    block.verify()
                for child in block.ops:
                    if child.parent is not block:
                        raise ValueError("Parent pointer of operation does not refer to containing region")
                    self.check(child, passed, last)
        op.verify(verify_nested_ops=False)
        self.checked += 1
