"""
The timesteps of a sliced layer group (seed 004) and the local memory they need.

Slice s of a group of m layers computes its layers in timesteps s·m … s·m + m − 1, one
layer each, in graph order. In each timestep the layer's inputs from outside the group
are loaded before it runs and its results that leave the group are stored after it
(where the machine runs DMA and compute one after the other an earlier load or a later
store would only hold memory longer; where they overlap, `search.Groups.scheduled` may
load ahead and store late, below). What lives in local memory:

- an input tile of a layer's slice: from the timestep of the first member that writes it
  (its own when only layers outside the group do) to the layer's; every member writing it
  (the branches of a concatenation) writes its part in its own timestep. On a target whose
  DMA overlaps compute, a tile only layers outside the group write is loaded one timestep
  early when memory allows (software pipelining: slice s + 1's loads run beside slice s's
  compute);
- a result tile, in its timestep, when it does not land whole in one input tile. On a
  target whose DMA overlaps compute, a result that later groups read may be stored in the
  next timestep of its group instead (seed 004's "op i−1's group outputs stored"), beside
  that timestep's compute: its tile then lives one timestep longer;
- a layer's weights, bias and table: over its own timesteps, first slice to last; so, when
  N or H is sliced, they are loaded once and stay resident across the slices. On a target
  whose DMA overlaps compute they are hoisted one timestep earlier when memory allows
  (seed 004's w4: [T5, T5] becomes [T4, T5]), so the load runs beside the previous layer;
- a buffer feeding a network output: whole, from the first timestep a member writes it
  to the last;
- on an NC1HWC0 target, the staging areas of network inputs and outputs.

These are rectangles for the same allocator `st-lmem-alloc` uses (one allocator, two
clients): a group fits when `allocate` places them all.

```
group [4, 6] sliced n=1 h=2:   step 0: conv 4 (slice 0)   step 1: relu 6 (slice 0)
                               step 2: conv 4 (slice 1)   step 3: relu 6 (slice 1)
```
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

from attrs import frozen

from stc.compiler.grouping.layers import Interval, Layer, LayerGraph, Tile
from stc.compiler.grouping.price import StepWork, layer_cycles, stage_cycles, transfer_cycles, unread_stage_cycles
from stc.compiler.grouping.slicing import LayerSlice, Slicing
from stc.compiler.memory.allocation import allocate
from stc.compiler.memory.lmem import alignment_of, core_memory
from stc.compiler.memory.plan import staging_bytes
from stc.compiler.memory.rectangles import AllocationError, Memory, Request, peak_live_bytes
from stc.compiler.memory.storage_size import buffer_bytes
from stc.compiler.targets.cost_units import Work, copy_cycles
from stc.compiler.targets.hardware import HardwareTarget
from stc.dialects.task.stats import is_contiguous, row_major_strides

Load = tuple[int, tuple[int, ...], bool]
"""A box loaded from global memory: bytes, NHWC extent, whether a network input."""


@frozen
class GroupPlan:
    """A sliced group's timestep table, its local-memory rectangles and its work."""

    slicing: Slicing
    steps: dict[tuple[int, int], int]
    """(slice, layer id) → timestep, counted from the group's first."""
    requests: tuple[Request, ...]
    """For the allocator: dense bytes, as the memory plan counts them."""
    stored: tuple[Request, ...]
    """The storage blocks alone, in the st matrix's aligned storage model (its memory rule)."""
    work: Work
    """MACs, bytes streamed by vector layers (as local reads and writes) and DRAM bytes."""
    timeline: tuple[StepWork, ...] = ()
    """What each timestep computes, loads, loads ahead and stores (`price.step_cycles`)."""
    hoisted: bool = False
    """Whether data blocks are loaded one timestep before their layer's first slice."""
    pipelined: bool = False
    """Whether input tiles loaded from global memory are loaded one timestep before their reader."""
    late: frozenset[int] = frozenset()
    """The timesteps (from the group's first) whose results later groups read are stored in
    the next timestep instead of their own."""

    @property
    def length(self) -> int:
        return len(self.steps)

    @property
    def peak_bytes(self) -> int:
        return peak_live_bytes(self.requests)


