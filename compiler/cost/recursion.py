"""
The cost of an RA-tree node from the costs of its children: seed 002's recursion.

With n the subbatches of a cut:

- work (MACs, local-memory, DRAM and NoC hop-bytes, hence energy) and the bytes on each
  link: n·Σ children; the weights' loading (`weights`, `weight_links`): Σ children, as a
  segment loads its weights in its first subbatch and keeps them on its cores for the
  others (the lowering holds them there, `st.share_data`);
- latency: a node runs as time slots (the machine's phases, `schedule`), and keeps
  the cycles and DRAM bytes of each slot of one run once its weights are on chip (`slots`,
  `slot_dram`), and what loading them adds to its first subbatch (`weight_cycles`). T-cut:
  its children's slots one after another, n times (n·Σ children), plus Σ of their loading.
  S-cut: (n + max stage) blocks of max child slots, a child's stage being one more than
  that of every earlier sibling it reads from; child c runs its subbatch i in block
  i + stage(c), and a slot lasts as long as the slowest child running in it and at least
  as long as all their DRAM bytes take at the DRAM bandwidth (at most the seed's
  (n + max stage)·max child, equal when the children take equally long), plus the
  slowest child's loading (they load side by side). Never less than the node's own DRAM
  traffic over the DRAM bandwidth;
- prefetch (a target whose DMA overlaps compute, `dma_overlaps_compute`): in a T-cut, the
  weights a child loads in its first slot are loaded in one of the PREFETCH_DEPTH slots
  before it instead, beside that slot's compute, where that shortens the run most, if at
  all, the farthest of equals (`prefetched`; the lowering holds them from there and
  isa-lower loads them beside the compute): they add to that slot's DRAM bytes, and the child's first slot lasts as
  long as without them (`head_dram`, `head_cycles`). An S-cut's children of stage 0 load in
  its first slot (its head); the others in their own first slot. Likewise a T-cut's leaves
  after the first load their input boxes from DRAM in one of the PREFETCH_DEPTH slots
  before them, in every subbatch, where that is faster, the nearest of equals
  (`early_loads`, `NodeCost.early_inputs`), and a segment's first leaf in a slot of the
  subbatch before, from the second subbatch on; where the whole cut (its weights'
  prefetch included) is faster with each in the slot just before it, there;
- buffer usage per core: ifm = n·Σ ifm, wgt = Σ wgt; S-cut buf = Σ buf (n = 1) or
  Σ (buf + ifm) (n > 1); T-cut buf = max over i of buf_i + ifm_{i+1}, the last child with
  the first child's ifm when n > 1 (the next subbatch is prefetched), and an input loaded
  k > 1 slots early with the buf of every child in between (`early_held`).

A segment is valid when buf + wgt fits every core's buffer.

    cost = t_cut([a, b], n=2, target=target)
"""

from __future__ import annotations

import math

import attrs
import numpy as np

from stc.compiler.cost.beside import Moved, early_held, early_loads, late_held
from stc.compiler.cost.node_cost import NodeCost, Slots, bounded, combined, scaled
from stc.compiler.cost.room import Room
from stc.compiler.targets.cost_units import Work
from stc.compiler.targets.hardware import HardwareTarget

PREFETCH_DEPTH = 32
"""How many slots before its first one a layer's weights may be loaded (held that much longer);
at batch 1 the weights of stages 2-4 of ResNet-50 fill the DRAM idle beside stage 1's compute."""


def reloaded(cost: NodeCost, reloads: list[tuple[NodeCost, int]], target: HardwareTarget) -> NodeCost:
    """A segment whose leaves load their weights again, each `times` more times (in later
    steps): their loading's work, link bytes and cycles added that many times."""
    if not reloads:
        return cost
    extra = sum((scaled(leaf.weights, times) for leaf, times in reloads), Work())
    cycles = sum(times * leaf.weight_cycles for leaf, times in reloads)
    return bounded(
        attrs.evolve(
            cost,
            weights=cost.weights + extra,
            weight_links=cost.weight_links + sum(times * leaf.weight_links for leaf, times in reloads),
            latency=cost.latency + cycles,
            weight_cycles=cost.weight_cycles + cycles,
            loads=None,
            load_dram=None,
        ),
        target,
    )


