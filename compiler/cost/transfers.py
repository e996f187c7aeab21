"""
An input from a producer on chip, as isa-lower moves it: which (producer core, consumer
core) pairs send which boxes (`transfers`, wherever both run) and, placed, the bytes over
each link, the bytes moved and the producer cores' send cycles (`on_chip`), and a floor of
those cycles wherever both run (`send_floor`, for the leaf bound).

Where the producer's runs (subbatches) and the consumer's differ, the pairs are those of
one period of both, the least common multiple of their batches, image by image: image i
is in the producer's piece of i mod its batch and the consumer's of i mod its own, as the
lowering's pieces take them. Per run, a figure is the period's over its runs.

    loads, moved, received, injecting = on_chip(mesh, 24.0, 32.0, 1, 1, placed, layer, 16, 1, part, source)
"""

from __future__ import annotations

import functools
import math

import numpy as np
from attrs import frozen

from stc.compiler.cost.inputs import Needed, Placed, needed_input
from stc.compiler.cost.mesh import MeshModel
from stc.compiler.cost.network import Layer, Source
from stc.compiler.cost.partition import Partition, pieces


@functools.lru_cache(maxsize=1 << 14)
def on_chip(
    mesh: MeshModel,
    link_bandwidth: float,
    local_bandwidth: float,
    hop_latency: int,
    alignment: int,
    placed: Placed,
    layer: Layer,
    start: int,
    batch: int,
    part: Partition,
    source: Source,
) -> tuple[np.ndarray, float, float, np.ndarray]:
    """An input from a producer on chip, as isa-lower moves it: a box for the producer's
    own core is a local copy (two bytes streamed per byte); the other cores that take the
    same box of a producer core's result get it from one multicast send along the XY tree.
    Returns, per run of the consumer, the bytes over each link, the bytes read to send or
    copy and the bytes received, and four rows per producer core: the cycles it spends
    sending in one run of the producer (each send and copy rounded to whole cycles, the
    farthest destination's hops added); the copy's cycles and the bytes (per run of the
    consumer) a producer core saves when its box is its whole result and one run of bytes
    of the consumer's input buffer at an offset of `alignment` (the target's for the
    source's elements), where st-lmem-alloc lets the producer write it in place; and the
    most cycles it sends in one run of the consumer (a kept input's, sent in the consumer's
    phase) (cached: callers must not write to the arrays)."""
    pairs = transfers(placed.layer, placed.batch, placed.part, layer, batch, part, source)
    shared, sender, receiver, group = pairs.shared, pairs.sender, pairs.receiver, pairs.group
    senders = mesh.piece_cores(placed.start, placed.part.cores)[sender]
    receivers = mesh.piece_cores(start, part.cores)[receiver]
    local = senders == receivers
    remote = ~local
    sent_box = np.zeros(len(pairs.group_sender))
    sent_box[group[remote]] = shared[remote]
    loads, _ = mesh.tree_loads(senders[remote], receivers[remote], group[remote], sent_box)
    sends = np.ceil(sent_box / link_bandwidth)
    copies = np.where(local, np.ceil(2 * shared / local_bandwidth), 0.0)
    cores = placed.part.cores
    group_run = np.zeros(len(sent_box), dtype=np.int64)
    group_run[group] = pairs.run
    in_run = np.bincount(group_run * cores + pairs.group_sender, sends, minlength=pairs.runs * cores)
    in_run += np.bincount(pairs.run * cores + sender, copies, minlength=pairs.runs * cores)
    hops = mesh.hops[senders, receivers] * hop_latency
    farthest_in_run = np.zeros(pairs.runs * cores)
    np.maximum.at(farthest_in_run, pairs.run * cores + sender, hops)
    handing = (in_run + farthest_in_run).reshape(pairs.runs, cores).max(axis=0)
    cycles = in_run.reshape(pairs.runs, cores).sum(axis=0) / pairs.producer_runs
    lands = pairs.whole & (pairs.offset % alignment == 0)
    in_place = pairs.most(np.where(lands, copies, 0.0))
    kept = pairs.most(np.where(lands & local, shared, 0.0)) * pairs.producer_runs / pairs.runs
    moved = float(shared[local].sum() + sent_box.sum()) / pairs.runs
    return loads / pairs.runs, moved, pairs.total, np.stack([cycles + pairs.most(hops), in_place, kept, handing])


