"""
Multicast DRAM loads, on a target with `global_memory.multicast_loads`: the weight, bias
and table blocks of one box that several cores load in one phase share one DRAM read.
The first of them in graph order loads the box with `isa.dma_multicast` to the other
cores, and each of those receives it with an `isa.recv` of the tag.

```mlir
isa.dma_multicast sizes [1024] from global 0 to local 0 and (0, 1), (1, 1) tag 7
```
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator

import attrs

from stc.compiler.memory.plan import MemoryPlan
from stc.compiler.targets.hardware import Coord
from stc.dialects import task


@attrs.frozen
class SharedLoad:
    """One DRAM read of a data box that blocks on several cores take."""

    loader: int
    """The task id of the block that loads the box."""
    source: Coord
    """The loader's core."""
    receivers: tuple[Coord, ...]
    """The other cores, in graph order of their blocks."""
    tag: int


def shared_loads(
    graph: task.GraphOp,
    plan: MemoryPlan,
    read_later: Callable[[task.StorageOp, int], bool],
    tags: Iterator[int],
) -> dict[int, SharedLoad]:
    """The shared load of each data block that shares one, by task id: blocks of one box
    loaded in one phase, alike as loads or as prefetches (`read_later`), one block per
    core, the first in graph order loading."""
    groups: dict[tuple, list[task.TaskOp]] = defaultdict(list)
    for op in graph.tasks():
        if isinstance(op, task.WeightOp | task.BiasOp | task.TableOp):
            time = plan.first(op.task_id)
            groups[(op.data, op.full_type, op.box, time, read_later(op, time))].append(op)
    shared: dict[int, SharedLoad] = {}
    for loader, *members in groups.values():
        source = plan.core(loader.task_id)
        others: dict[Coord, int] = {}
        for member in members:
            others.setdefault(plan.core(member.task_id), member.task_id)
        others.pop(source, None)
        if not others:
            continue
        load = SharedLoad(loader.task_id, source, tuple(others), next(tags))
        for task_id in (loader.task_id, *others.values()):
            shared[task_id] = load
    return shared