def t_buffers(bufs: list[np.ndarray], ifms: list[np.ndarray], n: int) -> np.ndarray:
    """A T-cut's buf per core from its children's buf and ifm: max over i of buf_i +
    ifm_(i+1), the last child with the first child's ifm when n > 1."""
    pairs = [buf + following for buf, following in zip(bufs, ifms[1:], strict=False)]
    last = bufs[-1] + (ifms[0] if n > 1 else 0)
    return np.maximum.reduce([*pairs, last])


def s_buffers(bufs: list[np.ndarray], ifms: list[np.ndarray], n: int) -> np.ndarray:
    """An S-cut's buf per core: Σ buf (n = 1) or Σ (buf + ifm)."""
    return sum(buf + ifm for buf, ifm in zip(bufs, ifms, strict=True)) if n > 1 else sum(bufs)


def t_cut(
    children: list[NodeCost],
    n: int,
    target: HardwareTarget,
    early: bool = True,
    wrap: bool = False,
    late: int = PREFETCH_DEPTH,
    room: Room | None = None,
) -> NodeCost:
    """A T-cut: its children one after another on the same cores, n times; on a target
    whose DMA overlaps compute, with `early`, its leaves' input boxes loaded in a slot
    before them and (with `wrap`, a segment's) their results stored in a slot up to `late`
    after them where that is faster (`early_loads`; with `wrap` also the first child's
    inputs from the second subbatch on), or, where the whole cut, its weights' prefetch
    included, is faster so, only in the slot just before or after them. `room`: the root's
    (its children are segments), whose weights are prefetched only where they fit."""
    buf = t_buffers([c.buf for c in children], [c.ifm for c in children], n)
    compute = n * sum(c.compute_cycles for c in children)
    if target.global_memory.dma_overlaps_compute:
        depth = PREFETCH_DEPTH if early else 0
        stores = min(depth, late) if wrap else 0
        cut = early_t_cut(children, n, target, depth, wrap, stores, buf, compute, room)
        if all(k < 2 for k in cut[1]):
            return cut[0]
        near = early_t_cut(children, n, target, 1, wrap, min(stores, 1), buf, compute)
        return near[0] if near[0].latency <= cut[0].latency else cut[0]
    profiles = [child.profile() for child in children]
    slots = (np.concatenate([p[0] for p in profiles]), np.concatenate([p[1] for p in profiles]), n)
    rest = (n - 1) * len(slots[0])
    loading = sum(c.weight_cycles for c in children)
    latency = n * float(slots[0].sum()) + loading
    loads = [np.concatenate([*parts, np.zeros(rest)]) for parts in zip(*(c.loading() for c in children), strict=True)]
    cost = combined(children, n, latency, compute, buf, slots, loading)
    return bounded(attrs.evolve(cost, loads=loads[0], load_dram=loads[1]), target)


def early_t_cut(
    children: list[NodeCost],
    n: int,
    target: HardwareTarget,
    depth: int,
    wrap: bool,
    stores: int,
    buf: np.ndarray,
    compute: float,
    room: Room | None = None,
) -> tuple[NodeCost, list[int]]:
    """`prefetching_t_cut` with the input boxes loaded up to `depth` slots early and the
    results stored up to `stores` slots late, and how many slots early each child's inputs
    are and late each stores."""
    moving, moved, late, steady, full = early_loads(children, n, target, depth, wrap, stores)
    held = late_held(moving, late, early_held(moving, moved, buf))
    cut = prefetching_t_cut(moving, moved, late, steady, full, n, target, held, compute, room)
    return cut, [k for _, k in moved + late]


