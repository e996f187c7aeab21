"""
The local-memory verifier of a mapped task graph. Once `st-lmem-alloc` has written the
addresses, the graph's regions are what its attributes say:

- a storage block (weight, bias, table, buffer) holds `st.addr` and the dense bytes of its
  result over its coordinate's phases;
- a compute block's result lives at its `st.addr` in its phase (and the next k, with
  `st.store_late` of distance k; with `st.keep`, until the first phase of the last buffer first held
  after it that takes a box of it): inside a buffer of the same core held then that takes the whole result
  as one run at exactly that address (in place), or in a region of its own; a conv or fc
  whose result's only buffer, without `st.addr`, is read only by a relu or lut at the
  conv's own address applies that activation, on a target with `compute.fused_activation`:
  the conv writes the activation's output, and the buffer between them holds nothing;
- `st.staging_in = array<i64: address, bytes>` / `st.staging_out` on a buffer: the
  NC1HWC0 staging areas, in the buffer's first / last phase.

On every core the verifier proves, without asking the allocator: every region lies in the
core's usable local memory, its address is a multiple of the target's alignment for its
kind (32 B for staging areas), a region that fits in any bank crosses no bank boundary, and
no two regions live in the same (step, phase) overlap. A sweep over time keeps the live
regions sorted by address: O(n log n) per core, plus the list insertions.

```mlir
%w = task.weight 2 #task.random<1> : tensor<16x3x3x16xi8>
       {st.addr = 4096 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 0 to 1, memory)>}
%c = task.conv 3 %in, %w : tensor<1x8x8x16xi8> {st.addr = 8192 : i64, st.coord = #st.coord<(0, 0, 0, 0), (0, 1, axon)>}
```
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Sequence
from typing import TypeVar

import attrs
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, TensorType, UnitAttr
from xdsl.utils.exceptions import VerifyException

from stc.compiler.targets.hardware import HardwareTarget
from stc.dialects import task
from stc.dialects.st.attrs import COORD, CoordAttr
from stc.dialects.task.base import element_width, tensor_bytes
from stc.dialects.task.stats import is_contiguous, offset_bytes

ADDRESS = "st.addr"
"""A block's local byte address (a compute block's: where its result lives)."""
STAGING_IN = "st.staging_in"
STAGING_OUT = "st.staging_out"
"""A buffer's NC1HWC0 staging areas: `array<i64: address, bytes>`."""
STORE_LATE = "st.store_late"
"""On a compute block: its result is stored to global memory in the phase after its own (a
unit attribute) or k phases after it (`st.store_late = k : i64`), beside that phase's
compute, and lives until then."""
KEEP = "st.keep"
"""On a compute block: its result stays in its core's local memory until the first phase of
each buffer first held later that takes a box of it, which it is sent (or copied) to then,
instead of through global memory."""
STAGING_ALIGNMENT = 32
"""Staging areas hold `vec_trans_scatter` lanes: 32-byte blocks."""

Time = tuple[int, int]
"""(step, phase)."""
T = TypeVar("T")


def alignment_kind(op: task.TaskOp) -> str:
    """The target's alignment kind of a block's local bytes."""
    if isinstance(op, task.WeightOp):
        return "weight"
    if isinstance(op, task.BiasOp | task.TableOp):
        return "bias"
    result = op.results[0].type
    assert isinstance(result, TensorType)
    return "activation" if element_width(result) == 8 else "partial_sum"


def first_overlap(spans: Sequence[tuple[T, T, int, int]]) -> tuple[T, int, int] | None:
    """The first time two rectangles `(start, end, address, size)` (times inclusive)
    overlap, as `(time, i, j)` with `spans[i]` at the lower address; None when none do.
    Each region entering is compared with its two neighbours by address only.

    >>> first_overlap([(0, 1, 0, 8), (1, 1, 4, 8)])
    (1, 0, 1)
    """
    events = sorted(
        [(span[0], 0, i) for i, span in enumerate(spans)] + [(span[1], 1, i) for i, span in enumerate(spans)]
    )
    live: list[tuple[int, int]] = []  # (address, index), sorted
    for time, is_end, i in events:
        entry = (spans[i][2], i)
        position = bisect.bisect_left(live, entry)
        if is_end:
            live.pop(position)
            continue
        for address, j in live[max(position - 1, 0) : position + 1]:
            if address < entry[0] + spans[i][3] and entry[0] < address + spans[j][3]:
                low, high = sorted((entry, (address, j)))
                return time, low[1], high[1]
        live.insert(position, entry)
    return None


@attrs.frozen
class Placed:
    """A region the IR declares: bytes of one core at an address, over a lifetime."""

    label: str
    address: int
    size: int
    start: Time
    end: Time
    kind: str
    alignment: int

    @property
    def text(self) -> str:
        return f"{self.label} at [{self.address}, {self.address + self.size})"


