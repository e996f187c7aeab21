"""
An input from a producer on chip, as isa-lower moves it: which (producer core, consumer
core) pairs send which boxes (`transfers`, wherever both run) and, placed, the bytes over
each link, the bytes moved and the producer cores' send cycles (`on_chip`), and a floor of
those cycles wherever both run (`send_floor`, for the leaf bound).

    loads, moved, received, injecting = on_chip(mesh, 24.0, 32.0, 1, 1, placed, layer, 16, 1, part, source)
"""

from __future__ import annotations

import functools

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
    Returns the bytes over each link, the bytes read to send or copy, the bytes received
    and, per producer core, the cycles it spends sending in one run of the producer (each
    send and copy rounded to whole cycles, the farthest destination's hops added), and the
    copy's cycles and bytes (per run of the consumer) a producer core saves when its box is
    its whole result and one run of bytes of the consumer's input buffer at an offset of
    `alignment` (the target's for the source's elements), where st-lmem-alloc lets the
    producer write it in place (cached: callers must not write to the arrays)."""
    pairs = transfers(placed.layer, placed.batch, placed.part, layer, batch, part, source)
    shared, sender, receiver, group = pairs.shared, pairs.sender, pairs.receiver, pairs.group
    per_run = shared * placed.batch / batch
    senders = mesh.piece_cores(placed.start, placed.part.cores)[sender]
    receivers = mesh.piece_cores(start, part.cores)[receiver]
    local = senders == receivers
    remote = ~local
    sent_box = np.zeros(len(pairs.group_sender))
    sent_box[group[remote]] = shared[remote]
    loads, _ = mesh.tree_loads(senders[remote], receivers[remote], group[remote], sent_box)
    sends = np.ceil(sent_box * placed.batch / batch / link_bandwidth)
    cycles = np.bincount(pairs.group_sender, sends, minlength=placed.part.cores)
    copies = np.where(local, np.ceil(2 * per_run / local_bandwidth), 0.0)
    cycles += np.bincount(sender, copies, minlength=placed.part.cores)
    hops = mesh.hops[senders, receivers] * hop_latency
    farthest = pairs.most(hops)
    lands = pairs.whole & (pairs.offset % alignment == 0)
    in_place = pairs.most(np.where(lands, copies, 0.0))
    kept = pairs.most(np.where(lands & local, shared, 0.0))
    moved = float(shared[local].sum() + sent_box.sum())
    return loads, moved, pairs.total, np.stack([cycles + farthest, in_place, kept])


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
    sends = np.ceil(box * producer.batch / batch / link_bandwidth)
    copies = np.ceil(2 * (box * producer.batch / batch) / local_bandwidth)
    size = np.bincount(pairs.group, minlength=len(box))
    alone = size == 1
    saved = np.zeros(pairs.cores)
    np.maximum.at(saved, pairs.group_sender, np.where(alone, np.maximum(sends - copies, 0.0), 0.0))
    count = np.bincount(pairs.sender, minlength=pairs.cores)
    sending = np.bincount(pairs.group_sender, sends, minlength=pairs.cores)
    copying = np.bincount(pairs.group_sender, np.where(alone, copies, 0.0), minlength=pairs.cores)
    one = np.where(count == 1, np.minimum(sending + hop_latency, copying), 0.0)
    cycles = np.where(count > 1, sending - saved + hop_latency, one)
    return float(cycles.max()), pairs.total, float(box.sum()), float((box * (size - 1)).sum())


@frozen
class Transfers:
    """What a producer's cores send a layer's cores for one source, wherever both run."""

    shared: np.ndarray
    """The bytes of each (producer core `sender`, consumer core `receiver`) pair that sends
    anything, ordered by sender, then receiver."""
    sender: np.ndarray
    receiver: np.ndarray
    total: float
    """The bytes all consumer cores receive."""
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
    """Per pair (a column), its sender and its box's lo and hi along images, channels (the
    consumer's), rows and columns."""

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
    sender, receiver, bounds = overlap(Placed(producer, 0, producer_part, producer_batch), need, batch, shift, part)
    volumes = np.prod([np.maximum(hi - lo, 0) for lo, hi in bounds], axis=0) * source.element_bytes
    boxes = np.stack([sender, *(side for bound in bounds for side in bound)])
    shared, group = volumes, row_ranks(boxes)
    group_sender = np.zeros(int(group.max()) + 1 if len(group) else 0, dtype=np.int64)
    group_sender[group] = sender
    made = pieces(producer, producer_batch, producer_part).outputs[sender] * source.element_bytes
    per_run = shared * producer_batch / batch
    whole = (per_run == made) & (source.channels == layer.in_channels)
    offset = np.zeros(len(sender))
    if whole.any():
        candidates = np.flatnonzero(whole)
        whole[candidates], offset[candidates] = run_in_buffer(boxes[1:, candidates], need, receiver[candidates])
    firsts = np.flatnonzero(np.diff(sender, prepend=-1))
    total = float(volumes.sum())
    return Transfers(
        shared,
        sender,
        receiver,
        total,
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
) -> tuple[np.ndarray, np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
    """The (producer core, consumer core) pairs whose boxes meet, by sender then receiver,
    and per pair the box the one sends the other as (lo, hi) along images, channels, rows
    and columns. A core's box along an axis depends on its piece's index along that axis
    alone: per axis a table of the producer's pieces against the consumer's, the pairs
    those whose boxes meet along every axis."""
    made = pieces(placed.layer, placed.batch, placed.part)
    producer = (made.b, (made.k[0] + offset, made.k[1] + offset), made.h, made.w)
    consumer = (need.b, need.channels, need.rows, need.cols)
    scales = (batch / placed.batch, 1.0, 1.0, 1.0)
    tables, meet = [], np.ones((1,) * 8, dtype=bool)
    for axis, (mine, theirs, scale) in enumerate(zip(producer, consumer, scales, strict=True)):
        (count, stride), (other, step) = grid(placed.part)[axis], grid(part)[axis]
        first, second = slice(0, count * stride, stride), slice(0, other * step, step)
        lo = np.maximum(mine[0][first, None] * scale, theirs[0][None, second])
        hi = np.minimum(mine[1][first, None] * scale, theirs[1][None, second])
        tables.append((lo, hi))
        shape = [1] * 8
        shape[POSITION[axis]], shape[4 + POSITION[axis]] = count, other
        meet = meet & (hi > lo).reshape(shape)
    where = np.nonzero(meet)
    sender = np.ravel_multi_index(where[:4], meet.shape[:4])
    receiver = np.ravel_multi_index(where[4:], meet.shape[4:])
    bounds = [
        (lo[where[at], where[4 + at]], hi[where[at], where[4 + at]])
        for (lo, hi), at in zip(tables, POSITION, strict=True)
    ]
    return sender, receiver, bounds


POSITION = (0, 3, 1, 2)
"""Where images, channels, rows and columns come among the digits of a core's number
(((b·ph + h)·pw + w)·pk + k, `partition.pieces`): b first, k last."""


def grid(part: Partition) -> tuple[tuple[int, int], ...]:
    """Per axis (images, channels, rows, columns): the pieces along it and the step between
    the cores of neighbouring pieces."""
    return ((part.pb, part.pk * part.ph * part.pw), (part.pk, 1), (part.ph, part.pk * part.pw), (part.pw, part.pk))
