"""Base classes of the `task` ops: every block has a unique integer `id`."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import I64, IntegerAttr, IntegerType, TensorType
from xdsl.ir import Attribute, Operation
from xdsl.irdl import IRDLOperation, prop_def
from xdsl.utils.exceptions import VerifyException


class TaskOp(IRDLOperation):
    """Common part of every task block: a unique integer `id`."""

    id = prop_def(IntegerAttr[I64])

    @property
    def task_id(self) -> int:
        return self.id.value.data

    def error(self, message: str) -> VerifyException:
        return VerifyException(f"{self.name} {self.task_id}: {message}")


class StorageOp(TaskOp):
    """A storage block (TianjicX S* blocks, network inputs and outputs)."""


class ComputeOp(TaskOp):
    """A compute block (TianjicX C* blocks); see `stc.dialects.task.compute`."""


def task_id_of(op: Operation) -> int | str:
    return op.task_id if isinstance(op, TaskOp) else "?"


def element_width(typ: Attribute) -> int | None:
    """Bits per element of an integer tensor type, None for anything else."""
    if not isinstance(typ, TensorType) or not isinstance(elt := typ.get_element_type(), IntegerType):
        return None
    return elt.width.data


def check_element_width(op: TaskOp, what: str, typ: Attribute, widths: Sequence[int]) -> None:
    if element_width(typ) in widths:
        return
    allowed = " or ".join(f"i{w}" for w in widths)
    raise op.error(f"{what} must have {allowed} elements, got {typ}")