def box_bytes(shape: Sequence[int], itemsize: int, batch: Interval, rows: Interval) -> int:
    """Bytes of the rows `rows` of the batch `batch` of a dense NHWC tensor of `shape`."""
    return (batch[1] - batch[0]) * (rows[1] - rows[0]) * math.prod(shape[2:]) * itemsize


def overlap(a: Interval, b: Interval) -> Interval:
    return max(a[0], b[0]), max(min(a[1], b[1]), max(a[0], b[0]))


def plan_group(
    layers: LayerGraph,
    slicing: Slicing,
    target: HardwareTarget,
    hoisted: bool = False,
    pipelined: bool = False,
    delayed: bool | frozenset[int] = False,
) -> GroupPlan:
    """The timestep table of a slicing, its rectangles and its work; `hoisted`: every
    layer's data blocks are loaded one timestep before its first slice runs (but the
    group's first layer's), beside the previous layer's compute; `pipelined`: so is every
    input tile that only layers outside the group write; `delayed`: every result later
    groups read (or those of the timesteps it names) is stored in the timestep after its
    own (but in the group's last), beside that timestep's compute."""
    members = slicing.members
    late_steps: set[int] = set()
    steps = {(s, task_id): s * len(members) + j for s in range(slicing.count) for j, task_id in enumerate(members)}
    timeline = [StepWork() for _ in steps]
    requests: list[Request] = []
    stored: list[Request] = []
    macs = streamed_read = streamed_write = dram_read = dram_write = 0
    inside, leaving = set(members), set(layers.outputs_of(members))
    nc1hwc0 = target.activation_layout.kind == "nc1hwc0"
    for s, found in enumerate(slicing.slices):
        for task_id in members:
            layer, mine, step = layers.op(task_id), found[task_id], steps[s, task_id]
            for tile in layer.inputs:
                size = box_bytes(tile.shape, tile.itemsize, mine.batch, mine.read)
                writers = {
                    source.producer: steps[s, source.producer] for source in tile.sources if source.producer in inside
                }
                start = min(writers.values(), default=max(step - 1, 0) if pipelined else step)
                loads = list(loaded_boxes(tile, mine, inside))
                load(timeline, start, step, loads, target)
                label = f"input of {layer.describe()} slice {s}, {size} B"
                key = ("input", task_id, s, tile.task_id)
                requests.append(Request(key, size, alignment_of(target, tile.kind), start, step, label))
                shape = (mine.batch[1] - mine.batch[0], mine.read[1] - mine.read[0], *tile.shape[2:])
                stored.append(Request(key, buffer_bytes(shape, 8 * tile.itemsize, target), 1, start, step, label))
                if nc1hwc0 and any(source.producer is None for source in tile.sources):
                    staging, label = staging_bytes(shape), f"staging of {layer.describe()} slice {s}"
                    requests.append(
                        Request((key, "staging"), staging, alignment_of(target, "staging"), start, start, label)
                    )
                dram_read += sum(nbytes for nbytes, _, _ in loads)
            result = box_bytes(layer.shape, layer.itemsize, mine.batch, mine.rows)
            spilled, output = stored_bytes(layer, mine, inside)
            asked = step in delayed if isinstance(delayed, frozenset) else delayed
            late = asked and spilled > 0 and step + 1 < len(steps)
            if late:
                late_steps.add(step)
            own = len(layer.outputs) != 1 or task_id in leaving or len(layer.outputs[0].sources) > 1
            if own:
                label = f"result of {layer.describe()} slice {s}, {result} B"
                end = step + 1 if late else step
                requests.append(
                    Request(("result", task_id, s), result, alignment_of(target, layer.kind), step, end, label)
                )
            layer_macs, read = layer_work(layer, mine)
            written = 0 if layer.on_mac_array else result
            macs, streamed_read, streamed_write = macs + layer_macs, streamed_read + read, streamed_write + written
            dram_write += spilled + output
            timeline[step].compute += layer_cycles(target, layer.on_mac_array, layer_macs, read, result)
            for nbytes, after_spill in copied_bytes(layers, layer, mine, {m: found[m] for m in members}, target):
                timeline[step].compute += copy_cycles(target, nbytes)
                timeline[step].after_store += copy_cycles(target, nbytes) if after_spill and not late else 0
            if late:
                timeline[step + 1].delayed += transfer_cycles(target, spilled)
            else:
                timeline[step].stored += transfer_cycles(target, spilled)
    for tile, at in output_buffers(layers, steps).values():
        nbytes = math.prod(tile.shape) * tile.itemsize
        last = timeline[max(at)]
        last.output_stored += transfer_cycles(target, nbytes)
        if tile.itemsize == 1:
            staging = stage_cycles(target, tile.shape, False)
            last.compute, last.after_store = last.compute + staging, last.after_store + staging
            last.unread_tail = unread_stage_cycles(target, tile.shape)
    for request in output_requests(layers, slicing, steps, target):
        requests.append(request)
        if request.key[-1] != "staging":
            stored.append(request)
    for task_id in members:
        layer = layers.op(task_id)
        for block_id, name, size, kind, aligned in layer.data:
            label = f"{name} {block_id} of {layer.describe()}, {size} B"
            first, last = steps[0, task_id], steps[slicing.count - 1, task_id]
            load(timeline, max(first - 1, 0) if hoisted else first, first, [(size, (), False)], target)
            first = max(first - 1, 0) if hoisted else first
            key = ("data", task_id, block_id)
            requests.append(Request(key, size, alignment_of(target, kind), first, last, label))
            stored.append(Request(key, aligned, 1, first, last, label))
            dram_read += size
    work = Work(macs, streamed_read, streamed_write, dram_read, dram_write)
    return GroupPlan(
        slicing, steps, tuple(requests), tuple(stored), work, tuple(timeline), hoisted, pipelined, frozenset(late_steps)
    )