def prefetching_t_cut(
    children: list[NodeCost],
    moved: list[Moved],
    late: list[Moved],
    steady: Slots,
    full: tuple[np.ndarray, np.ndarray, int],
    n: int,
    target: HardwareTarget,
    buf: np.ndarray,
    compute: float,
    room: Room | None = None,
) -> NodeCost:
    """A T-cut on a target whose DMA overlaps compute: each child's first-slot weights are
    loaded in the earlier slot (of the last PREFETCH_DEPTH; with `room`, where they fit)
    where that shortens the first run most, if any; of equals the farthest, which leaves
    the nearer slots, which more of the later children reach, to them (ResNet-50 v1 b1's start tree on set-8x8: 423,520
    cycles with the nearest of equals and a depth of 4, 420,308 with this and 32). `moved`:
    the input bytes loaded early for each child and how many slots before it, `late`: the
    bytes each stores beside a slot after it and how many after (`early_loads`); `steady`: the
    first subbatch's slots with the weights on chip, `full`: all n subbatches' (or one's,
    the same each time)."""
    bandwidth = target.global_memory.bandwidth_bytes_per_cycle
    starts = np.cumsum([0] + [child.slot_count for child in children])
    first_slots, first_dram = np.empty(int(starts[-1])), np.empty(int(starts[-1]))
    """The first subbatch's slots, filled child by child (`end`: those filled so far)."""

    def add_dram(slot: int, nbytes: float) -> None:
        """`nbytes` more DRAM bytes in a filled slot (none before the first), which then
        lasts at least as long as its DRAM bytes take."""
        if slot < 0:
            return
        first_dram[slot] += nbytes
        first_slots[slot] = max(first_slots[slot], float(math.ceil(first_dram[slot] / bandwidth)))

    stored = sorted((int(starts[i]) + k, nbytes) for i, (nbytes, k) in enumerate(late) if nbytes)
    """The first subbatch's late stores: (slot, bytes), added once their slot is filled."""
    end = int(starts[1])
    first_slots[:end], first_dram[:end] = children[0].first_run()
    prefetched = dict(pair for c in children for pair in c.prefetched)
    for index, (child, (early, back)) in enumerate(zip(children[1:], moved[1:], strict=True), 1):
        if early:
            add_dram(end - back, early)
        loaded = child.first_run()
        if child.head_dram:
            hoisted = child.prefetched_run()
            first = max(end - PREFETCH_DEPTH, 0)
            cycles, dram = first_slots[first:end], first_dram[first:end]
            longer = np.maximum(cycles, np.ceil((dram + child.head_dram) / bandwidth))
            gains = loaded[0][0] - hoisted[0][0] - (longer - cycles)
            if room is None:
                slot = int(np.argmax(gains))  # the farthest of equals
            else:
                slot, _ = room.place(gains, first, starts[1:], index, child.head_wgt)
            if gains[slot] > 0:
                add_dram(first + slot, child.head_dram)
                loaded = hoisted
                prefetched |= dict.fromkeys(child.head_layers, end - first - slot)
        first_slots[end : end + len(loaded[0])], first_dram[end : end + len(loaded[0])] = loaded
        end += len(loaded[0])
        while stored and stored[0][0] < end:
            slot, nbytes = stored.pop(0)
            add_dram(slot, nbytes)
    if moved[0][0]:
        add_dram(end - moved[0][1], moved[0][0])
    head = children[0].head_dram
    head_cycles = max(children[0].head_cycles, float(np.ceil((first_dram[0] - head) / bandwidth))) if head else 0.0
    loading = float(first_slots.sum() - steady[0].sum())
    repeats = full[2]
    latency = repeats * float(full[0].sum()) + loading
    rest = np.zeros(repeats * len(full[0]) - len(steady[0]))
    cost = combined(children, n, latency, compute, buf, (full[0], full[1], repeats), loading)
    return bounded(
        attrs.evolve(
            cost,
            loads=np.concatenate([first_slots - steady[0], rest]),
            load_dram=np.concatenate([first_dram - steady[1], rest]),
            head_dram=float(head),
            head_cycles=head_cycles,
            head_layers=children[0].head_layers,
            head_wgt=children[0].head_wgt,
            prefetched=tuple(sorted(prefetched.items())),
        ),
        target,
    )