@functools.lru_cache(maxsize=1 << 14)
def send_floor(
    link_bandwidth: float,
    local_bandwidth: float,
    hop_latency: int,
    producer: Placed,
    layer: Layer,
    batch: int,
    part: Partition,
    source: Source,
) -> tuple[float, float, float, float]:
    """At most what `on_chip` returns wherever both run (`producer.start` is not read: pass 0
    for fewer cache entries): the most cycles a producer core spends sending, the bytes
    received, the bytes read to send or copy and the bytes over links. Of a core's pairs at
    most one, the one to its own core, is a local copy, the others are sends (a hop or more
    each): a core of one pair pays the cheaper of its box's send (and a hop) and its copy; a
    core of several pairs pays every box's send and a hop, but a box that goes to one core
    only may be a copy instead where that is cheaper. Every box is read once at least, and
    a box for n cores crosses n − 1 links at least."""
    pairs = transfers(producer.layer, producer.batch, producer.part, layer, batch, part, source)
    if not len(pairs.sender):
        return 0.0, pairs.total, 0.0, 0.0
    box = np.zeros(len(pairs.group_sender))
    box[pairs.group] = pairs.shared
    sends = np.ceil(box / link_bandwidth)
    copies = np.ceil(2 * box / local_bandwidth)
    size = np.bincount(pairs.group, minlength=len(box))
    alone = size == 1
    sending = np.bincount(pairs.group_sender, sends, minlength=pairs.cores)
    read, crossing = float(box.sum()) / pairs.runs, float((box * (size - 1)).sum()) / pairs.runs
    if pairs.runs > 1 or pairs.producer_runs > 1:  # a core may copy to itself once per pair of runs
        cheaper = np.bincount(
            pairs.group_sender, np.where(alone, np.minimum(sends, copies), sends), minlength=pairs.cores
        )
        return float(cheaper.max()) / pairs.producer_runs, pairs.total, read, crossing
    saved = np.zeros(pairs.cores)
    np.maximum.at(saved, pairs.group_sender, np.where(alone, np.maximum(sends - copies, 0.0), 0.0))
    count = np.bincount(pairs.sender, minlength=pairs.cores)
    copying = np.bincount(pairs.group_sender, np.where(alone, copies, 0.0), minlength=pairs.cores)
    one = np.where(count == 1, np.minimum(sending + hop_latency, copying), 0.0)
    cycles = np.where(count > 1, sending - saved + hop_latency, one)
    return float(cycles.max()), pairs.total, read, crossing


@frozen
class Transfers:
    """What a producer's cores send a layer's cores for one source, wherever both run."""

    shared: np.ndarray
    """The bytes of each (producer core `sender`, consumer core `receiver`) pair that sends
    anything over one period of both batches (module docstring), ordered by sender."""
    sender: np.ndarray
    receiver: np.ndarray
    run: np.ndarray
    """Per pair, the consumer's run in the period it sends in."""
    runs: int
    """The consumer's runs in the period."""
    producer_runs: int
    """The producer's runs in the period."""
    total: float
    """The bytes all consumer cores receive in one run."""
    group: np.ndarray
    """Per pair its box (pairs of a producer core with the same box share one, `row_ranks`)."""
    group_sender: np.ndarray
    whole: np.ndarray
    """Per pair, whether its box is the producer core's whole result and one run of bytes
    of the consumer core's input buffer (`memory.plan.takes_whole`: a local copy of it lands
    in place where `offset` is aligned)."""
    offset: np.ndarray
    """Per pair, the byte in the consumer core's input buffer where its box begins."""
    cores: int
    firsts: np.ndarray
    """Where each sending producer core's pairs begin."""
    boxes: np.ndarray
    """Per pair (a column), its sender and its box's lo and hi along images (of the
    period), channels (the consumer's), rows and columns."""

    def most(self, values: np.ndarray) -> np.ndarray:
        """Per producer core, the largest of its pairs' non-negative `values` (0 for a core
        that sends nothing)."""
        result = np.zeros(self.cores)
        if len(self.firsts):
            result[self.sender[self.firsts]] = np.maximum.reduceat(values, self.firsts)
        return result