def load(timeline: list[StepWork], start: int, step: int, loads: list[Load], target: HardwareTarget) -> None:
    """Price the DMA of each box loaded in timestep `start` for timestep `step`'s compute,
    and the staging of those from a network input: a prefetch when `start` is earlier."""
    dma = sum(transfer_cycles(target, nbytes) for nbytes, _, _ in loads)
    staging = sum(stage_cycles(target, extent, True) for _, extent, from_input in loads if from_input)
    if start < step:
        timeline[start].prefetched += dma
        timeline[start].stage_ahead += staging
    else:
        timeline[step].loaded += dma
        timeline[step].input_loads += sum(transfer_cycles(target, n) for n, _, from_input in loads if from_input)
        timeline[step].stage_in += staging


def output_buffers(layers: LayerGraph, steps: dict[tuple[int, int], int]) -> dict[int, tuple[Tile, list[int]]]:
    """The buffers feeding network outputs that members write, with the timesteps that
    write them (the last stores the whole buffer)."""
    written: dict[int, tuple[Tile, list[int]]] = {}
    for s, task_id in steps:
        for tile in layers.op(task_id).outputs:
            if tile.reader is None:
                written.setdefault(tile.task_id, (tile, []))[1].append(steps[s, task_id])
    return written


def output_requests(
    layers: LayerGraph, slicing: Slicing, steps: dict[tuple[int, int], int], target: HardwareTarget
) -> Iterator[Request]:
    """The buffers feeding network outputs that members write: each held whole from its
    first writer's timestep to its last (every slice writes its part in place), and on an
    NC1HWC0 target its output staging in the last."""
    for tile_id, (tile, at) in output_buffers(layers, steps).items():
        size = math.prod(tile.shape) * tile.itemsize
        label = f"output buffer {tile_id}, {size} B"
        yield Request(("output", tile_id), size, alignment_of(target, tile.kind), min(at), max(at), label)
        if target.activation_layout.kind == "nc1hwc0" and tile.itemsize == 1:
            label = f"staging of output buffer {tile_id}"
            staging = staging_bytes(tile.shape)
            yield Request(
                ("output", tile_id, "staging"), staging, alignment_of(target, "staging"), max(at), max(at), label
            )