def s_cut(children: list[NodeCost], n: int, stages: list[int], target: HardwareTarget) -> NodeCost:
    """An S-cut: its children side by side on disjoint cores, pipelined over n subbatches."""
    buf = s_buffers([c.buf for c in children], [c.ifm for c in children], n)
    depth = n + max(stages)
    profiles = [child.profile() for child in children]
    block = max(len(cycles) for cycles, _ in profiles)
    cycles, dram = np.zeros((depth, block)), np.zeros((depth, block))
    first, weight_dram = np.zeros((depth, block)), np.zeros((depth, block))
    """The first run's: each child loads its weights in its slots of block stage(c), as its
    own first run spreads them (`NodeCost.loading`)."""
    overlap = target.global_memory.dma_overlaps_compute
    head, head_slot = 0.0, 0.0
    """Where DMA overlaps compute: the weights the children of stage 0 load in the first
    slot, which a slot before the cut may prefetch, and that slot without the prefetch."""
    for child, (own, moved), stage in zip(children, profiles, stages, strict=True):
        rows = slice(stage, stage + n)
        cycles[rows, : len(own)] = np.maximum(cycles[rows, : len(own)], own)
        first[rows, : len(own)] = np.maximum(first[rows, : len(own)], own)
        loaded, loaded_dram = child.prefetched_run() if overlap and not stage else child.first_run()
        first[stage, : len(own)] = np.maximum(first[stage, : len(own)], loaded)
        dram[rows, : len(own)] += moved
        weight_dram[stage, : len(own)] += loaded_dram - moved
        if overlap and not stage:
            head += child.head_dram
            head_slot = max(head_slot, float(child.first_run()[0][0]))
    bandwidth = target.global_memory.bandwidth_bytes_per_cycle
    slots = np.maximum(cycles, np.ceil(dram / bandwidth)).reshape(-1)
    firsts = np.maximum(first, np.ceil((dram + weight_dram) / bandwidth)).reshape(-1)
    prefetchable = float(firsts[0])
    weight_dram = weight_dram.reshape(-1)
    if head:
        firsts[0] = max(prefetchable, head_slot, float(np.ceil((dram[0, 0] + weight_dram[0] + head) / bandwidth)))
        weight_dram[0] += head
    loading = float(firsts.sum() - slots.sum())
    compute = depth * max(c.compute_cycles for c in children)
    cost = combined(children, n, float(slots.sum()) + loading, compute, buf, (slots, dram.reshape(-1), 1), loading)
    prefetch = {}
    if overlap:
        heads = [c for c, stage in zip(children, stages, strict=True) if not stage]
        weights = [c.head_wgt for c in heads if c.head_wgt is not None]
        prefetch = {
            "head_dram": head,
            "head_cycles": prefetchable,
            "head_layers": frozenset().union(*(c.head_layers for c in heads)),
            "head_wgt": sum(weights) if weights else None,
            "prefetched": tuple(sorted(pair for c in children for pair in c.prefetched)),
        }
    return bounded(attrs.evolve(cost, loads=firsts - slots, load_dram=weight_dram, **prefetch), target)


def stages_of(depends: list[set[int]]) -> list[int]:
    """Each child's pipeline stage: 0, or one more than the stage of every earlier sibling
    it reads from (`depends[j]`: the earlier siblings child j reads from)."""
    stages: list[int] = []
    for earlier in depends:
        stages.append(max((stages[i] + 1 for i in earlier), default=0))
    return stages
