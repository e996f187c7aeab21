"""How st-place fails: an error whose message starts with the action's name."""

from __future__ import annotations

from xdsl.utils.exceptions import PassFailedException

from stc.compiler.mapping.action_errors import action_error

ACTION = "st-place"


def placement_error(message: str) -> PassFailedException:
    return action_error(ACTION, message)


class NoRoom(PassFailedException):
    """A unit found no core with room in any of its phases: its stage was taken or its
    memory short everywhere, which more steps may cure."""

    def __init__(self, message: str):
        super().__init__(f"{ACTION}: {message}")