def loaded_boxes(tile: Tile, mine: LayerSlice, inside: set[int]) -> Iterator[Load]:
    """Each box of a layer slice's input tile loaded from global memory (all but those
    members of the group write in place, each in its own timestep): its bytes, its NHWC
    extent, and whether it comes from a network input. The boxes of results stored by
    earlier groups are one load where they make one box of the tile, as isa-lower loads
    the pieces of a frame (`spill_frames`)."""
    spilled: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for source in tile.sources:
        if source.producer in inside:
            continue
        batch = overlap(mine.batch, (source.offset[0], source.offset[0] + source.box[0][1] - source.box[0][0]))
        rows = overlap(mine.read, (source.offset[1], source.offset[1] + source.box[1][1] - source.box[1][0]))
        extent = (batch[1] - batch[0], rows[1] - rows[0], *(hi - lo for lo, hi in source.box[2:]))
        if not math.prod(extent):
            continue
        if source.producer is None:
            yield math.prod(extent) * tile.itemsize, extent, True
        else:
            spilled.append(((batch[0], rows[0], *source.offset[2:]), extent))
    lo = [min(x) for x in zip(*(start for start, _ in spilled), strict=True)]
    hi = [max(x) for x in zip(*(tuple(map(sum, zip(*box, strict=True))) for box in spilled), strict=True)]
    whole = tuple(b - a for a, b in zip(lo, hi, strict=True))
    if len(spilled) > 1 and sum(math.prod(extent) for _, extent in spilled) == math.prod(whole):
        yield math.prod(whole) * tile.itemsize, whole, False
        return
    for _, extent in spilled:
        yield math.prod(extent) * tile.itemsize, extent, False


def copied_bytes(
    layers: LayerGraph, layer: Layer, mine: LayerSlice, found: dict[int, LayerSlice], target: HardwareTarget
) -> Iterator[tuple[int, bool]]:
    """The bytes of a slice's result copied into each buffer of the group that takes it:
    the rows each reader's slice reads (a buffer a network output stores: the rows the
    slice owns), but for the first that takes the whole result as one aligned run, where it
    is made in place (`memory.plan.takes_whole`: a channel band of a concatenation too);
    each with whether a buffer outside the group comes before it (isa-lower then emits the
    result's store before the copy, in the buffers' order)."""
    whole = box_bytes(layer.shape, layer.itemsize, mine.batch, mine.rows)
    in_place = spilled = False
    for tile in layer.outputs:
        if tile.reader is not None and tile.reader not in found:
            spilled = True
            continue
        reader = found[tile.reader] if tile.reader is not None else mine
        wanted = reader.read if tile.reader is not None else (mine.owned or mine.rows)
        for source in tile.sources:
            if source.producer != layer.task_id:
                continue
            at, shift = source.offset, [source.offset[axis] - source.box[axis][0] for axis in (0, 1)]
            rows = overlap(
                overlap(wanted, (at[1], at[1] + source.box[1][1] - source.box[1][0])), shifted(mine.rows, shift[1])
            )
            batch = overlap(
                overlap(reader.batch, (at[0], at[0] + source.box[0][1] - source.box[0][0])),
                shifted(mine.batch, shift[0]),
            )
            nbytes = box_bytes([hi - lo for lo, hi in source.box], layer.itemsize, batch, rows)
            base = (reader.batch[0], reader.read[0]) if tile.reader is not None else (0, 0)
            at_tile = (batch[0] - base[0], rows[0] - base[1], *at[2:])
            if not in_place and nbytes == whole and lands_whole(tile, layer, mine, reader, at_tile, target):
                in_place = True
            elif nbytes:
                yield nbytes, spilled


