"""
DMA moved beside another slot's compute in a T-cut, on a target whose DMA overlaps compute
(`recursion.t_cut`): input boxes from DRAM loaded k slots early (`early_loads`), results
stored to DRAM beside a slot k after (`late_stores`), and what the buffers then hold longer
(`early_held`, `late_held`). A T-cut's subbatches are rows of what each slot's cores take
and of its DRAM bytes; a slot lasts the longer of the two.

    moving, moved, late, steady, full = early_loads(children, n, target, depth, wrap, stores)
"""

from __future__ import annotations

import attrs
import numpy as np

from stc.compiler.cost.node_cost import NodeCost, Slots
from stc.compiler.targets.hardware import HardwareTarget

Moved = tuple[float, int]
"""The bytes of a leaf's DMA moved beside another slot's compute, and how many slots away."""


def early_loads(
    children: list[NodeCost], n: int, target: HardwareTarget, depth: int, wrap: bool, stores: int = 0
) -> tuple[list[NodeCost], list[Moved], list[Moved], Slots, tuple[np.ndarray, np.ndarray, int]]:
    """A T-cut's children with, where `stores` > 0 (a segment's T-cut), each leaf's output
    stored beside the compute of a slot k ≤ `stores` after it where that is faster
    (`late_stores`, before and again after the early loads), and the input boxes from DRAM
    of each leaf after the first loaded k ≤ `depth` slots before it, beside that slot's
    compute, in the slot that shortens a subbatch's slots most, if any, the nearest of
    equals (in order, `NodeCost.early`); the bytes and k of each child's early load and of
    its late store; the slots of the first subbatch, and of all n (as `NodeCost.profile`:
    slots, DRAM bytes, repeats). With `wrap` and n > 1, the first leaf's inputs likewise in
    a slot of the subbatch before, from the second subbatch on (`moved[0]`). The lowering
    holds those leaves' input buffers from that slot on (`early_held` counts them in the
    buffer check) and their late results k slots longer (`late_held`). Each subbatch's
    slots are a row of `own` (what the slot's cores take) and `dram` (its DRAM bytes): a
    slot lasts the longer of the two."""
    profiles = [child.profile() for child in children]
    own = np.tile(np.concatenate([p[0] for p in profiles]), (n, 1))
    dram = np.tile(np.concatenate([p[1] for p in profiles]), (n, 1))
    starts = np.cumsum([0] + [len(p[0]) for p in profiles])
    bandwidth = target.global_memory.bandwidth_bytes_per_cycle
    result = list(children)
    moved: list[Moved] = [(0.0, 0)] * len(children)
    late = late_stores(result, own, dram, starts, bandwidth, stores) if stores else list(moved)
    row = min(1, n - 1)
    """The subbatch the choices are made on: one with a subbatch before it, where there is."""
    for i, child in enumerate(result[1:] if depth else [], start=1):
        if not child.input_dram:
            continue
        at, nbytes, steady = int(starts[i]), child.input_dram, child.modes[child.mode | 1][1]
        back = nearest_gain(own[row], dram[row], at, steady, nbytes, max(at - depth, 0), at, bandwidth)
        if back is None:
            continue
        own[:, at], dram[:, at] = steady, dram[:, at] - nbytes
        dram[:, at - back] += nbytes
        result[i], moved[i] = child.early(back), (nbytes, back)
    first, nbytes, end = result[0], result[0].input_dram, own.shape[1]
    if depth and wrap and n > 1 and nbytes and end > 1:
        steady = first.modes[first.mode | 1][1]
        back = nearest_gain(own[row], dram[row], 0, steady, nbytes, max(end - depth, 1), end, bandwidth)
        if back is not None:
            own[1:, 0], dram[1:, 0] = steady, dram[1:, 0] - nbytes
            dram[:-1, end - back] += nbytes
            layers = tuple((layer, back) for layer in sorted(first.head_layers))
            result[0], moved[0] = attrs.evolve(first, early_inputs=first.early_inputs + layers), (nbytes, back)
    if stores:  # the stores whose next slots the early loads left room in
        again = late_stores(result, own, dram, starts, bandwidth, stores)
        late = [before if before[0] else after for before, after in zip(late, again, strict=True)]
    return result, moved, late, *subbatch_slots(own, dram, bandwidth)


