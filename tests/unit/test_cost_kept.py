"""Tensors kept on chip across segments (`cost/kept.py`): priced by hand, and chosen only
where every segment still fits with what it holds."""

from itertools import combinations

import attrs
import numpy as np
from test_cost_layer import CONTEXT, TARGET, conv
from test_search_start import resnet18_b4, with_buffer

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.inputs import Placed
from stc.compiler.cost.kept import SegmentReads, boundary_producers, held_bytes, with_kept
from stc.compiler.cost.layer_cost import Output, leaf_cost
from stc.compiler.cost.network import NETWORK_INPUT, Network
from stc.compiler.cost.partition import Partition
from stc.compiler.cost.tree import Node
from stc.compiler.search.annealing import initial_tree

NETWORK = Network("n", 2, (conv("a", NETWORK_INPUT, filters=8), conv("b", 0, kernel=3, pad=1)))
TREE = Node.cut("T", [Node.cut("T", [Node.leaf(0)], n=2), Node.leaf(1)])
"""a in a segment of 2 subbatches (one image each), then b on both images."""


def test_a_kept_result_is_stored_nowhere_and_held_on_its_cores_until_its_consumer():
    """a's result, 2 images × 4 × 4 × 8 = 256 B, crosses into b's segment. Through DRAM a
    stores all of it (256 B written); kept, nothing (0 B), and b's cores take their boxes
    over the NoC. a runs on 48 cores at (1, 4, 3, 4): a piece is 1 row × 2 or 1 columns ×
    2 channels, 4 or 2 B a run, and each core holds both runs' pieces, 8 or 4 B, in both
    segments: 256 B over the 48 cores, a's whole result. Cheaper, and it fits: kept."""
    stored = CostModel(NETWORK, TARGET, keep=False).evaluate(TREE)
    model = CostModel(NETWORK, TARGET)
    kept = model.evaluate(TREE)
    assert stored.cost is not None
    assert kept.cost is not None
    assert boundary_producers(NETWORK, model.segments(TREE)) == [0]
    assert (stored.kept, kept.kept) == (frozenset(), frozenset({0}))
    assert (stored.cost.work.dram_write_bytes, kept.cost.work.dram_write_bytes) == (256, 0)
    located = model.layout(TREE)
    assert located[0][1].counts == (1, 4, 3, 4)
    held = held_bytes(NETWORK, model.segments(TREE), located, kept.kept, model.context.mesh, TARGET)
    for segment in held:
        assert segment.sum() == 256
        assert (segment > 0).sum() == 48
        assert set(np.unique(segment[segment > 0])) == {4.0, 8.0}
    assert model.objective(kept.energy, kept.latency) < model.objective(stored.energy, stored.latency)
    for segment, cost in zip(held, kept.segments, strict=True):
        assert cost.held is not None
        assert cost.held.tolist() == segment.tolist()  # the room left to weights prefetched across it


def test_a_result_is_kept_only_where_every_segment_it_spans_still_fits():
    """With buffers no larger than the tree's peak through DRAM, a's result held on top,
    4 or 8 B on each of 48 cores, overflows some core of a segment: through DRAM."""
    peak = int(CostModel(NETWORK, TARGET, keep=False).evaluate(TREE).cost.buffer_peak())  # pyright: ignore[reportOptionalMemberAccess]
    local = attrs.evolve(TARGET.local_memory, capacity_bytes=peak, banks=())
    tight = attrs.evolve(TARGET, local_memory=local)
    estimate = CostModel(NETWORK, tight).evaluate(TREE)
    assert estimate.valid
    assert estimate.kept == frozenset()


def test_a_kept_input_read_in_smaller_runs_is_sent_image_by_image_as_the_lowering_pairs_them():
    """a's result kept, made 4 images a run on cores 0-3 (row 0, one image each, 4 × 4 × 8 =
    128 B), read by b in runs of 2 images on cores 1 and 2 (one each). Image i is in a's
    piece i mod 4 and b's piece i mod 2, as the lowering's pieces take them: run 0 takes
    images 0 and 1 from cores 0 and 1, run 1 images 2 and 3 from cores 2 and 3, every box
    one hop away (0 → 1, 1 → 2, 2 → 1, 3 → 2): 2 × 128 = 256 hop-bytes a run (a's images
    scaled into b's run sent half of images 0-1 to core 1 and of 2-3 to core 2: 128). Each
    producer core sends its image in one of b's runs, ⌈128 / 24⌉ = 6 cycles."""
    a, b = NETWORK.layers
    kept = Placed(a, 0, Partition(4, 1, 1, 1), 4, kept=True)
    leaf = leaf_cost(CONTEXT, b, 1, Partition(2, 1, 1, 1), 2, (kept,), Output.CHIP)
    assert leaf.work.noc_hop_bytes == 256
    assert leaf.busy is not None
    assert (leaf.busy[0], leaf.busy[3]) == (6, 6)


def every_segment_kept(model, tree, places, segment_of, kept):
    """`with_kept` as it was: every segment priced, then each checked with what it holds."""
    network, segments = model.network, model.segments(tree)
    priced, located = [], {}
    for segment in segments:
        reads = {producer for layer in segment.leaves() for producer in network.layers[layer].producers}
        handed = {producer: located[producer] for producer in kept & reads if producer in located}
        cost, here = model.segment_cost(segment, places, segment_of, kept, handed)
        if cost is None:
            return None
        priced.append((cost, here))
        located |= here
    held = held_bytes(network, segments, located, kept, model.context.mesh, model.target)
    fits = all(
        int((cost.buf + cost.wgt + extra).max()) <= model.target.usable_memory_bytes
        for (cost, _), extra in zip(priced, held, strict=True)
    )
    return priced if fits else None


