"""The cost of one layer on its cores (compiler/cost/layer_cost.py), the layers of a task graph
(network.py) and whole trees (evaluate.py), on hand-computed cases."""

import math

import attrs
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.inputs import needed_input
from stc.compiler.cost.layer_cost import Context, Output, Placed, leaf_cost
from stc.compiler.cost.mesh import MeshModel
from stc.compiler.cost.network import NETWORK_INPUT, Layer, Network, Source, network_of
from stc.compiler.cost.partition import Partition, candidates, piece_bounds, pieces
from stc.compiler.cost.transfers import row_ranks, transfers
from stc.compiler.cost.tree import Node
from stc.compiler.targets.hardware import load_target
from stc.compiler.tiling.fit import split_reductions
from stc.compiler.tiling.pieces import average_split
from stc.compiler.zoo import build_network
from stc.compiler.zoo.builder import NetworkBuilder
from stc.dialects import task
from stc.runtime.golden import find_graph

TARGET = load_target("set-8x8")
CONTEXT = Context(TARGET, MeshModel.of(TARGET))
_LOADS_COPIES = TARGET.with_global_memory(multicast_loads=False)
COPIES = Context(_LOADS_COPIES, MeshModel.of(_LOADS_COPIES))
"""set-8x8 whose cores each load their own copy of a weight slice (no `multicast_loads`)."""
_RELAYED = _LOADS_COPIES.with_global_memory(relay_loads=True)
RELAYED = Context(_RELAYED, MeshModel.of(_RELAYED))
"""The same, with shared loads relayed by their loader (`relay_loads`)."""


def conv(name, producer, kernel=1, pad=0, channels=8, filters=16, hw=4, vector=2.0):
    return Layer(
        name=name,
        kind="conv",
        block_ids=(0,),
        in_hw=(hw, hw),
        in_channels=channels,
        out_hw=(hw, hw),
        out_channels=filters,
        kernel=(kernel, kernel),
        stride=(1, 1),
        pad=(pad, pad),
        channelwise=False,
        sources=(Source(producer, 0, 0, channels),),
        weight_bytes=filters * kernel * kernel * channels + 4 * filters,
        macs_per_image=hw * hw * filters * kernel * kernel * channels,
        vector_bytes_per_output=vector,
        is_output=False,
        weight_rows=kernel * kernel * channels,
        has_bias=True,
    )


def links_by_coords(links):
    mesh = CONTEXT.mesh
    return {mesh.links[i]: float(v) for i, v in enumerate(links) if v}


def test_snake_order_and_ports():
    mesh = CONTEXT.mesh
    assert mesh.order[:9] == ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (0, 7), (1, 7))
    assert [mesh.order[mesh.port_core[mesh.index[(2, x)]]] for x in (0, 3, 4, 7)] == [(2, 0), (2, 0), (2, 7), (2, 7)]


def test_only_tiles_that_compute_are_numbered():
    """aie-ml's shim row and memory-tile rows carry routes but hold no piece: the snake
    starts on the first AIE-ML row (3), which runs right to left."""
    mesh = MeshModel.of(load_target("aie-ml"))
    assert mesh.core_count == 8 * 38
    assert mesh.order[:2] == ((3, 37), (3, 36))
    assert all(mesh.target.tile_type_at(y, x).computes for y, x in mesh.order)


@settings(max_examples=30, deadline=None)
@given(pairs=st.lists(st.tuples(st.integers(0, 63), st.integers(0, 63), st.integers(1, 1000)), min_size=1, max_size=20))
def test_xy_loads_are_the_sum_of_the_routes(pairs):
    mesh = CONTEXT.mesh
    sources, destinations, volumes = (np.array(column) for column in zip(*pairs, strict=True))
    expected = sum(volume * mesh.routes[s, d].astype(float) for s, d, volume in pairs)
    assert np.allclose(mesh.xy_loads(sources, destinations, volumes), expected)


@settings(max_examples=40, deadline=None)
@given(
    rows=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2), st.floats(0, 2, width=16)), max_size=30),
)
def test_row_ranks_number_distinct_rows_as_unique_does(rows):
    """The multicast groups of `transfers`: the same numbers np.unique(axis=0) gives."""
    columns = np.array(rows, dtype=float).reshape(-1, 3).T
    expected = np.unique(columns.T, axis=0, return_inverse=True)[1].reshape(-1)
    assert row_ranks(columns).tolist() == expected.tolist()