def when(start: Time, end: Time) -> str:
    """`phase 2`, `phases 2 to 5`, `step 1, phase 0`."""
    step = f"step {start[0]}, " if start[0] else ""
    return f"{step}phase {start[1]}" if start == end else f"{step}phases {start[1]} to {end[1]}"


def verify_local_memory(graph: task.GraphOp, target: HardwareTarget) -> None:
    """Raise VerifyException at the first region that breaks a rule; nothing to check
    while no block carries an address."""
    regions = declared_regions(graph, target)
    for (y, x), placed in sorted(regions.items()):
        core = f"core ({y}, {x})"
        capacity = max(target.tile_type_at(y, x).memory_bytes - target.local_memory.reserved_bytes, 0)
        walls, smallest = bank_walls(target, capacity)
        for region in placed:
            where = f"{core}, {when(region.start, region.end)}"
            if region.address < 0 or region.address + region.size > capacity:
                raise VerifyException(
                    f"{where}: {region.text} is outside the usable local memory [0, {capacity}) of the core"
                )
            if region.address % region.alignment:
                raise VerifyException(
                    f"{where}: {region.label} at {region.address} is not a multiple of the "
                    f"{region.kind} alignment, {region.alignment} B"
                )
            wall = bisect.bisect_right(walls, region.address)
            if region.size <= smallest and wall < len(walls) and walls[wall] < region.address + region.size:
                raise VerifyException(
                    f"{where}: {region.text} crosses the bank boundary at {walls[wall]}; "
                    f"{region.size} B fit in any bank (the smallest holds {smallest} B)"
                )
        overlap = first_overlap([(r.start, r.end, r.address, r.size) for r in placed])
        if overlap is not None:
            time, i, j = overlap
            raise VerifyException(
                f"{core}, {when(time, time)}: {placed[i].text} and {placed[j].text} overlap, both live"
            )


def bank_walls(target: HardwareTarget, capacity: int) -> tuple[list[int], int]:
    """The bank boundaries inside `[0, capacity)` and the bytes of the smallest bank there
    (a bank cut by the capacity counts whole; memory past the last bank is one more bank)."""
    banks = [bank.capacity_bytes for bank in target.local_memory.banks] if len(target.local_memory.banks) > 1 else []
    lows, sizes, low = [], [], 0
    for size in banks:
        if low >= capacity:
            break
        lows.append(low)
        sizes.append(size)
        low += size
    if low < capacity:
        lows.append(low)
        sizes.append(capacity - low)
    return lows[1:], min(sizes, default=0)


def declared_regions(graph: task.GraphOp, target: HardwareTarget) -> dict[tuple[int, int], list[Placed]]:
    """The regions the graph's addresses declare, per core (empty before allocation)."""
    blocks = [op for op in graph.tasks() if not isinstance(op, task.InputOp | task.OutputOp)]
    if not any(ADDRESS in op.attributes for op in blocks):
        return {}
    alignments = target.local_memory.alignment_bytes
    regions: dict[tuple[int, int], list[Placed]] = defaultdict(list)
    fused = target.compute.fused_activation
    for op in blocks:
        if fused and bypassed(op) or isinstance(op, task.BufferOp) and stores_directly(op, target):
            continue
        coord, address = op.attributes.get(COORD), op.attributes.get(ADDRESS)
        label = f"block {op.task_id} ({op.name})"
        if not isinstance(coord, CoordAttr):
            raise VerifyException(f"{label} has an {ADDRESS} but no {COORD}: a local address needs a core")
        *_, y, x = coord.space
        if not isinstance(address, IntegerAttr):
            raise VerifyException(
                f"{label} on core ({y}, {x}) has no {ADDRESS}, while other blocks of task.graph "
                f"@{graph.graph_name} have one; run st-lmem-alloc again"
            )
        start, end = (coord.step, coord.phase), (coord.step, coord.last_phase)
        for _ in range(late_phases(op)):
            end = next_time(end, target)
        if isinstance(op, task.ComputeBlock) and KEEP in op.attributes:
            end = max([end, *kept_until(op, start)])
        kind = alignment_kind(op)
        size = tensor_bytes(op.results[0].type)  # pyright: ignore[reportArgumentType]
        place = Placed(label, address.value.data, size, start, end, kind, getattr(alignments, kind))
        if isinstance(op, task.ComputeBlock) and in_place(op, place, (y, x)):
            continue
        regions[y, x].append(place)
        for attribute, time, role in ((STAGING_IN, start, "input"), (STAGING_OUT, end, "output")):
            staging = op.attributes.get(attribute)
            if staging is None:
                continue
            if not isinstance(staging, DenseArrayBase) or len(values := staging.get_values()) != 2:
                raise VerifyException(f"{label}: {attribute} must be array<i64: address, bytes>, got {staging}")
            staged = Placed(
                f"{label} {role} staging", int(values[0]), int(values[1]), time, time, "staging", STAGING_ALIGNMENT
            )
            regions[y, x].append(staged)
    return regions


