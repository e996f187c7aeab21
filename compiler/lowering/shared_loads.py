"""
Multicast DRAM loads, on a target with `global_memory.multicast_loads`: the weight, bias
and table blocks of one box that several cores load in one phase share one DRAM read, and
so do buffers that load the same box of a network input or of a result in global memory
(a spilled one, as between segments of a searched schedule) in one phase. The first of
them in graph order loads the box with `isa.dma_multicast` to the other cores, and each
of those receives it with an `isa.recv` of the tag; a core that takes the box into several
blocks in the phase (the tables of several layers) takes one of each such load.

```mlir
isa.dma_multicast sizes [1024] from global 0 to local 0 and (0, 1), (1, 1) tag 7
```
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

import attrs

from stc.compiler.memory.plan import MemoryPlan
from stc.compiler.memory.spill_frames import SpillFrames
from stc.compiler.targets.hardware import Coord
from stc.dialects import task
from stc.dialects.task.base import task_id_of


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
    groups: dict[tuple, list[int]] = defaultdict(list)
    for op in graph.tasks():
        if isinstance(op, task.WeightOp | task.BiasOp | task.TableOp):
            time = plan.first(op.task_id)
            groups[(op.data, op.full_type, op.box, time, read_later(op, time))].append(op.task_id)
    return share(groups.values(), plan, tags, lambda task_id: task_id)


K = TypeVar("K")

BoxLoad = tuple[int, int | str, task.BoxAttr]
"""A buffer's load of one box from global memory: (buffer task id, the network input's or
spilled result's task id or the frame's name, box)."""


def shared_box_loads(
    graph: task.GraphOp,
    plan: MemoryPlan,
    frames: SpillFrames,
    read_later: Callable[[task.StorageOp, int], bool],
    tags: Iterator[int],
) -> dict[BoxLoad, SharedLoad]:
    """The shared load of each box a buffer loads from global memory (a network input's,
    or of a spilled result's region or frame, `SpillFrames.loads`) that shares one:
    buffers loading the same box of the same source in one phase, alike as loads or as
    prefetches, one buffer per core, the first in graph order loading (isa-lower emits
    the loads in that order)."""
    groups: dict[tuple, list[BoxLoad]] = defaultdict(list)
    for op in graph.tasks():
        if not isinstance(op, task.BufferOp):
            continue
        time = plan.first(op.task_id)
        for value, box, offset in plan.sources[op.task_id]:
            source = value.owner
            producer = task_id_of(source)
            if isinstance(source, task.InputOp):
                groups[(producer, box, time, read_later(op, time))].append((op.task_id, producer, box))
            elif (load := frames.loads.get((op.task_id, producer, box, offset))) is not None:  # pyright: ignore[reportArgumentType]
                groups[(load.region, load.box, time, read_later(op, time))].append((op.task_id, load.region, load.box))
    return share(groups.values(), plan, tags, lambda load: load[0])


def share(
    groups: Iterable[list[K]], plan: MemoryPlan, tags: Iterator[int], block: Callable[[K], int]
) -> dict[K, SharedLoad]:
    """One shared load per group of loads of one box (in graph order) and round that reaches
    more than one core: round k holds the k-th load of each core (a core that loads one
    box into several blocks in a phase, the tables of several layers, takes one of each
    round), its first loads it and the others receive it."""
    shared: dict[K, SharedLoad] = {}
    for group in groups:
        rounds: dict[int, list[K]] = defaultdict(list)
        taken: Counter[Coord] = Counter()
        for member in group:
            core = plan.core(block(member))
            rounds[taken[core]].append(member)
            taken[core] += 1
        for loader, *others in rounds.values():
            if not others:
                continue
            cores = tuple(plan.core(block(member)) for member in others)
            load = SharedLoad(block(loader), plan.core(block(loader)), cores, next(tags))
            for key in (loader, *others):
                shared[key] = load
    return shared
