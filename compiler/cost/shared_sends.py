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
from collections import defaultdict

import attrs
import numpy as np

from stc.compiler.cost.inputs import Placed, needed_input
from stc.compiler.cost.layer_cost import spread
from stc.compiler.cost.leaf_pricing import Place
from stc.compiler.cost.mesh import MeshModel
from stc.compiler.cost.network import Layer
from stc.compiler.cost.node_cost import NodeCost
from stc.compiler.cost.partition import Partition, pieces
from stc.compiler.cost.transfers import overlap

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
    for producer, place_part in located.items():
        place, part = place_part
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
    fills: dict[tuple, list[tuple[int, int]]] = defaultdict(list)
    """Per (sender core, box in the producer's coordinates): (tree, receiving core) of
    every remote fill; a tree is one consumer layer's source."""
    volume: dict[tuple, float] = {}
    senders = mesh.piece_cores(placed.start, placed.part.cores)
    for index, (layer, start, part, batch) in enumerate(consumers):
        receivers = mesh.piece_cores(start, part.cores)
        for number, source in enumerate(layer.sources):
            if source.producer != producer:
                continue
            need = needed_input(layer, pieces(layer, batch, part), source.channel_offset, source.channels)
            shift = source.channel_offset - source.start
            bounds = overlap(placed, need, batch, shift)
            volumes = np.prod([np.maximum(hi - lo, 0) for lo, hi in bounds], axis=0) * source.element_bytes
            for sender, receiver in zip(*np.nonzero(volumes), strict=True):
                if senders[sender] == receivers[receiver]:
                    continue
                lo_hi = [int(side[sender, receiver]) for bound in bounds for side in bound]
                lo_hi[2:4] = [lo_hi[2] - shift, lo_hi[3] - shift]
                key = (int(sender), *lo_hi)
                fills[key].append(((index, number), int(receivers[receiver])))
                volume[key] = float(volumes[sender, receiver])
    hops = read = 0.0
    cycles = np.zeros(placed.part.cores)
    for key, taken in fills.items():
        trees: dict[tuple[int, int], list[int]] = defaultdict(list)
        for tree, core in taken:
            trees[tree].append(core)
        sends: list[list[int]] = []
        for core in (core for _, core in taken):
            send = next((s for s in sends if core not in s), None)
            if send is None:
                sends.append(send := [])
            send.append(core)
        extra = len(trees) - len(sends)
        if not extra:
            continue
        source = int(senders[key[0]])
        hops += volume[key] * (
            sum(links(mesh, source, cores) for cores in trees.values())
            - sum(links(mesh, source, cores) for cores in sends)
        )
        read += volume[key] * extra
        cycles[key[0]] += extra * np.ceil(volume[key] / link_bandwidth)
    return hops, read, cycles


def links(mesh: MeshModel, source: int, cores: list[int]) -> float:
    """The links of the XY multicast tree from core `source` to `cores`."""
    destinations = np.array(cores)
    _, each = mesh.tree_loads(np.array([source]), destinations, np.zeros(len(cores), dtype=np.int64), np.ones(1))
    return float(each[0])
