"""
Which stage of a core a block takes, by its kind: compute blocks run at the axon (conv,
fc, avgpool, add, mul) or at soma1 / soma2 (maxpool, relu, lut); storage blocks live at
the memory stage; network inputs arrive at router_recv and outputs leave at router_send.

```mlir
%r = task.relu 6 %b {st.coord = #st.coord<(0, 0, 0, 1), (0, 1, soma1)>}
```
"""

from __future__ import annotations

import functools

from stc.dialects import task
from stc.dialects.st import Stage

SOMA_BLOCKS = (task.MaxPoolOp, task.ReluOp, task.LutOp)
"""Compute blocks TianjicX runs on a soma (CCMPB, CLUT); the others run on the axon."""


def allowed_stages(op: task.TaskOp) -> tuple[Stage, ...]:
    return stages_of_kind(type(op))


@functools.cache
def stages_of_kind(kind: type[task.TaskOp]) -> tuple[Stage, ...]:
    """The stages a kind of block may take, worked out once per op class."""
    if issubclass(kind, task.InputOp):
        return (Stage.ROUTER_RECV,)
    if issubclass(kind, task.OutputOp):
        return (Stage.ROUTER_SEND,)
    if issubclass(kind, task.StorageOp):
        return (Stage.MEMORY,)
    if issubclass(kind, SOMA_BLOCKS):
        return (Stage.SOMA1, Stage.SOMA2)
    return (Stage.AXON,)


def is_memory_block(op: task.TaskOp) -> bool:
    """A storage block that lives in local memory (not a network input or output)."""
    return is_memory_kind(type(op))


@functools.cache
def is_memory_kind(kind: type[task.TaskOp]) -> bool:
    return issubclass(kind, task.StorageOp) and not issubclass(kind, task.InputOp | task.OutputOp)


def input_storage(op: task.ComputeBlock) -> list[task.StorageOp]:
    """The storage blocks a compute block reads, each once, in operand order."""
    owners = dict.fromkeys(value.owner for value in op.operands)
    return [owner for owner in owners if isinstance(owner, task.StorageOp)]
