"""How st-place fails: an error whose message starts with the action's name."""

from __future__ import annotations

from xdsl.utils.exceptions import PassFailedException

from stc.compiler.mapping.matrix import action_error

ACTION = "st-place"


def placement_error(message: str) -> PassFailedException:
    return action_error(ACTION, message)
