"""
stc's dialects, passes and targets as an xDSL universe: lazy factories, so that a tool
imports only what a run uses. Published through the `xdsl.universe` entry point, so a
plain `xdsl-opt` sees them too once stc is installed.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.universe import Universe


def get_task() -> Dialect:
    from stc.dialects.task import Task

    return Task


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    return {"task": get_task}


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    return {}


STC_UNIVERSE = Universe(all_dialects=get_all_dialects(), all_passes=get_all_passes())
