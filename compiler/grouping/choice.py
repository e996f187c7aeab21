"""
The groups `task-layer-group` writes: those a search finds, or one run of layers the user
names (the other layers alone), each checked with one-line errors that name the group,
the slicing and the bytes:

```
task-layer-group: group [4, 6] sliced n=1 h=2 does not fit tpu-like's local memory:
    17825792 B live at the peak, 16777216 B usable
```
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.utils.exceptions import PassFailedException

from stc.compiler.grouping.layers import LayerGraph
from stc.compiler.grouping.search import Group, Groups
from stc.compiler.grouping.slicing import SlicingRefused, slice_group
from stc.compiler.grouping.timesteps import fits, plan_group
from stc.compiler.targets.hardware import HardwareTarget
from stc.dialects import task

PASS = "task-layer-group"


def choose_groups(
    graph: task.GraphOp,
    target: HardwareTarget,
    strategy: str,
    members: Sequence[int],
    slices: Sequence[int],
    pipeline: bool = True,
    delay: bool = True,
) -> list[Group]:
    """The groups of a graph on a one-core target, in graph order; `pipeline`: whether
    inputs may be loaded one timestep early, `delay`: whether results may be stored one
    timestep late (`Groups.scheduled`)."""
    layers = LayerGraph(graph, target)
    groups = Groups(layers, target, pipeline, delay)
    if not members:
        return groups.search(strategy)
    start, stop = run_of(layers, members)
    named = named_group(groups, members, slices)
    alone = [groups.single(position) for position in range(len(layers)) if not start <= position < stop]
    return sorted([*alone, named], key=lambda group: layers.position[group.members[0]])


def spatial_group(
    graph: task.GraphOp, target: HardwareTarget, members: Sequence[int], slices: Sequence[int]
) -> list[int]:
    """The members of the one group of a many-core target: the named run, or every layer.
    The slices are `task-split`'s pieces, which `st-place` spreads over the cores."""
    if slices:
        raise PassFailedException(
            f"{PASS}: {target.name} has {target.mesh.core_count} cores: a group's slices are task-split's pieces "
            "there, which st-place spreads over the cores; `slices` is for one-core targets"
        )
    if not members:  # every layer: no need to read them as plain data
        return [op.task_id for op in graph.tasks() if isinstance(op, task.ComputeBlock)]
    layers = LayerGraph(graph, target)
    start, stop = run_of(layers, members)
    return [layer.task_id for layer in layers.ops[start:stop]]


def run_of(layers: LayerGraph, members: Sequence[int]) -> tuple[int, int]:
    """The graph positions of a named group, which must be consecutive compute blocks."""
    for task_id in members:
        if task_id not in layers.position:
            raise PassFailedException(f"{PASS}: task.graph @{layers.graph.graph_name} has no compute block {task_id}")
    positions = sorted(layers.position[task_id] for task_id in members)
    if len(set(positions)) != len(positions):
        raise PassFailedException(f"{PASS}: a block is named twice in group {list(members)}")
    for expected, position in zip(range(positions[0], positions[-1] + 1), positions, strict=False):
        if expected != position:
            between = layers.ops[expected].describe()
            raise PassFailedException(
                f"{PASS}: group {list(members)} is not a run of consecutive layers: {between} lies between its members"
            )
    if not layers.is_connected(members):
        raise PassFailedException(f"{PASS}: group {list(members)} is not connected")
    return positions[0], positions[-1] + 1


def named_group(groups: Groups, members: Sequence[int], slices: Sequence[int]) -> Group:
    """The named group, at the given slicing or at its coarsest that fits."""
    ordered = sorted(members, key=groups.layers.position.__getitem__)
    if not slices:
        group = groups.sliced(ordered)
        if group is None:
            raise PassFailedException(f"{PASS}: group {ordered} {groups.finest(ordered)}")
        return group
    n, h = slices
    where = f"{PASS}: group {ordered} sliced n={n} h={h}"
    if n < 1 or h < 1:
        raise PassFailedException(f"{where}: slice counts must be at least 1")
    try:
        plan = plan_group(groups.layers, slice_group(groups.layers, ordered, n, h), groups.target)
    except SlicingRefused as refused:
        raise PassFailedException(f"{where}: {refused}") from None
    if not fits(plan, groups.memory):
        raise PassFailedException(
            f"{where} does not fit {groups.target.name}'s local memory: "
            f"{plan.peak_bytes} B live at the peak, {groups.memory.capacity} B usable"
        )
    return groups.priced(groups.scheduled(plan))