def lands_whole(
    tile: Tile, layer: Layer, mine: LayerSlice, reader: LayerSlice, at: Sequence[int], target: HardwareTarget
) -> bool:
    """Whether a slice's whole result, placed at `at` in a reader's slice of a tile (a
    buffer a network output stores: the whole tile), is one run of bytes at an address
    aligned for the result, as the memory plan asks of a result made in place."""
    rows = reader.read if tile.reader is not None else (0, tile.shape[1])
    batch = reader.batch if tile.reader is not None else (0, tile.shape[0])
    extent = (batch[1] - batch[0], rows[1] - rows[0], *tile.shape[2:])
    box = (mine.batch[1] - mine.batch[0], mine.rows[1] - mine.rows[0], *layer.shape[2:])
    alignment = getattr(target.local_memory.alignment_bytes, layer.kind)
    offset = sum(i * stride for i, stride in zip(at, row_major_strides(extent, tile.itemsize), strict=True))
    return tile.itemsize == layer.itemsize and is_contiguous(box, extent) and offset % alignment == 0


def shifted(interval: Interval, by: int) -> Interval:
    return interval[0] + by, interval[1] + by


def stored_bytes(layer: Layer, mine: LayerSlice, inside: set[int]) -> tuple[int, int]:
    """Bytes of a slice's result stored to global memory: the whole result once when
    layers outside the group read some of the rows it owns ("spilled": each of their
    buffers loads its box back; `rewrite.route_outside` gives them those rows), and the
    slice's share of the rows of each network output it feeds (output slices partition
    them)."""
    spilled = output = 0
    for tile in layer.outputs:
        if tile.reader in inside:
            continue
        for source in tile.sources:
            if source.producer != layer.task_id:
                continue
            batch = overlap(mine.batch, source.box[0])
            rows = overlap(mine.owned or mine.rows, source.box[1])
            if tile.reader is None:
                output += box_bytes([hi - lo for lo, hi in source.box], layer.itemsize, batch, rows)
            elif batch[1] > batch[0] and rows[1] > rows[0]:
                spilled = box_bytes(layer.shape, layer.itemsize, mine.batch, mine.rows)
    return spilled, output


def layer_work(layer: Layer, mine: LayerSlice) -> tuple[int, int]:
    """MACs of a layer's slice, and the bytes it reads when it is not a conv or fc, as the
    machine counts them: a pool its window for every output element, the other vector
    layers their input tiles and data blocks (tables, biases); what they write is their
    result."""
    share = (mine.batch[1] - mine.batch[0]) * (mine.rows[1] - mine.rows[0]) / (layer.shape[0] * layer.shape[1])
    if layer.on_mac_array:
        return math.ceil(layer.macs * share), 0
    if layer.window is not None:
        outputs = box_bytes(layer.shape, 1, mine.batch, mine.rows)
        return math.ceil(layer.macs * share), outputs * layer.window.taps * layer.inputs[0].itemsize
    read = sum(box_bytes(tile.shape, tile.itemsize, mine.batch, mine.read) for tile in layer.inputs)
    return math.ceil(layer.macs * share), read + sum(size for _, _, size, _, _ in layer.data)


def group_memory(target: HardwareTarget) -> Memory:
    """The local memory a group runs in: the first core's."""
    return core_memory(target, (0, 0))


def fits(plan: GroupPlan, memory: Memory) -> bool:
    """Whether the st matrix's memory rule holds in every timestep and the allocator places
    every rectangle of the plan."""
    if plan.peak_bytes > memory.capacity or peak_live_bytes(plan.stored) > memory.capacity:
        return False
    try:
        allocate(plan.requests, memory)
    except AllocationError:
        return False
    return True
