"""
One send per box for every consumer layer that takes it, as isa-lower sends it
(`lowering.program.multicasts`): the cores of several consumer layers of a segment that
take the same box of a producer core's result get it from one XY multicast send, where
`transfers.on_chip`, which prices one consumer layer, prices a tree per layer. A core that
takes the box twice gets the second copy in another send, so the k-th send of a box goes to
the cores that take it k times or more.

`shared_sends` charges a segment's leaves what the machine does: the last consumer layer of
each such box pays the hop-bytes and the bytes read to send that the trees per layer price
above the machine's sends, and its producer's cores the send cycles.

    leaves = shared_sends(mesh, 24.0, leaves, located, network.layers, network.consumers())
"""

from __future__ import annotations

import functools

import attrs
import numpy as np

from stc.compiler.cost.inputs import Placed
from stc.compiler.cost.layer_cost import spread
from stc.compiler.cost.leaf_pricing import Place
from stc.compiler.cost.mesh import MeshModel
from stc.compiler.cost.network import Layer
from stc.compiler.cost.node_cost import NodeCost
from stc.compiler.cost.partition import Partition
from stc.compiler.cost.transfers import row_ranks, transfers

Consumer = tuple[Layer, int, Partition, int]
"""A consumer layer where it runs: its layer, first core, partition and (sub)batch."""


def shared_sends(
    mesh: MeshModel,
    link_bandwidth: float,
    leaves: dict[int, NodeCost],
    located: dict[int, tuple[Place, Partition]],
    layers: tuple[Layer, ...],
    consumers: list[set[int]],
) -> dict[int, NodeCost]:
    """The segment's leaves (`located`: their places and partitions) with what `merged`
    finds the trees per layer price above the machine's sends taken off the last consumer
    layer of each producer, of those that take its result on chip at its batch (others are
    left as they are priced)."""
    result = dict(leaves)
    for producer, (place, part) in located.items():
        near = tuple(
            c
            for c in sorted(consumers[producer])
            if c in leaves and located[c][0].batch == place.batch and any(p == producer for p, *_ in leaves[c].sent)
        )
        if len(near) < 2:
            continue
        placed = Placed(layers[producer], place.start, part, place.batch)
        taking = tuple((layers[c], located[c][0].start, located[c][1], place.batch) for c in near)
        hops, read, cycles = merged(mesh, link_bandwidth, producer, placed, taking)
        if not hops and not read:
            continue
        last = result[near[-1]]
        sent = tuple(
            (p, row - spread(mesh.core_count, mesh.piece_cores(place.start, part.cores), cycles), *rest)
            if p == producer
            else (p, row, *rest)
            for p, row, *rest in last.sent
        )
        work = attrs.evolve(
            last.work,
            noc_hop_bytes=last.work.noc_hop_bytes - int(round(hops)),
            local_read_bytes=last.work.local_read_bytes - int(round(read)),
        )
        result[near[-1]] = attrs.evolve(last, work=work, sent=sent)
    return result


@functools.lru_cache(maxsize=1 << 12)
def merged(
    mesh: MeshModel, link_bandwidth: float, producer: int, placed: Placed, consumers: tuple[Consumer, ...]
) -> tuple[float, float, np.ndarray]:
    """What the trees per consumer layer price above one send per box and multiplicity, per
    run: hop-bytes, bytes read to send, and per producer core the send cycles (cached:
    callers must not write to the array)."""
    senders = mesh.piece_cores(placed.start, placed.part.cores)
    boxes, layers, cores, volumes = [], [], [], []
    for layer, start, part, batch in consumers:
        receivers = mesh.piece_cores(start, part.cores)
        for source in (source for source in layer.sources if source.producer == producer):
            pairs = transfers(placed.layer, placed.batch, placed.part, layer, batch, part, source)
            remote = senders[pairs.sender] != receivers[pairs.receiver]
            box = pairs.boxes[:, remote]
            box[3:5] -= source.channel_offset - source.start  # into the producer's channels
            boxes.append(box)
            layers.append(np.full(int(remote.sum()), len(layers)))
            cores.append(receivers[pairs.receiver[remote]])
            volumes.append(pairs.shared[remote])
    fills, core, volume = np.concatenate(boxes, axis=1), np.concatenate(cores), np.concatenate(volumes)
    if not len(volume):
        return 0.0, 0.0, np.zeros(placed.part.cores)
    box, first = row_ranks(fills), fills[0].astype(np.int64)
    trees = row_ranks(np.stack([box, np.concatenate(layers)]))
    sends = row_ranks(np.stack([box, repeats(row_ranks(np.stack([box, core])))]))
    count = int(box.max()) + 1
    sender, size = np.zeros(count, dtype=np.int64), np.zeros(count)
    sender[box], size[box] = first, volume
    extra = per_box(trees, box, count) - per_box(sends, box, count)
    sources = senders[first]
    hops = links(mesh, sources, core, trees, box, size) - links(mesh, sources, core, sends, box, size)
    cycles = np.bincount(sender, extra * np.ceil(size / link_bandwidth), minlength=placed.part.cores)
    return hops, float(np.dot(extra, size)), cycles


def links(
    mesh: MeshModel, sources: np.ndarray, cores: np.ndarray, groups: np.ndarray, box: np.ndarray, size: np.ndarray
) -> float:
    """The hop-bytes of one XY multicast tree per group of fills (fill i: from core
    `sources[i]` to core `cores[i]`, of box `box[i]` of `size[box]` bytes)."""
    count = int(groups.max()) + 1
    nbytes = np.zeros(count)
    nbytes[groups] = size[box]
    _, each = mesh.tree_loads(sources, cores, groups, nbytes)
    return float(np.dot(each, nbytes))


def repeats(values: np.ndarray) -> np.ndarray:
    """Per entry, how many entries before it have its value (0 for the first)."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    starts = np.flatnonzero(np.diff(ordered, prepend=-1))
    rank = np.arange(len(values)) - np.repeat(starts, np.diff(np.append(starts, len(values))))
    result = np.empty(len(values), dtype=np.int64)
    result[order] = rank
    return result


def per_box(groups: np.ndarray, box: np.ndarray, count: int) -> np.ndarray:
    """Per box, its distinct groups."""
    of = np.zeros(int(groups.max()) + 1, dtype=np.int64)
    of[groups] = box
    return np.bincount(of, minlength=count)
