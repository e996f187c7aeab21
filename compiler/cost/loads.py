"""
A leaf's loads from DRAM (`layer_cost.leaf_cost`): its weight slices and tables
(`weight_loads`) and its input boxes (`input_loads`), each core's from its port or, where
the target shares loads (`GlobalMemory.shares_loads`), each distinct box read once for the
cores that take it (`shared_loads`): by multicast from the port, or relayed by its loader.

    dram, links, waits, hops = weight_loads(mesh, layer, part, batch, start, shared=True, relay=False)
"""

from __future__ import annotations

import functools

import numpy as np

from stc.compiler.cost.inputs import needed_input
from stc.compiler.cost.mesh import MeshModel
from stc.compiler.cost.network import Layer, Source
from stc.compiler.cost.partition import Partition, pieces
from stc.compiler.cost.transfers import row_ranks


@functools.lru_cache(maxsize=1 << 14)
def weight_loads(
    mesh: MeshModel, layer: Layer, part: Partition, batch: int, start: int, shared: bool, relay: bool
) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
    """The DRAM bytes and the bytes over each link of loading every core's weight slice
    (its output channels of the weights and biases) and whole tables, from its port, and
    per core the bytes of the relaying sends it waits for and the most hops they travel to
    it (`relay_hops`). `shared` (a target's `shares_loads`), as isa-lower loads them: the
    cores that hold the same slice get it from one DRAM read, along the XY multicast tree
    from the port of the first of them (the loader: the first piece in graph order), or
    with `relay` from the loader itself once it has loaded it, and one read of each table
    reaches all the cores. Piece j holds slice
    j mod pk (`partition.pieces`), so pieces 0 … pk − 1 are the loaders, in the order of
    their slices (cached: callers must not write to the arrays)."""
    box, cores = pieces(layer, batch, part), mesh.piece_cores(start, part.cores)
    slices = layer.weight_bytes * (box.k[1] - box.k[0]) / layer.out_channels
    ports = mesh.port_core[cores]
    dram = weight_dram(layer, part, batch, shared)
    waits, hops = np.zeros(part.cores), np.zeros(part.cores)
    if not shared:
        return dram, mesh.xy_loads(ports, cores, slices + layer.table_bytes), waits, hops
    first = np.arange(part.pk)
    group = np.arange(part.cores) % part.pk
    links = shared_loads(mesh, ports, cores, group, first, slices[first], relay)
    if relay and part.cores > part.pk and layer.weight_bytes:
        waits += slices[group]
        hops = relay_hops(mesh, cores, group)
    if layer.table_bytes:
        everyone = np.zeros(len(cores), dtype=np.int64)
        links = links + shared_loads(mesh, ports, cores, everyone, everyone[:1], np.array([layer.table_bytes]), relay)
        if relay and part.cores > 1:
            waits += layer.table_bytes
            hops = np.maximum(hops, relay_hops(mesh, cores, everyone))
    return dram, links, waits, hops


def relay_hops(mesh: MeshModel, cores: np.ndarray, loaders: np.ndarray) -> np.ndarray:
    """Per core, the hops from the core that loads and relays its box (`loaders`: an index
    into `cores` per core; 0 for a loader itself). A relayed box reaches a core that many
    hop latencies after its last byte leaves the loader: the machine's `send`."""
    return mesh.hops[cores[loaders], cores].astype(float)


def shared_loads(
    mesh: MeshModel,
    ports: np.ndarray,
    cores: np.ndarray,
    group: np.ndarray,
    first: np.ndarray,
    volumes: np.ndarray,
    relay: bool,
) -> np.ndarray:
    """The bytes over each link of boxes read once for all the cores of their group (core
    i takes box `group[i]`, which core `first[group[i]]` loads): along the XY multicast tree
    from the loader's port, or with `relay` over the loader's route from its port and the
    tree from the loader."""
    if not relay:
        return mesh.tree_loads(ports[first][group], cores, group, volumes)[0]
    loaded = mesh.xy_loads(ports[first], cores[first], volumes)
    return loaded + mesh.tree_loads(cores[first][group], cores, group, volumes)[0]


@functools.lru_cache(maxsize=1 << 14)
def weight_dram(layer: Layer, part: Partition, batch: int, shared: bool) -> float:
    """The DRAM bytes of loading every core's weight slice and whole tables (`weight_loads`):
    each core's, or `shared` each distinct slice (cores 0 … pk − 1) and each table once."""
    box = pieces(layer, batch, part)
    slices = layer.weight_bytes * (box.k[1] - box.k[0]) / layer.out_channels
    if not shared:
        return float((slices + layer.table_bytes).sum())
    return float(slices[: part.pk].sum()) + layer.table_bytes


def input_loads(
    mesh: MeshModel,
    ports: np.ndarray,
    cores: np.ndarray,
    volume: np.ndarray,
    layer: Layer,
    batch: int,
    part: Partition,
    source: Source,
    shared: bool,
    relay: bool,
    link: float,
) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
    """The DRAM bytes and the bytes over each link of loading every core's input box of one
    source (`volume` per core) from DRAM, and per core the cycles it waits for a relaying
    send and the hops that send travels to it (`relay_hops`). `shared` (a target's
    `shares_loads`), as isa-lower loads them: the cores whose boxes are equal (a layer
    split by output channels reads the same input on each) get it from one DRAM read, from
    the first of them (`input_groups`, `shared_loads`); with `relay`, each core of a group
    of several waits for the send of its box (at `link` bytes per cycle)."""
    if not shared:
        return float(volume.sum()), mesh.xy_loads(ports, cores, volume), np.zeros(len(cores)), np.zeros(len(cores))
    group, first = input_groups(layer, batch, part, source)
    links = shared_loads(mesh, ports, cores, group, first, volume[first], relay)
    relayed = relay & (np.bincount(group)[group] > 1)
    waits = np.where(relayed, np.ceil(volume / link), 0.0)
    hops = np.where(relayed, relay_hops(mesh, cores, first[group]), 0.0)
    return float(volume[first].sum()), links, waits, hops


@functools.lru_cache(maxsize=1 << 14)
def input_groups(layer: Layer, batch: int, part: Partition, source: Source) -> tuple[np.ndarray, np.ndarray]:
    """Per core, the number of its input box of one source among the distinct boxes (equal
    bounds along images, rows, columns and channels), and per box its first core: the one
    that loads it for all (cached: do not write to the arrays)."""
    need = needed_input(layer, pieces(layer, batch, part), source.channel_offset, source.channels)
    group = row_ranks(np.stack([side for bound in (need.b, need.rows, need.cols, need.channels) for side in bound]))
    first = np.full(int(group.max()) + 1, part.cores)
    np.minimum.at(first, group, np.arange(part.cores))
    return group, first
