"""
How a layer is divided among the cores of its group: counts along batch (b), output
channels (k), rows (h) and columns (w), the pieces of a dimension as task-split makes them
(piece k of n ending at ⌈k·size/n⌉). Piece j of the group is (b, h, w, k) with
j = ((b·ph + h)·pw + w)·pk + k: neighbouring pieces share an input. Piece j runs on the
group's core `MeshModel.piece_cores(start, cores)[j]`.

    part = best_partition(layer, cores=64, batch=8, target=target)
    part.counts                      # e.g. (8, 8, 1, 1)

The chosen partition uses at least 3/4 of the group's cores (SET's `min_util`) and has the
fewest compute cycles on its busiest core; among those within 1 %, the fewest input and
weight bytes over all cores (halos and replication). Where a target does not multicast loads,
the cost model also weighs the partitions whose cores load the fewest copies of the weights
(`fewest_copies`): at batch 1 on tianjicx a layer is bound by loading them, not by its MACs.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from attrs import frozen

from stc.compiler.cost.network import Layer
from stc.compiler.cost.storage import activation_storage, weight_storage
from stc.compiler.targets.hardware import HardwareTarget

MIN_UTILISATION = 0.75


@frozen(cache_hash=True)
class Partition:
    """Pieces along batch, output channels, rows and columns."""

    pb: int
    pk: int
    ph: int
    pw: int

    @property
    def counts(self) -> tuple[int, int, int, int]:
        return (self.pb, self.pk, self.ph, self.pw)

    @property
    def cores(self) -> int:
        return self.pb * self.pk * self.ph * self.pw


def piece_bounds(total: int, parts: int, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """[lo, hi) of piece `index` of `parts` pieces of `total`: piece k ends at ⌈k·total/parts⌉,
    as task-split's Average split cuts it (`tiling.pieces.average_split`: 6 → 2, 1, 2, 1 in
    four, not the larger pieces first)."""
    return -(-index * total // parts), -(-(index + 1) * total // parts)


def input_span(lo, hi, stride: int, pad: int, kernel: int, size: int):
    """The input rows (or columns) that output rows [lo, hi) read, clipped to the input."""
    start = np.maximum(lo * stride - pad, 0)
    stop = np.minimum((hi - 1) * stride - pad + kernel, size)
    return start, np.maximum(stop, start)


def dimensions(layer: Layer, batch: int) -> tuple[int, int, int, int]:
    return (batch, layer.out_channels, layer.out_hw[0], layer.out_hw[1])


@functools.cache
def factorisations(cores: int) -> np.ndarray:
    """Every (pb, pk, ph, pw) using between 3/4 of `cores` and all of them, one per row."""
    rows = []
    for used in range(cores, max(1, math.ceil(MIN_UTILISATION * cores)) - 1, -1):
        for pb in divisors(used):
            for pk in divisors(used // pb):
                for ph in divisors(used // pb // pk):
                    rows.append((pb, pk, ph, used // pb // pk // ph))
    return np.array(rows, dtype=np.int64)


def divisors(value: int) -> list[int]:
    return [d for d in range(1, value + 1) if value % d == 0]


def candidates(
    layer: Layer, cores: int, batch: int, target: HardwareTarget, keep: int = 8, spread: int = 1, frugal: bool = False
) -> list[Partition]:
    """The `keep` best partitions of the module docstring's order, best first, and with
    `frugal` the `keep` first of `fewest_copies`' order after them; with `spread`, only those
    splitting the output channels (and the weights) at least that many ways, or as many as
    the channels and cores allow."""
    counts = factorisations(cores)
    limits = np.array(dimensions(layer, batch))
    counts = counts[(counts <= limits).all(axis=1)]
    if len(counts) == 0:
        return [Partition(1, 1, 1, 1)]
    counts = counts[counts[:, 1] >= min(spread, counts[:, 1].max())]
    nb, nk, nh, nw = (-(-limits // counts)).T
    outputs = nb * nk * nh * nw
    macs = outputs * layer.in_channels * layer.kernel[0] * layer.kernel[1] if layer.kind == "conv" else 0 * outputs
    cycles = -(-macs // target.compute.macs_per_cycle) + np.ceil(
        outputs * layer.vector_bytes_per_output / target.local_memory.bandwidth_bytes_per_cycle
    )
    rows = np.minimum((nh - 1) * layer.stride[0] + layer.kernel[0], layer.in_hw[0])
    cols = np.minimum((nw - 1) * layer.stride[1] + layer.kernel[1], layer.in_hw[1])
    channels = nk if layer.channelwise else layer.in_channels
    inputs = nb * rows * cols * channels * max(1, len(layer.branches))
    weights = layer.weight_bytes * nk // layer.out_channels
    moved = (inputs + weights) * counts.prod(axis=1)
    near = cycles <= cycles.min() * 1.01
    order = list(np.lexsort((moved, ~near))[:keep])
    if frugal:
        order += fewest_copies(layer, counts, (nb, nk, nh * nw, rows * cols), cycles, target)[:keep]
    return [Partition(*map(int, counts[i])) for i in dict.fromkeys(order)]


def fewest_copies(
    layer: Layer, counts: np.ndarray, sizes: tuple, cycles: np.ndarray, target: HardwareTarget
) -> list[int]:
    """The partitions (rows of `counts`) in order of the copies of the weights their cores
    load (pb·ph·pw: each core loads its own slice where a target does not multicast loads),
    then compute cycles, of those whose pieces take at most half a core's memory (so that
    the next layer's input fits beside them). `sizes`: per partition the images, channels,
    pixels and input window of a piece."""
    images, channels, pixels, window = sizes
    alignment = target.local_memory.alignment_bytes
    element = max((source.element_bytes for source in layer.sources), default=1)
    read = channels if layer.channelwise else layer.in_channels * max(1, len(layer.branches))
    inputs = images * window * activation_storage(1, read, element, alignment)
    outputs = images * pixels * activation_storage(1, channels, layer.out_element_bytes, alignment)
    held = inputs + outputs * layer.results + weight_storage(layer, channels, alignment)
    copies = counts[:, 0] * counts[:, 2] * counts[:, 3]
    return [int(i) for i in np.lexsort((cycles, copies)) if held[i] <= target.usable_memory_bytes / 2]


def best_partition(layer: Layer, cores: int, batch: int, target: HardwareTarget) -> Partition:
    """See the module docstring."""
    return candidates(layer, cores, batch, target, keep=1)[0]


@frozen
class Pieces:
    """Per core of a partition (arrays of length `cores`): the output box each computes,
    as [lo, hi) along batch, channels, rows and columns."""

    b: tuple[np.ndarray, np.ndarray]
    k: tuple[np.ndarray, np.ndarray]
    h: tuple[np.ndarray, np.ndarray]
    w: tuple[np.ndarray, np.ndarray]
    outputs: np.ndarray
    """Per core, the elements of its box (`box_volume`)."""


def box_volume(*intervals: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Per core, the elements of the box whose [lo, hi) along each axis `intervals` give
    (an empty interval counts 0)."""
    lo, hi = intervals[0]
    volume = np.maximum(hi - lo, 0)
    for lo, hi in intervals[1:]:
        volume = volume * np.maximum(hi - lo, 0)
    return volume


@functools.lru_cache(maxsize=1 << 14)
def pieces(layer: Layer, batch: int, part: Partition) -> Pieces:
    """The output box of every core of the partition, in core order (cached: callers must
    not write to the arrays)."""
    core = np.arange(part.cores)
    k = core % part.pk
    w = core // part.pk % part.pw
    h = core // (part.pk * part.pw) % part.ph
    b = core // (part.pk * part.pw * part.ph)
    sizes = dimensions(layer, batch)
    b, k, h, w = (piece_bounds(*args) for args in zip(sizes, part.counts, (b, k, h, w), strict=True))
    return Pieces(b, k, h, w, box_volume(b, k, h, w))