@functools.lru_cache(maxsize=1 << 14)
def transfers(
    producer: Layer,
    producer_batch: int,
    producer_part: Partition,
    layer: Layer,
    batch: int,
    part: Partition,
    source: Source,
) -> Transfers:
    """`Transfers` for one source (cached: callers must not write to the arrays)."""
    need = needed_input(layer, pieces(layer, batch, part), source.channel_offset, source.channels)
    shift = source.channel_offset - source.start
    sender, receiver, run, bounds = overlap(
        Placed(producer, 0, producer_part, producer_batch), need, batch, shift, part
    )
    volumes = np.prod([np.maximum(hi - lo, 0) for lo, hi in bounds], axis=0) * source.element_bytes
    boxes = np.stack([sender, *(side for bound in bounds for side in bound)])
    shared, group = volumes, row_ranks(boxes)
    group_sender = np.zeros(int(group.max()) + 1 if len(group) else 0, dtype=np.int64)
    group_sender[group] = sender
    made = pieces(producer, producer_batch, producer_part).outputs[sender] * source.element_bytes
    whole = (shared == made) & (source.channels == layer.in_channels)
    offset = np.zeros(len(sender))
    if whole.any():
        candidates = np.flatnonzero(whole)
        in_run = boxes[1:, candidates].copy()
        in_run[:2] -= run[candidates] * batch  # images of the consumer's run
        whole[candidates], offset[candidates] = run_in_buffer(in_run, need, receiver[candidates])
    firsts = np.flatnonzero(np.diff(sender, prepend=-1))
    period = math.lcm(producer_batch, batch)
    runs = period // batch
    return Transfers(
        shared,
        sender,
        receiver,
        run,
        runs,
        period // producer_batch,
        float(volumes.sum()) / runs,
        group,
        group_sender,
        whole,
        offset * source.element_bytes,
        producer_part.cores,
        firsts,
        boxes,
    )