@settings(max_examples=30, deadline=None)
@given(
    producer=st.tuples(st.integers(1, 4), st.integers(1, 4), st.integers(1, 4)),
    consumer=st.tuples(st.integers(1, 4), st.integers(1, 4), st.integers(1, 4)),
    seed=st.integers(0, 9),
)
def test_transfers_most_is_each_producer_core_s_largest_value(producer, consumer, seed):
    """`Transfers.most`, by reduceat over each producer core's pairs, gives what
    np.maximum.at from zeros gives (a 3×3 conv reading a 3×3 conv's halos)."""
    first, second = conv("a", NETWORK_INPUT, kernel=3, pad=1, hw=8), conv("b", 0, 3, 1, channels=16, hw=8)
    pk, ph, pw = producer
    pairs = transfers(first, 1, Partition(1, pk, ph, pw), second, 1, Partition(1, *consumer), second.sources[0])
    values = np.random.default_rng(seed).integers(0, 50, len(pairs.sender)).astype(float)
    expected = np.zeros(pk * ph * pw)
    np.maximum.at(expected, pairs.sender, values)
    assert pairs.most(values).tolist() == expected.tolist()


@settings(max_examples=60, deadline=None)
@given(
    producer=st.tuples(st.integers(1, 3), st.integers(1, 4), st.integers(1, 4), st.integers(1, 4)),
    consumer=st.tuples(st.integers(1, 3), st.integers(1, 4), st.integers(1, 4), st.integers(1, 4)),
    batches=st.sampled_from([(1, 1), (2, 2), (4, 2), (2, 4), (4, 4)]),
    channelwise=st.booleans(),
    start=st.integers(0, 4),
)
def test_transfers_are_the_dense_overlap_of_every_core_pair(producer, consumer, batches, channelwise, start):
    """`transfers` finds the pairs axis by axis; they, their boxes and bytes are those of
    every producer core against every consumer core (a 3×3 conv, or a channelwise layer,
    reading channels from `start` of a conv's result), each core in every run of one period
    of both batches (image i in the producer's piece of i mod its batch and the consumer's
    of i mod its own), ordered by sender."""
    first = conv("a", NETWORK_INPUT, kernel=3, pad=1, hw=8)
    second = conv("b", 0, 3, 1, channels=12, filters=12 if channelwise else 16, hw=8)
    second = attrs.evolve(second, channelwise=channelwise, sources=(Source(0, 0, 0, 12, start=start),))
    (pbatch, batch), source = batches, second.sources[0]
    ppart, part = Partition(*producer), Partition(*consumer)
    pairs = transfers(first, pbatch, ppart, second, batch, part, source)
    made = pieces(first, pbatch, ppart)
    need = needed_input(second, pieces(second, batch, part), source.channel_offset, source.channels)
    shift = source.channel_offset - source.start
    period = math.lcm(pbatch, batch)

    def runs(bounds, size, images=False):
        """Per core of every run (run r's core c: r·cores + c), its (lo, hi)."""
        return tuple(np.concatenate([side + r * size * images for r in range(period // size)]) for side in bounds)

    sides = [
        (runs(made.b, pbatch, True), runs(need.b, batch, True)),
        (runs((made.k[0] + shift, made.k[1] + shift), pbatch), runs(need.channels, batch)),
        (runs(made.h, pbatch), runs(need.rows, batch)),
        (runs(made.w, pbatch), runs(need.cols, batch)),
    ]
    bounds = [
        (np.maximum(mine[0][:, None], theirs[0][None, :]), np.minimum(mine[1][:, None], theirs[1][None, :]))
        for mine, theirs in sides
    ]
    volumes = np.prod([np.maximum(hi - lo, 0) for lo, hi in bounds], axis=0)
    sender, receiver = np.nonzero(volumes)
    order = np.argsort(sender % ppart.cores, kind="stable")
    sender, receiver = sender[order], receiver[order]
    assert pairs.sender.tolist() == (sender % ppart.cores).tolist()
    assert pairs.receiver.tolist() == (receiver % part.cores).tolist()
    assert pairs.run.tolist() == (receiver // part.cores).tolist()
    assert pairs.shared.tolist() == volumes[sender, receiver].tolist()
    boxes = [side[sender, receiver].tolist() for bound in bounds for side in bound]
    assert pairs.boxes[1:].tolist() == boxes
    assert pairs.total == float(volumes.sum()) / (period // batch)


def test_xy_loads_on_tianjicx_s_mesh_are_the_sum_of_the_routes():
    """16 × 10 cores: rows and columns of different lengths, every pair."""
    mesh = MeshModel.of(load_target("tianjicx"))
    sources, destinations = (grid.ravel() for grid in np.meshgrid(np.arange(160), np.arange(160)))
    volumes = (sources * 7 + destinations) % 13 + 1.0
    expected = volumes @ mesh.routes[sources, destinations]
    assert np.allclose(mesh.xy_loads(sources, destinations, volumes), expected)


@settings(max_examples=30, deadline=None)
@given(
    target=st.sampled_from(["set-8x8", "tianjicx"]),
    trees=st.lists(
        st.tuples(st.integers(0, 159), st.lists(st.integers(0, 159), min_size=1, max_size=12, unique=True)),
        min_size=1,
        max_size=6,
    ),
)
def test_tree_loads_are_the_union_of_the_routes_once(target, trees):
    """A multicast tree carries its bytes once over each link of the union of its XY
    routes; its links are that union's size (a tree of one destination: the route)."""
    mesh = MeshModel.of(load_target(target))
    trees = [(s % mesh.core_count, sorted({d % mesh.core_count for d in ds})) for s, ds in trees]
    sources = np.array([s for s, ds in trees for _ in ds])
    destinations = np.array([d for _, ds in trees for d in ds])
    groups = np.array([g for g, (_, ds) in enumerate(trees) for _ in ds])
    volumes = np.arange(1.0, len(trees) + 1)
    unions = [mesh.routes[s, ds].any(axis=0) for s, ds in trees]
    loads, links = mesh.tree_loads(sources, destinations, groups, volumes)
    assert np.allclose(loads, sum(v * union for v, union in zip(volumes, unions, strict=True)))
    assert list(links) == [int(union.sum()) for union in unions]


def test_leaf_from_dram_to_dram():
    """A 1×1 conv (8 → 16 channels, 4×4, relu fused) split by output channels on cores
    (0,0) and (0,1) of a set-8x8 whose cores load their own copies. Each core: 128 outputs
    × 8 MACs = 1 cycle, relu 256 B / 128 B = 2 cycles. As on the machine, each core loads its
    own 128-byte input box and 96-byte weight slice and stores its 128 output bytes: the port
    at (0,0) serves both, so (0,1)'s loads cross (0,0)→(0,1) and its store (0,1)→(0,0). The
    weights are loaded once per run of the segment, so they are counted apart."""
    layer = conv("c", NETWORK_INPUT)
    cost = leaf_cost(COPIES, layer, 0, Partition(1, 2, 1, 1), 1, (None,), Output.DRAM)
    assert cost.compute_cycles == 3
    assert cost.work.dram_read_bytes == 2 * 128
    assert cost.weights.dram_read_bytes == 2 * 96
    assert cost.work.dram_write_bytes == 256
    assert cost.work.macs == 2048
    assert links_by_coords(cost.links) == {((0, 0), (0, 1)): 128, ((0, 1), (0, 0)): 128}
    assert links_by_coords(cost.weight_links) == {((0, 0), (0, 1)): 96}
    assert cost.total_work.noc_hop_bytes == 352
    # each core: ⌈(128 + 96 + 128) B / 64⌉ = 6 DMA cycles + 3 compute = 9; both cores'
    # 704 B over the shared 64 B/cycle: 11. Without the weights: ⌈256 / 64⌉ + 3 = 7 per
    # core, 512 B shared: 8, so the loading adds 3 cycles to the first run
    assert cost.latency == 11
    assert cost.weight_cycles == 3
    assert cost.ifm[:3].tolist() == [128, 128, 0]
    assert cost.wgt[:3].tolist() == [96, 96, 0]
    assert cost.buf[:3].tolist() == [256, 256, 0]


def test_cores_that_hold_one_weight_slice_load_it_once_where_the_target_multicasts_loads():
    """The same conv split by rows over cores (0,0) … (0,3), all served by the port at
    (0,0): each core holds all 16 output channels (192 weight and bias bytes). set-8x8
    multicasts loads (`multicast_loads`, as isa-lower's `isa.dma_multicast`): one DRAM read
    along the row, each link once; without it, each core loads its own copy over its route."""
    layer = conv("c", NETWORK_INPUT)
    part = Partition(1, 1, 4, 1)
    cost = leaf_cost(CONTEXT, layer, 0, part, 1, (None,), Output.DRAM)
    assert cost.weights.dram_read_bytes == 192
    row = {((0, 0), (0, 1)): 192, ((0, 1), (0, 2)): 192, ((0, 2), (0, 3)): 192}
    assert links_by_coords(cost.weight_links) == row
    cost = leaf_cost(COPIES, layer, 0, part, 1, (None,), Output.DRAM)
    assert cost.weights.dram_read_bytes == 4 * 192
    copied = {((0, 0), (0, 1)): 3 * 192, ((0, 1), (0, 2)): 2 * 192, ((0, 2), (0, 3)): 192}
    assert links_by_coords(cost.weight_links) == copied


def test_relayed_loads_read_dram_once_and_each_core_waits_for_the_loader_s_send():
    """The conv split by rows over cores (0,0) … (0,3), then by output channels, with
    shared loads relayed (`relay_loads`, as isa-lower's `isa.dma_load` and `isa.send`):
    one DRAM read as with multicast loads, along (0,0)'s tree (its port is (0,0)); each
    core waits for the send of its shared box at 24 B/cycle. By rows the 192 weight and bias
    bytes: each core ⌈(32 input + 64 output + 192) B / 64⌉ = 5 DMA + 2 compute cycles
    (multicast: 7) and ⌈192 / 24⌉ = 8 waiting: 15, where copies take 18 (768 B of DRAM
    over 64 B/cycle beside 512 B of the rest). By channels the 128 input bytes, each run:
    ⌈(128 + 64) / 64⌉ + 2 = 5, and ⌈128 / 24⌉ = 6 more (the 48 weight bytes add one)."""
    layer = conv("c", NETWORK_INPUT)
    rows = leaf_cost(RELAYED, layer, 0, Partition(1, 1, 4, 1), 1, (None,), Output.DRAM)
    assert rows.weights.dram_read_bytes == 192
    tree = {((0, 0), (0, 1)): 192, ((0, 1), (0, 2)): 192, ((0, 2), (0, 3)): 192}
    assert links_by_coords(rows.weight_links) == tree
    assert rows.busy[:5].tolist() == [15, 15, 15, 15, 0]
    assert (rows.latency, rows.weight_cycles) == (15, 9)
    copies = leaf_cost(COPIES, layer, 0, Partition(1, 1, 4, 1), 1, (None,), Output.DRAM)
    assert copies.latency == 18
    channels = leaf_cost(RELAYED, layer, 0, Partition(1, 4, 1, 1), 1, (None,), Output.DRAM)
    assert channels.work.dram_read_bytes == 128
    assert (channels.latency - channels.weight_cycles, channels.weight_cycles) == (11, 1)


def test_a_relayed_box_reaches_each_core_its_hops_from_the_loader_later():
    """With a hop latency of 2 cycles (set-8x8's is 0), a relayed box reaches a core its hops
    from the loader × 2 after the send ends, as the machine's `send` delivers it: by rows,
    cores (0,1) … (0,3) wait 2, 4, 6 cycles more than the loader (0,0) for the weights (the
    15 above); by channels the 128 input bytes, in every run (11 above), and the weights,
    not shared, add none. The hops count once per core, however many relayed boxes it takes."""
    slow = attrs.evolve(_RELAYED, noc=attrs.evolve(_RELAYED.noc, hop_latency_cycles=2))
    context = Context(slow, MeshModel.of(slow))
    layer = conv("c", NETWORK_INPUT)
    rows = leaf_cost(context, layer, 0, Partition(1, 1, 4, 1), 1, (None,), Output.DRAM)
    assert rows.busy[:5].tolist() == [15, 17, 19, 21, 0]
    assert (rows.latency, rows.weight_cycles) == (21, 15)
    channels = leaf_cost(context, layer, 0, Partition(1, 4, 1, 1), 1, (None,), Output.DRAM)
    assert channels.busy[:5].tolist() == [12, 14, 16, 18, 0]
    assert (channels.latency - channels.weight_cycles, channels.weight_cycles) == (17, 1)


def test_relayed_weights_waits_are_none_of_the_input_boxes_or_the_store_s_dma():
    """A slot whose input boxes a slot before loads, or whose store the next slot runs
    (`charging.charged_slots`), still waits for its relayed weights: of the rows split's
    15 cycles (5 DMA, 2 compute, 8 waiting for the weights' send) its 32 input and its 64
    output bytes each take ⌈(32 + 64 + 192) / 64⌉ − ⌈(64 + 192) / 64⌉ = 1, in the other
    runs ⌈96 / 64⌉ − ⌈64 / 64⌉ = 1 (it counted the 8 waiting cycles as theirs: 9)."""
    rows = leaf_cost(RELAYED, conv("c", NETWORK_INPUT), 0, Partition(1, 1, 4, 1), 1, (None,), Output.DRAM)
    assert rows.busy[:4].tolist() == [15] * 4
    for moved in (rows.input_busy, rows.store_busy, rows.input_steady, rows.store_steady):
        assert moved[:5].tolist() == [1, 1, 1, 1, 0]


def test_cores_that_read_one_input_box_load_it_once_where_the_target_multicasts_loads():
    """The same conv split by output channels over cores (0,0) … (0,3): each core reads the
    whole 128-byte input. set-8x8 multicasts loads (as isa-lower's `isa.dma_multicast` of
    input boxes): one DRAM read along the row, each link once; without it, each core loads
    its own copy over its route. Each core's own time is the same either way: its DMA
    cycles as if it loaded the box, and the phase at least its DRAM bytes over the shared
    bandwidth (4 × 128 + 4 × 48 weight and 4 × 64 output bytes: 15 cycles with copies,
    9 with one input read)."""
    layer = conv("c", NETWORK_INPUT)
    part = Partition(1, 4, 1, 1)
    cost = leaf_cost(CONTEXT, layer, 0, part, 1, (None,), Output.DRAM)
    copies = leaf_cost(COPIES, layer, 0, part, 1, (None,), Output.DRAM)
    assert cost.work.dram_read_bytes == 128
    assert copies.work.dram_read_bytes == 4 * 128
    # east: the input (once each link, or 3, 2, 1 copies); west: each core's 64 output bytes
    stores = {((0, 1), (0, 0)): 3 * 64, ((0, 2), (0, 1)): 2 * 64, ((0, 3), (0, 2)): 64}
    row = {((0, 0), (0, 1)): 128, ((0, 1), (0, 2)): 128, ((0, 2), (0, 3)): 128}
    assert links_by_coords(cost.links) == row | stores
    copied = {((0, 0), (0, 1)): 3 * 128, ((0, 1), (0, 2)): 2 * 128, ((0, 2), (0, 3)): 128}
    assert links_by_coords(copies.links) == copied | stores
    assert cost.ifm[:5].tolist() == copies.ifm[:5].tolist() == [128, 128, 128, 128, 0]
    assert (copies.latency, cost.latency) == (15, 9)


def test_pieces_that_fill_whole_rows_run_row_by_row_where_loads_multicast():
    """Pieces 0 … 15 from core 8 fill rows 1 and 2: row 1 from the left is snake cores
    15 … 8. Elsewhere (a range not of whole rows, or a target whose cores load their own
    copies) the pieces take the snake's next cores."""
    mesh = CONTEXT.mesh
    assert mesh.piece_cores(8, 16).tolist() == [15, 14, 13, 12, 11, 10, 9, 8, *range(16, 24)]
    assert mesh.piece_cores(4, 8).tolist() == list(range(4, 12))
    assert mesh.piece_cores(0, 12).tolist() == list(range(12))
    assert COPIES.mesh.piece_cores(8, 16).tolist() == list(range(8, 24))


def test_a_weight_slice_s_cores_share_a_column_when_its_pieces_fill_whole_rows():
    """A conv of 16 filters (192 weight and bias bytes) split 2 × 8 (images × filters) on
    rows 0 and 1: slice k (24 bytes) is on pieces k and k + 8, at (0, k) and (1, k), and
    its multicast tree from the port of (0, k) runs min(k, 7 − k) links along row 0 and
    one down: (0 + 1 + 2 + 3 + 3 + 2 + 1 + 0) + 8 = 20 links of 24 bytes. In the snake,
    piece k + 8 was at (1, 7 − k): the tree ran to both columns, 8 + 7 + 6 + 5 + 5 + 6 + 7
    + 8 = 52 links."""
    layer = conv("c", NETWORK_INPUT)
    part = Partition(2, 8, 1, 1)
    cost = leaf_cost(CONTEXT, layer, 0, part, 2, (None,), Output.DRAM)
    assert cost.weights.dram_read_bytes == 192
    assert cost.weights.noc_hop_bytes == 20 * 24
    mesh = CONTEXT.mesh
    assert [mesh.order[core] for core in mesh.piece_cores(0, 16)[[3, 11]]] == [(0, 3), (1, 3)]


def test_leaf_on_chip_sends_halos():
    """Producer rows 0-1 on (0,0) and 2-3 on (0,1); a 3×3 consumer (pad 1) with rows 0-1 on
    (0,2) reads input rows 0-2 and rows 2-3 on (0,3) rows 1-3: 64 + 32 and 32 + 64 bytes,
    over 2, 1, 3 and 2 hops."""
    producer = conv("a", NETWORK_INPUT, filters=8)
    consumer = conv("b", 0, kernel=3, pad=1)
    placed = Placed(producer, 0, Partition(1, 1, 2, 1), 1)
    cost = leaf_cost(CONTEXT, consumer, 2, Partition(1, 1, 2, 1), 1, (placed,), Output.CHIP)
    # only the weights come from DRAM: whole on (0,2) and (0,3), read once and multicast
    # from the port at (0,0) over 3 links (set-8x8's multicast_loads; as copies, 2 + 3 hops)
    assert cost.work.dram_bytes == 0
    assert cost.weights.dram_bytes == consumer.weight_bytes
    halos = 64 * 2 + 32 * 1 + 32 * 3 + 64 * 2
    assert cost.work.noc_hop_bytes == halos
    assert cost.weights.noc_hop_bytes == 3 * consumer.weight_bytes
    copies = leaf_cost(COPIES, consumer, 2, Partition(1, 1, 2, 1), 1, (placed,), Output.CHIP)
    assert copies.weights.dram_bytes == 2 * consumer.weight_bytes
    assert copies.weights.noc_hop_bytes == 5 * consumer.weight_bytes
    assert cost.ifm[2:4].tolist() == [96, 96]
    # output held whole on chip: 2 rows × 4 × 16
    assert cost.buf[2:4].tolist() == [96 + 128, 96 + 128]


def test_pieces_put_output_channels_innermost():
    layer = conv("c", NETWORK_INPUT, filters=6)
    box = pieces(layer, 2, Partition(2, 3, 1, 1))
    assert box.b[0].tolist() == [0, 0, 0, 1, 1, 1]
    assert box.k[0].tolist() == [0, 2, 4, 0, 2, 4]


@given(st.integers(1, 300), st.data())
def test_a_dimensions_pieces_are_task_splits(total, data):
    """The model cuts a dimension where task-split's Average split cuts it (piece k ends at
    ⌈k·total/parts⌉: 6 in four is 2, 1, 2, 1). Cut as "the larger first" (2, 2, 1, 1), the
    model gave LeNet's cores other boxes than the machine's, and with multicast sends other
    trees: 2.7 % more hop-bytes than the machine at b4 on set-8x8."""
    parts = data.draw(st.integers(1, total))
    lo, hi = piece_bounds(total, parts, np.arange(parts))
    assert list(zip(lo.tolist(), hi.tolist(), strict=True)) == average_split(total, parts)


def test_candidates_use_three_quarters_of_the_cores_at_least():
    layer = conv("c", NETWORK_INPUT, channels=64, filters=64, hw=8)
    for part in candidates(layer, 16, 4, TARGET):
        assert 12 <= part.cores <= 16
    assert candidates(layer, 16, 4, TARGET)[0].cores == 16


def two_layer_network(batch):
    return Network("n", batch, (conv("a", NETWORK_INPUT, filters=8), conv("b", 0, kernel=3, pad=1)))


def test_s_cut_shares_cores_by_processing_time():
    """a: 128 outputs, 1 MAC cycle + 2 relu cycles = 3; b: 256 outputs × 72 MACs = 18
    cycles + 4 = 22. Ideal shares of 64 cores: 7.68 and 56.32; floors 7 and 56, the last
    core to the larger fraction."""
    model = CostModel(two_layer_network(1), TARGET)
    assert model.shares([Node.leaf(0), Node.leaf(1)], 64) == [8, 56]
    assert model.shares([Node.leaf(0), Node.leaf(1)], 2) == [1, 1]
    assert model.shares([Node.leaf(0)] * 3, 2) is None


def test_segments_exchange_through_dram_only_under_a_root_t_of_one_subbatch():
    model = CostModel(two_layer_network(4), TARGET, keep=False)
    apart = model.evaluate(Node.cut("T", [Node.leaf(0), Node.leaf(1)]))
    together = model.evaluate(Node.cut("T", [Node.cut("T", [Node.leaf(0), Node.leaf(1)])]))
    assert apart.valid
    assert together.valid
    # the intermediate 4 × 4·4·8 bytes go out once and come back in (with halos, per core)
    assert apart.cost.work.dram_write_bytes - together.cost.work.dram_write_bytes == 512
    assert apart.cost.work.dram_read_bytes - together.cost.work.dram_read_bytes >= 512


def test_a_tree_of_some_layers_exchanges_with_the_others_through_dram():
    model = CostModel(two_layer_network(4), TARGET)
    first = model.evaluate(Node.cut("T", [Node.leaf(0)]))
    second = model.evaluate(Node.cut("T", [Node.leaf(1)]))
    # a writes its 4 × 128-byte output; b reads it (its 3×3 halo rows twice where cut by rows)
    assert first.cost.work.dram_write_bytes == 4 * 128
    assert second.cost.work.dram_read_bytes >= 4 * 128


def test_invalid_trees_say_why():
    model = CostModel(two_layer_network(4), TARGET)
    assert model.evaluate(Node.cut("T", [Node.leaf(0), Node.leaf(1)], n=3)).reason == (
        "T-cut of batch 4 cannot make 3 subbatches"
    )
    big = Network("big", 64, (conv("a", NETWORK_INPUT, channels=256, filters=256, hw=112),))
    estimate = CostModel(big, TARGET).evaluate(Node.cut("T", [Node.leaf(0)]))
    assert not estimate.valid
    assert "needs" in estimate.reason


def test_layers_of_a_task_graph():
    b = NetworkBuilder("net")
    x = b.input("image", channels=4, height=6, width=6)
    y = b.conv(x, 8, 3, pad=1, relu=True)
    z = b.maxpool(y, 2, stride=2)
    s = b.add_branches([z, z])
    b.output("out", b.concat([s, z]))
    graph = next(op for op in b.finish().ops if isinstance(op, task.GraphOp))
    network = network_of(graph)
    names = [layer.kind for layer in network.layers]
    assert names == ["conv", "vector", "vector"]
    first, pool, add = network.layers
    assert len(first.block_ids) == 2  # the relu joined the conv
    assert first.macs_per_image == 6 * 6 * 8 * 9 * 4
    assert first.vector_bytes_per_output == 2
    assert pool.sources == (Source(0, 0, 0, 8),)
    assert add.sources == (Source(1, 0, 0, 8), Source(1, 1, 0, 8))
    assert network.consumers() == [{1}, {2}, set()]
    assert pool.is_output
    assert add.is_output
    assert not first.is_output
    assert np.isclose(pool.vector_bytes_per_output, 5)


def test_a_segment_loads_its_weights_once_whatever_its_subbatches():
    """The weights stay on the cores across a segment's subbatches: each core loads what it
    pins (wgt) once, with 2 subbatches or 4 (with one, a leaf's weights count with its own
    buffers instead, `CostModel.held`). On a target that loads each core's copy itself."""
    model = CostModel(two_layer_network(4), COPIES.target)
    for n in (2, 4):
        estimate = model.evaluate(Node.cut("T", [Node.leaf(0), Node.leaf(1)], n=n))
        assert estimate.valid
        assert estimate.cost.weights.dram_bytes == estimate.cost.wgt.sum() > 0


def test_a_layer_is_partitioned_for_all_its_runs_not_its_first():
    """A 3×3 512→1024 conv on 7×7 (DarkNet-19's conv105) at 4 images per subbatch, 4 runs, on
    a mesh whose cores load their own copies of the weights: one run is bound by loading its
    4.7 MB of weights (73,728 cycles at 64 B/cycle), so priced on one run, 48 cores load them
    as fast as 64 for less energy; over its runs the layer takes all 64 cores (two images and
    32 channels each: a run's MACs in as many cycles as 64 MAC arrays need, and the relu of
    its 7·7·64 outputs); 48 cores compute 21 or 22 channels of all 4 images each. (With
    multicast loads the weights are read once whatever the cores, and one run already takes
    the 64.)"""
    target, context = _LOADS_COPIES, COPIES
    layer = conv("c", NETWORK_INPUT, kernel=3, pad=1, channels=512, filters=1024, hw=7)
    model = CostModel(Network("n", 16, (layer,)), target)
    tree = Node.cut("T", [Node.leaf(0)], n=4)

    def one_run(part):
        cost = leaf_cost(context, layer, 0, part, 4, (None,), Output.DRAM)
        return model.objective(cost.energy(target), cost.latency)

    first = min(candidates(layer, 64, 4, target), key=one_run)
    assert first.cores == 48
    _, part = model.layout(tree)[0]
    assert part.cores == 64
    ideal = 4 * layer.macs_per_image / (64 * 1024)
    relu = 49 * 64 * layer.vector_bytes_per_output / target.local_memory.bandwidth_bytes_per_cycle
    assert leaf_cost(context, layer, 0, part, 4, (None,), Output.DRAM).compute_cycles == ideal + relu
    assert leaf_cost(context, layer, 0, first, 4, (None,), Output.DRAM).compute_cycles > 1.3 * ideal


def test_without_multicast_loads_the_candidates_include_those_loading_fewest_weight_copies():
    """A 3×3 64→64 conv on 56×56 (ResNet-18's layer1) on tianjicx's 160 cores, whose cores
    each load their own copy of a weight slice: the partitions of least compute load 24–40
    copies ((1, 5, 4, 8): 32 pieces of rows and columns, each with a copy of the 5 slices).
    `frugal` adds after them those loading the fewest copies whose pieces take at most half
    a core's memory (71,680 B): first (1, 26, 2, 3), 6 copies, 30 × 21 input pixels × 64 B
    = 40,320 + 28 × 19 outputs × 16 B = 8,512 + 576 weight rows × 32 B + 16 B of bias =
    18,448: 67,280 B; not (1, 32, 4, 1), 4 copies, 16 × 56 × 64 + 14 × 56 × 16 + 18,448 =
    88,336 B."""
    target = load_target("tianjicx")
    layer = conv("c", NETWORK_INPUT, kernel=3, pad=1, channels=64, filters=64, hw=56)
    least_compute = candidates(layer, 160, 1, target)
    both = candidates(layer, 160, 1, target, frugal=True)
    assert both[: len(least_compute)] == least_compute
    assert min(part.cores // part.pk for part in least_compute) == 24
    added = both[len(least_compute) :]
    copies = [part.pb * part.ph * part.pw for part in added]
    assert added[0] == Partition(1, 26, 2, 3)
    assert copies == sorted(copies)
    assert copies[0] == 6
    assert Partition(1, 32, 4, 1) not in added


def test_a_segment_takes_the_fewest_copies_only_where_they_fit():
    """ResNet-18 on tianjicx, one segment of all its layers on the 160 cores: with the
    partitions that load the fewest weight copies each leaf's own choice, the leaves' buffers
    overflow a core together (171,696 B), so the segment keeps those of least compute
    (2,034,779 cycles, 30.1 MB of weights). Cut before conv120, the first of two segments
    fits with the fewest copies (142,880 B) and takes them: 1,107,919 cycles instead of
    1,558,823."""
    graph = find_graph(build_network("resnet18"))
    target = load_target("tianjicx")
    split_reductions(graph, target)
    model = CostModel(network_of(graph), target)
    layers = len(model.network.layers)
    one = Node.cut("T", [Node.cut("T", [Node.leaf(i) for i in range(layers)])])
    frugal, _ = model.priced_segment(one.children[0], model.places(one), model.segment_of(one), frugal=True)
    assert frugal is not None
    assert frugal.buffer_peak() == 171_696 > target.usable_memory_bytes
    assert model.evaluate(one).latency == 2_034_779
    cut = [layer.name for layer in model.network.layers].index("conv120")
    two = Node.cut("T", [Node.cut("T", [Node.leaf(i) for i in range(a, b)]) for a, b in ((0, cut), (cut, layers))])
    places, segment_of = model.places(two), model.segment_of(two)
    first = [model.priced_segment(two.children[0], places, segment_of, frugal) for frugal in (False, True)]
    peaks = [(cost.buffer_peak(), cost.latency) for cost, _ in first if cost]
    assert peaks == [(128_432, 1_558_823), (142_880, 1_107_919)]
    chosen, located = model.segment_cost(two.children[0], places, segment_of)
    assert chosen is not None
    assert (chosen.latency, located) == (1_107_919, first[1][1])
    assert model.evaluate(two).latency == 1_521_558
