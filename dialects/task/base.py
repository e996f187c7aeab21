"""Base classes of the `task` ops: every block has a unique integer `id` and lives in a `task.graph`."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from xdsl.dialects.builtin import I64, IntegerAttr, IntegerType, NoneAttr, Signedness, TensorType
from xdsl.ir import Attribute, Operation
from xdsl.irdl import IRDLOperation, lazy_traits_def, prop_def
from xdsl.traits import HasParent, OpTrait
from xdsl.utils.exceptions import VerifyException

from stc.compiler.rules import tensors as rules
from stc.compiler.rules.tensors import width_problem
from stc.dialects.by_identity import by_identity


def _graph_parent() -> tuple[OpTrait, ...]:
    from stc.dialects.task.graph import GraphOp

    return (HasParent(GraphOp),)


class TaskOp(IRDLOperation):
    """Common part of every task block: a unique integer `id`, inside a `task.graph`."""

    id = prop_def(IntegerAttr[I64])
    traits = lazy_traits_def(_graph_parent)

    @property
    def task_id(self) -> int:
        return self.properties["id"].value.data  # pyright: ignore[reportAttributeAccessIssue]

    def error(self, message: str) -> VerifyException:
        return VerifyException(f"{self.name} {self.task_id}: {message}")


class StorageOp(TaskOp):
    """A storage block (TianjicX S* blocks, network inputs and outputs)."""


class ComputeOp(TaskOp):
    """A compute block (TianjicX C* blocks); see `stc.dialects.task.compute`."""


@by_identity
def tensor_shape(typ: TensorType) -> tuple[int, ...]:
    """`typ.get_shape()`, computed once per type object."""
    return typ.get_shape()


def task_id_of(op: Operation) -> int | str:
    return op.task_id if isinstance(op, TaskOp) else "?"


def element_width(typ: Attribute) -> int | None:
    """Bits per element of a tensor type of signless integers, None for anything else."""
    if not isinstance(typ, TensorType) or not isinstance(elt := typ.get_element_type(), IntegerType):
        return None
    if elt.signedness.data != Signedness.SIGNLESS:
        return None
    return elt.width.data


def tensor_bytes(typ: TensorType) -> int:
    """Bytes of a tensor of signless integers."""
    bits = element_width(typ)
    assert bits is not None
    return math.prod(typ.get_shape()) * bits // 8


def check_element_width(op: TaskOp, what: str, typ: Attribute, widths: Sequence[int]) -> None:
    if problem := width_problem(what, element_width(typ), widths, typ):
        raise op.error(problem)


def check_tensor(op: TaskOp, what: str, typ: TensorType, rank: int, widths: tuple[int, ...]) -> None:
    """Raise unless `typ` is a tensor of `rank` static, positive dimensions and signless
    integers of one of `widths` bits, with no encoding: the only tensors a task graph holds."""
    known = TENSOR_PROBLEMS.get((id(typ), rank, widths))
    if known is None or known[0] is not typ:
        known = TENSOR_PROBLEMS[(id(typ), rank, widths)] = (typ, tensor_problem(typ, rank, widths))
        if len(TENSOR_PROBLEMS) > KNOWN_TYPES:
            TENSOR_PROBLEMS.clear()
    if problem := known[1]:
        raise op.error(f"{what} {problem}")


KNOWN_TYPES = 4096
"""How many tensor types `check_tensor` remembers the rule's answer for (kept alive, so
that an id is not reused while it is remembered)."""

TENSOR_PROBLEMS: dict[tuple[int, int, tuple[int, ...]], tuple[TensorType, str | None]] = {}
"""`tensor_problem` of each type `check_tensor` met, by the type's identity: a module
shares each type among thousands of ops, and hashing a type walks its parameters."""


@functools.lru_cache(maxsize=4096)
def tensor_problem(typ: TensorType, rank: int, widths: tuple[int, ...]) -> str | None:
    """
    What `check_tensor` finds wrong with `typ`, or None (`rules.tensors.tensor_problem`).
    A graph holds a few distinct types thousands of times each: the rule depends on the
    type alone, so it is checked once per type and process.
    """
    return rules.tensor_problem(typ.get_shape(), element_width(typ), rank, widths, typ, typ.encoding != NoneAttr())