def bypassed(op: task.TaskOp) -> bool:
    """Whether a block holds no region of its own because a conv or fc applies the relu or
    lut after it (module docstring): the conv, whose result is the activation's, or the
    buffer between them."""
    if isinstance(op, task.BufferOp) and ADDRESS not in op.attributes and len(op.pieces) == 1:
        op = op.pieces[0][0].owner
    return isinstance(op, task.ConvOp | task.FcOp) and applied_activation(op) is not None


def stores_directly(buffer: task.BufferOp, target: HardwareTarget, first: Time | None = None) -> bool:
    """Whether a buffer holds no region because its producers store their boxes straight
    into the network output it stores: it only stores outputs and takes every box from a
    result made before its first (step, phase) (`first`, or its coordinate's), none
    `st.keep`, on a target without NC1HWC0 staging (where the result would wait in global
    memory for it, it goes to the output)."""
    coord = buffer.attributes.get(COORD)
    if first is None and isinstance(coord, CoordAttr):
        first = (coord.step, coord.phase)
    if target.activation_layout.kind == "nc1hwc0" or first is None:
        return False
    if not buffer.result.uses or not all(isinstance(use.operation, task.OutputOp) for use in buffer.result.uses):
        return False
    for value, _, _ in buffer.pieces:
        producer = value.owner
        made = producer.attributes.get(COORD) if isinstance(producer, task.ComputeBlock) else None
        if not isinstance(made, CoordAttr) or KEEP in producer.attributes:  # pyright: ignore[reportAttributeAccessIssue]
            return False
        if (made.step, made.phase) >= first:
            return False
    return True


def applied_activation(op: task.ConvOp | task.FcOp) -> task.TaskOp | None:
    """The relu or lut a conv or fc writes the output of: its result's only buffer has no
    `st.addr` and is read only by that relu or lut, whose `st.addr` is the conv's."""
    uses = [use.operation for use in op.result.uses]
    if len(uses) != 1 or not isinstance(buffer := uses[0], task.BufferOp) or ADDRESS in buffer.attributes:
        return None
    readers = [use.operation for use in buffer.result.uses]
    if len(readers) != 1 or not isinstance(activation := readers[0], task.ReluOp | task.LutOp):
        return None
    address = op.attributes.get(ADDRESS)
    return activation if address is not None and activation.attributes.get(ADDRESS) == address else None


def late_phases(op: task.TaskOp) -> int:
    """How many phases after its own a compute block's result is stored (`st.store_late`:
    one, or the distance it names), 0 when it is not marked."""
    late = op.attributes.get(STORE_LATE)
    if late is None or not isinstance(op, task.ComputeBlock):
        return 0
    if isinstance(late, IntegerAttr) and late.value.data >= 1:
        return late.value.data
    if isinstance(late, UnitAttr):
        return 1
    raise VerifyException(f"block {op.task_id} ({op.name}): {STORE_LATE} must be a unit or a distance >= 1, got {late}")


def next_time(time: Time, target: HardwareTarget) -> Time:
    """The (step, phase) after `time`: the next step's first once a step has `max_phases`."""
    step, phase = time
    return (step + 1, 0) if target.max_phases is not None and phase + 1 >= target.max_phases else (step, phase + 1)


def kept_until(op: task.ComputeBlock, made: Time) -> list[Time]:
    """The first (step, phase) of each buffer that takes a box of a kept result and is
    first held after it is made (`st.keep`)."""
    times = []
    for use in op.result.uses:
        coord = use.operation.attributes.get(COORD)
        if isinstance(use.operation, task.BufferOp) and isinstance(coord, CoordAttr):
            times.append((coord.step, coord.phase))
    return [time for time in times if time > made]


def in_place(op: task.ComputeBlock, result: Placed, core: tuple[int, int]) -> bool:
    """Whether the result lies, as one run at its address, in a buffer of the same core
    held while it lives that takes it whole."""
    shape = tuple(op.result.type.get_shape())
    for use in op.result.uses:
        buffer = use.operation
        if not isinstance(buffer, task.BufferOp):
            continue
        coord, address = buffer.attributes.get(COORD), buffer.attributes.get(ADDRESS)
        if not isinstance(coord, CoordAttr) or not isinstance(address, IntegerAttr):
            continue
        held = (coord.step, coord.phase) <= result.start and result.end <= (coord.step, coord.last_phase)
        if coord.space[2:] != core or not held:
            continue
        buffer_shape = tuple(buffer.result.type.get_shape())
        for value, box, offset in buffer.pieces:
            if (
                value is op.result
                and box.shape == shape
                and is_contiguous(shape, buffer_shape)
                and address.value.data + offset_bytes(buffer.result.type, offset) == result.address
            ):
                return True
    return False