def test_a_kept_tensor_tried_stops_at_the_first_segment_that_overflows_with_it(monkeypatch):
    """ResNet-18 b4's start on 150,000 B per core (four segments): each boundary tensor kept
    alone overflows or not as when every segment is priced (four do, two do not), at the
    same costs; after an overflowing segment the others are not priced."""
    model = CostModel(resnet18_b4(), with_buffer(150_000))
    tree = initial_tree(model)
    places, segment_of, segments = model.places(tree), model.segment_of(tree), model.segments(tree)
    asked: list[Node] = []
    price = model.segment_cost
    monkeypatch.setattr(model, "segment_cost", lambda segment, *args: asked.append(segment) or price(segment, *args))
    outcomes = []
    for producer in boundary_producers(model.network, segments):
        kept = frozenset([producer])
        asked.clear()
        stopped = with_kept(model, tree, places, segment_of, kept)
        outcomes.append((stopped is None, len(asked)))
        every = every_segment_kept(model, tree, places, segment_of, kept)
        assert (stopped is None) == (every is None)
        if stopped and every:
            assert [(c.energy(model.target), c.latency) for c, _ in stopped] == [
                (c.energy(model.target), c.latency) for c, _ in every
            ]
    assert sum(overflows for overflows, _ in outcomes) == 4
    assert min(priced for overflows, priced in outcomes if overflows) < len(segments)


def test_a_trial_on_kept_tensors_overflows_exactly_where_held_bytes_says(monkeypatch):
    """ResNet-18 b4, a segment per layer, on a core's buffer of each segment's peak as
    `held_bytes` counts it (from the tried tensor's segment on) and of a byte less than the
    largest: each boundary tensor that fits alone, tried on no other, and each pair that
    fits, the second tried on the segments priced with the first (as keep's choice tries
    them), overflow exactly when a peak is above the buffer, the first stopping at the
    first such segment (those after it not priced)."""
    network = resnet18_b4()
    model = CostModel(network, TARGET)
    tree = Node.cut("T", [Node.leaf(layer) for layer in range(len(network.layers))])
    places, segment_of, segments = model.places(tree), model.segment_of(tree), model.segments(tree)
    producers = boundary_producers(model.network, segments)
    alone = {producer: with_kept(model, tree, places, segment_of, frozenset([producer])) for producer in producers}
    trials = [((), producer) for producer in producers] + [((a,), b) for a, b in combinations(producers, 2)]
    target, reserved = model.target, model.target.local_memory.reserved_bytes
    asked: list[Node] = []
    price = model.segment_cost
    monkeypatch.setattr(model, "segment_cost", lambda segment, *args: asked.append(segment) or price(segment, *args))
    tried = 0
    for others, producer in trials:
        kept = frozenset([*others, producer])
        priced = with_kept(model, tree, places, segment_of, kept)
        base = (frozenset(others), alone[others[0]] if others else [])
        if priced is None or base[1] is None:
            continue
        tried += 1
        located = {layer: where for _, here in priced for layer, where in here.items()}
        held = held_bytes(model.network, segments, located, kept, model.context.mesh, target)
        start = segment_of[producer][0] if others else 0
        peaks = [int((cost.buf + cost.wgt + extra).max()) for (cost, _), extra in zip(priced, held, strict=True)]  # pyright: ignore[reportOptionalMemberAccess]
        for peak in {max(peaks[start:]) - 1} | set(peaks[start:]):
            local = attrs.evolve(target.local_memory, capacity_bytes=peak + reserved)
            monkeypatch.setattr(model, "target", attrs.evolve(target, local_memory=local))
            asked.clear()
            trial = with_kept(model, tree, places, segment_of, kept, base, start)  # pyright: ignore[reportArgumentType]
            over = [i for i in range(start, len(segments)) if peaks[i] > peak]
            assert (trial is None) == bool(over)
            if not others:
                assert len(asked) == (over[0] + 1 if over else len(segments))
        monkeypatch.setattr(model, "target", target)
    assert tried >= 6


def test_a_trees_segment_reads_are_what_its_leaves_read():
    """ResNet-18 b4's start on 150,000 B per core (four segments): per segment, the layers
    its leaves read, those and its leaves, and per layer read by a later one, the segment of
    its last reader, as the network's consumers place them."""
    model = CostModel(resnet18_b4(), with_buffer(150_000))
    tree = initial_tree(model)
    segments, segment_of = model.segments(tree), model.segment_of(tree)
    assert len(segments) == 4
    reads = SegmentReads.of(model.network, segments)
    for index, segment in enumerate(segments):
        leaves = set(segment.leaves())
        read = {p for layer in leaves for p in model.network.layers[layer].producers}
        assert (reads.reads[index], reads.seen[index]) == (read, leaves | read)
    producers = boundary_producers(model.network, segments)
    assert producers
    for layer in producers:
        assert reads.last[layer] == max(segment_of[c][0] for c in model.consumers[layer]) > segment_of[layer][0]
    assert reads.last.keys() >= set(range(len(model.network.layers))) - {
        layer for layer in range(len(model.network.layers)) if not model.consumers[layer]
    }
