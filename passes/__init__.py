"""
stc's passes, one module per pass named after it (`task-split` → `task_split.py`); each
is a frozen dataclass whose fields are its options and whose `apply` calls into
`stc.compiler`. `get_all_passes` gives them as lazy factories, as xDSL's registry does.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass


def get_task_split() -> type[ModulePass]:
    from stc.passes.task_split import TaskSplitPass

    return TaskSplitPass


def get_task_layer_group() -> type[ModulePass]:
    from stc.passes.task_layer_group import TaskLayerGroupPass

    return TaskLayerGroupPass


def get_st_apply() -> type[ModulePass]:
    from stc.passes.st_apply import StApplyPass

    return StApplyPass


def get_st_place() -> type[ModulePass]:
    from stc.passes.st_place import StPlacePass

    return StPlacePass


def get_st_search() -> type[ModulePass]:
    from stc.passes.st_search import StSearchPass

    return StSearchPass


def get_st_route() -> type[ModulePass]:
    from stc.passes.st_route import StRoutePass

    return StRoutePass


def get_st_lmem_alloc() -> type[ModulePass]:
    from stc.passes.st_lmem_alloc import StLmemAllocPass

    return StLmemAllocPass


def get_isa_lower() -> type[ModulePass]:
    from stc.passes.isa_lower import IsaLowerPass

    return IsaLowerPass


def get_stc_pipeline() -> type[ModulePass]:
    from stc.passes.stc_pipeline import StcPipelinePass

    return StcPipelinePass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """stc's passes by name, each behind a factory that imports it on first use."""
    return {
        "task-split": get_task_split,
        "task-layer-group": get_task_layer_group,
        "st-apply": get_st_apply,
        "st-place": get_st_place,
        "st-search": get_st_search,
        "st-route": get_st_route,
        "st-lmem-alloc": get_st_lmem_alloc,
        "isa-lower": get_isa_lower,
        "stc-pipeline": get_stc_pipeline,
    }
