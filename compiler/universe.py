"""
stc's dialects, passes and targets as an xDSL universe: lazy factories, so that a tool
imports only what a run uses. Published through the `xdsl.universe` entry point, so a
plain `xdsl-opt` sees them too once stc is installed. Importing it applies
`stc.compiler.xdsl_fixes`.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.universe import Universe
from xdsl.utils.target import Target

import stc.compiler.xdsl_fixes  # noqa: F401  (applied on import)


def get_task() -> Dialect:
    from stc.dialects.task import Task

    return Task


def get_isa() -> Dialect:
    from stc.dialects.isa import Isa

    return Isa


def get_st() -> Dialect:
    from stc.dialects.st import St

    return St


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    return {"task": get_task, "isa": get_isa, "st": get_st}


def get_task_split() -> type[ModulePass]:
    from stc.passes.task_split import TaskSplitPass

    return TaskSplitPass


def get_st_apply() -> type[ModulePass]:
    from stc.passes.st_apply import StApplyPass

    return StApplyPass


def get_st_place() -> type[ModulePass]:
    from stc.passes.st_place import StPlacePass

    return StPlacePass


def get_st_route() -> type[ModulePass]:
    from stc.passes.st_route import StRoutePass

    return StRoutePass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    return {
        "task-split": get_task_split,
        "st-apply": get_st_apply,
        "st-place": get_st_place,
        "st-route": get_st_route,
    }


def get_st_svg() -> type[Target]:
    from stc.compiler.st_svg import StSvgTarget

    return StSvgTarget


def get_all_targets() -> dict[str, Callable[[], type[Target]]]:
    return {"st-svg": get_st_svg}


STC_UNIVERSE = Universe(all_dialects=get_all_dialects(), all_passes=get_all_passes(), all_targets=get_all_targets())
