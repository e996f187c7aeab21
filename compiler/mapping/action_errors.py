"""
The errors of a mapping action that breaks a rule: one line naming the action, the block
and where it was put, built only when a rule breaks.

    st-place: block 6 (task.relu) at (0, 0, 0, 1), (0, 1, axon): a task.relu is placed at
    the soma1 or soma2 stage, not axon
"""

from __future__ import annotations

from xdsl.utils.exceptions import PassFailedException

from stc.compiler.mapping.place import Place
from stc.dialects import task


def describe(op: task.TaskOp) -> str:
    return f"block {op.task_id} ({op.name})"


def action_error(action: str, message: str) -> PassFailedException:
    return PassFailedException(f"{action}: {message}")


def misplaced(action: str, op: task.TaskOp, place: Place, problem: str) -> PassFailedException:
    """The error of a put that breaks a rule; its message is built only then."""
    return action_error(action, f"{describe(op)} at {place.text()}: {problem}")
