"""
Local-memory addresses for a mapped task graph (`st-lmem-alloc`): the regions of its
`MemoryPlan`, core by core, through the rectangle allocator, written on the blocks:

- `st.addr` on a storage block: where it lives;
- `st.addr` on a compute block: where its result lives (in place: inside its buffer);
- `st.staging_in` / `st.staging_out` on a buffer of an NC1HWC0 target: its staging areas,
  `array<i64: address, bytes>`.

The `st` dialect's verifier (`stc.dialects.st.local_memory`) checks the result.

```mlir
%w = task.weight 2 #task.random<1> : tensor<16x3x3x3xi8> {st.coord = ..., st.addr = 1024 : i64}
```
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable

from attrs import astuple
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, i64
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.memory.allocation import allocate
from stc.compiler.memory.banks import memory_of
from stc.compiler.memory.plan import MemoryPlan, Region
from stc.compiler.memory.rectangles import AllocationError, Memory, Request
from stc.compiler.targets.hardware import Coord, HardwareTarget
from stc.dialects import task
from stc.dialects.st.local_memory import ADDRESS, STAGING_ALIGNMENT, STAGING_IN, STAGING_OUT

STAGING = {"staging in": STAGING_IN, "staging out": STAGING_OUT}


def core_memory(target: HardwareTarget, core: Coord) -> Memory:
    """The usable local memory of a core and its banks (sizes from address 0)."""
    return memory_of(target, target.tile_type_at(*core).memory_bytes)


def alignment_of(target: HardwareTarget, kind: str) -> int:
    if kind == "staging":
        return math.lcm(STAGING_ALIGNMENT, *astuple(target.local_memory.alignment_bytes))
    return getattr(target.local_memory.alignment_bytes, kind)


def allocate_graph(
    graph: task.GraphOp, target: HardwareTarget, pass_name: str = "st-lmem-alloc"
) -> tuple[MemoryPlan, dict[tuple[int, str], int]]:
    """Give every region of the graph's plan an address and write them on the blocks; the
    plan and the addresses by region key."""
    plan = MemoryPlan(graph, target, pass_name)
    addresses: dict[tuple[int, str], int] = {}
    for core, requests in sorted(core_requests(plan).items()):
        try:
            addresses |= allocate(requests, core_memory(target, core))
        except AllocationError as error:
            raise PassFailedException(overflow_message(pass_name, plan, core, error)) from None
    write_addresses(plan, addresses)
    return plan, addresses


def core_requests(plan: MemoryPlan) -> dict[Coord, list[Request]]:
    """The allocator's rectangles of each core: the plan's regions, with the regions each
    compute block's output is better kept apart from (other banks)."""
    apart = plan.apart()
    by_core: dict[Coord, list[Request]] = defaultdict(list)
    for region in plan.regions:
        by_core[region.core].append(request_for(plan.target, region, apart.get(region.key, ())))
    return by_core


def request_for(target: HardwareTarget, region: Region, apart: Iterable[tuple[int, str]]) -> Request:
    """The allocator's rectangle of a region, kept apart from the regions `apart`."""
    alignment = alignment_of(target, region.alignment)
    return Request(region.key, region.size, alignment, region.start, region.end, region.label, frozenset(apart))


def write_addresses(plan: MemoryPlan, addresses: dict[tuple[int, str], int]) -> None:
    sizes = {region.key: region.size for region in plan.regions}
    for (task_id, role), address in addresses.items():
        op = plan.blocks[task_id]
        if role in STAGING:
            op.attributes[STAGING[role]] = DenseArrayBase.from_list(i64, (address, sizes[task_id, role]))
        else:
            op.attributes[ADDRESS] = IntegerAttr(address, i64)
    for task_id in plan.in_place:
        home, offset = plan.result_home(task_id)
        plan.blocks[task_id].attributes[ADDRESS] = IntegerAttr(addresses[home] + offset, i64)


def overflow_message(pass_name: str, plan: MemoryPlan, core: Coord, error: AllocationError, shown: int = 4) -> str:
    """One line: the core, the phase, the bytes needed and usable, the largest live blocks."""
    live = sorted(error.live, key=lambda request: -request.size)
    names = ", ".join(request.label for request in live[:shown])
    more = f" (+{len(live) - shown} more)" if len(live) > shown else ""
    problem = (
        f"{error.needed} B live > {error.usable} B usable"
        if error.needed > error.usable
        else f"{error.needed} B live fit {error.usable} B usable only without fragmentation"
    )
    return (
        f"{pass_name}: local memory of core ({core[0]}, {core[1]}) in {plan.when(error.time)}: {problem}: {names}{more}"
    )