def run_in_buffer(boxes: np.ndarray, need: Needed, receiver: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per pair, whether its box (`boxes`: the rows lo and hi along images, channels, rows
    and columns in turn, as `transfers` stacks them) is one run of its receiver's NHWC input
    buffer (every dimension after the first it spans more than once is whole,
    `task.stats.is_contiguous`), and the element of the buffer where it begins."""
    order = (0, 2, 3, 1)
    buffer = (need.b, need.channels, need.rows, need.cols)
    lo = np.stack([boxes[2 * axis] - buffer[axis][0][receiver] for axis in order], axis=1)
    size = np.stack([boxes[2 * axis + 1] - boxes[2 * axis] for axis in order], axis=1)
    extent = np.stack([buffer[axis][1][receiver] - buffer[axis][0][receiver] for axis in order], axis=1)
    spanned = np.cumsum(size > 1, axis=1) - (size > 1) > 0
    contiguous = ((size == extent) | ~spanned).all(axis=1)
    offset = ((lo[:, 0] * extent[:, 1] + lo[:, 1]) * extent[:, 2] + lo[:, 2]) * extent[:, 3] + lo[:, 3]
    return contiguous, offset


def row_ranks(columns: np.ndarray) -> np.ndarray:
    """Each row's rank among the distinct rows of `columns.T` in lexicographic order (the
    first column first): `np.unique(columns.T, axis=0, return_inverse=True)[1]`, by a
    lexsort of the columns instead of a sort of whole rows (several times faster)."""
    count = columns.shape[1]
    if count == 0:
        return np.zeros(0, dtype=np.int64)
    order = np.lexsort(columns[::-1])
    ordered = columns[:, order]
    new = np.zeros(count, dtype=np.int64)
    new[1:] = (ordered[:, 1:] != ordered[:, :-1]).any(axis=0)
    ranks = np.empty(count, dtype=np.int64)
    ranks[order] = np.cumsum(new)
    return ranks


def overlap(
    placed: Placed, need: Needed, batch: int, offset: int, part: Partition
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
    """The (producer core, consumer core) pairs whose boxes meet over one period of both
    batches (module docstring), by sender, and per pair the consumer's run in the period
    and the box the one sends the other as (lo, hi) along images (of the period),
    channels, rows and columns. A core's box along an axis depends on its piece's index
    along that axis alone: per axis a table of the producer's pieces against the
    consumer's (along images, each run's), the pairs those whose boxes meet along every
    axis."""
    made = pieces(placed.layer, placed.batch, placed.part)
    producer = (made.b, (made.k[0] + offset, made.k[1] + offset), made.h, made.w)
    consumer = (need.b, need.channels, need.rows, need.cols)
    period = math.lcm(placed.batch, batch)
    tables, meet = [], np.ones((1,) * 8, dtype=bool)
    for axis, (mine, theirs) in enumerate(zip(producer, consumer, strict=True)):
        (count, stride), (other, step) = grid(placed.part)[axis], grid(part)[axis]
        first, second = slice(0, count * stride, stride), slice(0, other * step, step)
        (lo_mine, hi_mine), (lo_theirs, hi_theirs) = (
            (mine[0][first], mine[1][first]),
            (theirs[0][second], theirs[1][second]),
        )
        if axis == 0:
            lo_mine, hi_mine = in_runs(lo_mine, placed.batch, period), in_runs(hi_mine, placed.batch, period)
            lo_theirs, hi_theirs = in_runs(lo_theirs, batch, period), in_runs(hi_theirs, batch, period)
        lo = np.maximum(lo_mine[:, None], lo_theirs[None, :])
        hi = np.minimum(hi_mine[:, None], hi_theirs[None, :])
        tables.append((lo, hi))
        shape = [1] * 8
        shape[POSITION[axis]], shape[4 + POSITION[axis]] = len(lo_mine), len(lo_theirs)
        meet = meet & (hi > lo).reshape(shape)
    where = np.nonzero(meet)
    sender = np.ravel_multi_index(where[:4], meet.shape[:4])
    receiver = np.ravel_multi_index(where[4:], meet.shape[4:])
    order = np.argsort(sender % placed.part.cores, kind="stable")
    bounds = [
        (lo[where[at], where[4 + at]][order], hi[where[at], where[4 + at]][order])
        for (lo, hi), at in zip(tables, POSITION, strict=True)
    ]
    sender, receiver = sender[order], receiver[order]
    return sender % placed.part.cores, receiver % part.cores, receiver // part.cores, bounds


def in_runs(bounds: np.ndarray, batch: int, period: int) -> np.ndarray:
    """Images' bounds of a run's pieces, in every run of `batch` images over the `period`
    (the run first: the r-th run's piece b is entry r·pieces + b)."""
    return np.concatenate([bounds + run * batch for run in range(period // batch)])


POSITION = (0, 3, 1, 2)
"""Where images, channels, rows and columns come among the digits of a core's number
(((b·ph + h)·pw + w)·pk + k, `partition.pieces`): b first, k last."""


def grid(part: Partition) -> tuple[tuple[int, int], ...]:
    """Per axis (images, channels, rows, columns): the pieces along it and the step between
    the cores of neighbouring pieces."""
    return ((part.pb, part.pk * part.ph * part.pw), (part.pk, 1), (part.ph, part.pk * part.pw), (part.pw, part.pk))