def late_stores(
    children: list[NodeCost], own: np.ndarray, dram: np.ndarray, starts: np.ndarray, bandwidth: float, depth: int
) -> list[Moved]:
    """Each leaf's output store to DRAM moved beside the compute of the slot k ≤ `depth`
    after it (the subbatches' slots in order, the next subbatch's after the last child's)
    where the two slots then take least, if less than before, the nearest of equals; in
    every subbatch whose slot k after is in the cut. Updates `children`
    (`NodeCost.late`), `own` and `dram` (a row per subbatch) in place; returns the bytes
    each child's store moved and k."""
    n, length = own.shape
    flat_own, flat_dram = own.reshape(-1), dram.reshape(-1)  # views: rows in time order
    late: list[Moved] = [(0.0, 0)] * len(children)
    for i, child in enumerate(children):
        at, nbytes = int(starts[i]), child.store_dram
        if not nbytes or at + 1 >= n * length:
            continue
        steady = child.modes[child.mode | 2][1]
        after = slice(at + 1, min(at + depth, n * length - 1) + 1)
        cycles = np.maximum(flat_own[after], np.ceil(flat_dram[after] / bandwidth))
        longer = np.maximum(flat_own[after], np.ceil((flat_dram[after] + nbytes) / bandwidth)) - cycles
        now = max(own[0, at], np.ceil(dram[0, at] / bandwidth))
        saved = now - max(steady, np.ceil((dram[0, at] - nbytes) / bandwidth))
        k = int(np.argmin(longer)) + 1
        if saved - longer[k - 1] <= 0:
            continue
        into, column = divmod(at + k, length)
        own[: n - into, at], dram[: n - into, at] = steady, dram[: n - into, at] - nbytes
        dram[into:, column] += nbytes
        children[i], late[i] = child.late(k), (nbytes, k)
    return late


def subbatch_slots(
    own: np.ndarray, dram: np.ndarray, bandwidth: float
) -> tuple[Slots, tuple[np.ndarray, np.ndarray, int]]:
    """The first subbatch's slots, and all subbatches' (one subbatch's and n repeats where
    they are alike), from a row per subbatch of what the cores take and the DRAM bytes."""
    cycles = np.maximum(own, np.ceil(dram / bandwidth))
    if (cycles == cycles[0]).all() and (dram == dram[0]).all():
        return (cycles[0], dram[0]), (cycles[0], dram[0], len(cycles))
    return (cycles[0], dram[0]), (cycles.reshape(-1), dram.reshape(-1), 1)


def nearest_gain(
    own: np.ndarray, dram: np.ndarray, at: int, steady: float, nbytes: float, lo: int, hi: int, bandwidth: float
) -> int | None:
    """Of the slots lo … hi − 1 (`own`: what each slot's cores take, `dram`: its DRAM
    bytes), how far before hi lies the one where loading slot `at`'s `nbytes` lengthens it
    least, if by less than that saves `at` (then at least `steady`), the nearest of equals;
    None if none."""
    cycles = np.maximum(own, np.ceil(dram / bandwidth))
    saved = cycles[at] - max(steady, float(np.ceil((dram[at] - nbytes) / bandwidth)))
    window = slice(lo, hi)
    longer = np.maximum(cycles[window], np.ceil((dram[window] + nbytes) / bandwidth)) - cycles[window]
    best = len(longer) - 1 - int(np.argmin(longer[::-1]))
    return None if saved - longer[best] <= 0 else hi - lo - best


def early_held(children: list[NodeCost], moved: list[Moved], buf: np.ndarray) -> np.ndarray:
    """A T-cut's buf with the input boxes loaded k > 1 slots early held beside the
    children in between (`t_buffers` counts the nearest: buf_i + ifm_(i+1)). A child of
    several slots counts whole where one of them holds them."""
    ends = np.cumsum([child.slot_count for child in children])
    for i, (_, back) in enumerate(moved):
        if back < 2:
            continue
        at = int(ends[i - 1]) if i else int(ends[-1])
        first = int(np.searchsorted(ends, at - back, side="right"))
        for holder in children[first : (i - 1 if i else len(children) - 1)]:
            buf = np.maximum(buf, holder.buf + children[i].ifm)
    return buf


def late_held(children: list[NodeCost], late: list[Moved], buf: np.ndarray) -> np.ndarray:
    """A T-cut's buf with each result stored k slots late held beside the children of the
    k slots after it (the first ones, after the last), the results held beside one child
    summed. A child of several slots counts whole where one of them holds them."""
    ends = np.cumsum([child.slot_count for child in children])
    held: dict[int, np.ndarray] = {}
    for i, (nbytes, k) in enumerate(late):
        if not nbytes:
            continue
        slots = (int(ends[i]) - 1 + np.arange(1, k + 1)) % int(ends[-1])
        for holder in set(np.searchsorted(ends, slots, side="right").tolist()):
            held[holder] = held.get(holder, 0) + children[i].result
    for holder, results in held.items():
        buf = np.maximum(buf, children[holder].buf + results)
    return buf
