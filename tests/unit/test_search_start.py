"""The search's start (compiler/search/annealing.py: greedy segments, SET's start) and the
cost model's retry of an overflowing segment with weights split more ways (evaluate.py)."""

from types import SimpleNamespace

import attrs
import numpy as np
import pytest
from test_cost_layer import TARGET, conv

from stc.compiler.cost import holds, repair
from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.holds import held_peak, one_period
from stc.compiler.cost.network import NETWORK_INPUT, Network, network_of
from stc.compiler.cost.node_cost import NodeCost
from stc.compiler.cost.pinned_banks import PinnedBanks
from stc.compiler.cost.schedule import Run
from stc.compiler.cost.tree import Node
from stc.compiler.memory.rectangles import Memory
from stc.compiler.search.annealing import cheapest_greedy, greedy_segments, initial_tree, priced_greedy, set_start
from stc.compiler.search.chains import shared_start
from stc.compiler.targets.components import Bank
from stc.compiler.targets.cost_units import Work
from stc.compiler.zoo import build_network
from stc.runtime.golden import find_graph


def with_buffer(capacity: int, multicast_loads: bool = True, banks: tuple[Bank, ...] | None = None):
    """set-8x8 with another local memory, of one bank unless `banks` are given (the room
    weights pinned across subbatches leave in banks, `pinned_banks`, has tests of its
    own); without `multicast_loads`, each core loads its own copy of a weight slice."""
    target = TARGET.with_global_memory(multicast_loads=multicast_loads)
    one_bank = (Bank("memory", capacity),)
    local = attrs.evolve(target.local_memory, capacity_bytes=capacity, banks=one_bank if banks is None else banks)
    return attrs.evolve(target, local_memory=local)


def deep_network(layers: int, batch: int = 16, channels: int = 128, hw: int = 16) -> Network:
    """A chain of 3×3 convs, `channels` → `channels` on hw × hw (128 on 16 × 16: 147,968
    weight bytes each)."""
    return Network(
        "deep",
        batch,
        tuple(
            conv(f"c{i}", i - 1 if i else NETWORK_INPUT, kernel=3, pad=1, channels=channels, filters=channels, hw=hw)
            for i in range(layers)
        ),
    )


def test_an_overflowing_segment_splits_the_weights_more_ways():
    """A segment of two subbatches (8 images each) keeps every leaf's weights for both. The
    cheapest partitions for the two runs, (8, 8, 1, 1) and (8, 4, 1, 2) for c0, hold one
    image (ifm 32,768 B, output 4,096 B) and 7 × 18,496 + 36,992 weight bytes: 36,864 +
    32,768 (the next layer's input) + 166,464 = 236,096 B on a core, more than 212,000.
    Split sixteen ways, (4, 16, 1, 1): two images (65,536 B,
    output 4,096 B), 8 × 9,248 weight bytes: 69,632 + 65,536 + 73,984 = 209,152 B fits. (On
    a target whose cores load their own copies of a weight slice: with multicast loads the
    copies cost less DRAM, and the cheapest partitions differ.) Those are the partitions of
    least compute; the roomy buffer's segment is priced cheaper still with those loading the
    fewest weight copies (`frugal`): c0 on (2, 32, 1, 1), two copies instead of eight, in
    142,595 cycles instead of 237,442, holding 335,600 B."""
    tree = Node.cut("T", [Node.cut("T", [Node.leaf(i) for i in range(8)], n=2)])
    roomy = CostModel(deep_network(8), with_buffer(400_000, multicast_loads=False))
    segment = (tree.children[0], roomy.places(tree), dict.fromkeys(range(8), 0))
    least_compute, _ = roomy.priced_segment(*segment, frugal=False)
    assert least_compute is not None
    assert least_compute.buffer_peak() == 236_096
    chosen = roomy.evaluate(tree)
    assert (chosen.cost.buffer_peak(), chosen.latency, least_compute.latency) == (335_600, 142_595, 237_442)
    model = CostModel(deep_network(8), with_buffer(212_000, multicast_loads=False))
    estimate = model.evaluate(tree)
    assert estimate.valid
    assert estimate.cost.buffer_peak() == 209_152
    assert int(estimate.cost.wgt.max()) == 8 * 147_968 // 16
    _, split = model.segment_cost(tree.children[0], model.places(tree), dict.fromkeys(range(8), 0))
    assert {part.counts for _, part in split.values()} == {(4, 16, 1, 1)}


def test_a_segment_run_once_holds_each_leaf_s_weights_in_its_own_phase():
    """One subbatch: each leaf runs once and its weights are put with its pieces, so a core
    holds one leaf's weights at a time (DMA in order: none prefetched): the peak is
    max_i (buf_i + wgt_i + ifm_(i+1)), not the sum of the weights plus the buffers."""
    model = CostModel(deep_network(8), with_buffer(300_000).with_global_memory(dma_overlaps_compute=False))
    tree = Node.cut("T", [Node.cut("T", [Node.leaf(i) for i in range(8)])])
    places = model.places(tree)
    segment_of = dict.fromkeys(range(8), 0)
    located: dict = {}
    leaves = []
    for i, leaf in enumerate(tree.children[0].children):
        located[i], cost = model.leaf(i, places[id(leaf)], located, segment_of)
        leaves.append(cost)
    following = [cost.ifm for cost in leaves[1:]] + [0]
    peak = max(int((cost.buf + cost.wgt + ifm).max()) for cost, ifm in zip(leaves, following, strict=True))
    estimate = model.evaluate(tree)
    assert estimate.cost.buffer_peak() == peak
    assert peak < int(sum(cost.wgt for cost in leaves).max())


def test_prefetched_weights_are_held_from_the_slot_that_loads_them():
    """The same segment with DMA beside compute: c2 … c7's weights (18,496 B a core) are
    prefetched 1, 2, 3, 3, 4 and 5 slots early, so in slot 2 (c2: buf 73,728 + wgt 18,496,
    c3's input 65,536) a core also holds c3 … c7's weights: 157,760 + 5 × 18,496 = 250,240 B.
    On 200,000 B that overflows, and the segment is priced with none prefetched: 157,760 B,
    81,155 cycles instead of 79,421."""
    tree = Node.cut("T", [Node.cut("T", [Node.leaf(i) for i in range(8)])])
    roomy = CostModel(deep_network(8), with_buffer(300_000)).evaluate(tree)
    assert roomy.cost.prefetched == ((2, 1), (3, 2), (4, 3), (5, 3), (6, 4), (7, 5))
    assert roomy.cost.buffer_peak() == 250_240
    assert roomy.latency == 79_421
    tight = CostModel(deep_network(8), with_buffer(200_000)).evaluate(tree)
    assert tight.valid
    assert tight.cost.prefetched == ()
    assert tight.cost.buffer_peak() == 157_760
    assert tight.latency == 81_155


def test_an_input_is_held_from_its_first_producer_s_slot():
    """Three leaves in slots 0, 1, 2 on two cores; leaf 2 reads leaves 0 and 1 (a residual),
    so its input (ifm 10 / 20 B) is held from slot 0, and leaf 1's (10 / 0 B) in slot 0. Core
    0: 5 + 10 + 10 = 25 B in slot 0, 3 + 4 (wgt) + 10 = 17 in slot 1; core 1: 1 + 20 = 21,
    then 2 + 20 = 22. With leaf 2's weights (0 / 7 B) prefetched two slots early, core 1
    holds 28 and 29. In steps of two phases slot 2 starts step 1: leaf 2's producers and
    prefetch lie in step 0 and hold nothing (core 0: 5 + 10 = 15; core 1: 1 + 7 in slot 2)."""
    runs = [Run(0, 0, 0), Run(1, 0, 1), Run(2, 0, 2)]

    def cost(buf, wgt, ifm):
        ifm, wgt, buf = (np.array(values, float) for values in (ifm, wgt, buf))
        return NodeCost(Work(), Work(), np.zeros(2), np.zeros(2), 0.0, ifm, wgt, buf)

    leaves = {0: cost([5, 1], [0, 0], [1, 1]), 1: cost([3, 2], [4, 0], [10, 0]), 2: cost([1, 1], [0, 7], [10, 20])}
    producers = {0: set(), 1: {0}, 2: {0, 1}}
    assert list(held_peak(runs, leaves, producers, None, {})) == [25, 22]
    assert list(held_peak(runs, leaves, producers, None, {2: 2})) == [25, 29]
    assert list(held_peak(runs, leaves, producers, 2, {2: 2})) == [15, 8]


def test_a_subbatch_holds_an_input_from_its_producer_on_the_same_images():
    """The leaves above in a segment of two subbatches (slots 0-2, then 3-5), leaf 2's
    weights 0 / 30 B: each run of leaf 2 holds its input from the run of leaf 0 on its own
    images (slot 0, then slot 3; from slot 0 for both, core 1 would hold 10 + 20 + 20 + 1
    in slot 3). Core 0 peaks at 5 + 10 + 10 = 25 in slots 0 and 3, core 1 at 2 + 20 = 22.
    With the weights `pinned` (kept for every subbatch, counted apart) slot 2 is 1 / 1 B;
    otherwise 1 / 31."""
    runs = [Run(layer, iteration, 3 * iteration + layer) for iteration in (0, 1) for layer in (0, 1, 2)]

    def cost(buf, wgt, ifm):
        ifm, wgt, buf = (np.array(values, float) for values in (ifm, wgt, buf))
        return NodeCost(Work(), Work(), np.zeros(2), np.zeros(2), 0.0, ifm, wgt, buf)

    leaves = {0: cost([5, 1], [0, 0], [1, 1]), 1: cost([3, 2], [4, 0], [10, 0]), 2: cost([1, 1], [0, 30], [10, 20])}
    producers = {0: set(), 1: {0}, 2: {0, 1}}
    assert list(held_peak(runs, leaves, producers, None, {}, pinned=True)) == [25, 22]
    assert list(held_peak(runs, leaves, producers, None, {})) == [25, 31]
    assert list(held_peak(runs, leaves, producers, 3, {}, pinned=True)) == [25, 22]


def test_a_segment_s_peak_is_priced_on_one_period_of_its_subbatches(monkeypatch):
    """ResNet-18 b16's first eight layers (two residual blocks) under `T 16/n`: a result
    stored 3 slots late reaches one subbatch of 8 slots past its own, so `one_period` keeps
    3 subbatches of 16 (1 image each), and the segment's peak is the same as with all of
    them priced (the held_peak of every run)."""
    network = network_of(find_graph(build_network("resnet18", batch=16)))
    period = one_period(Node.cut("T", [Node.leaf(i) for i in range(8)], n=16), 16, 128, 3, None)
    assert (period[0].n, period[1]) == (3, 3)
    assert one_period(Node.cut("T", [Node.leaf(0)], n=16), 16, 16, 3, None)[0].n == 7
    assert one_period(Node.cut("T", [Node.leaf(0)], n=16), 16, 16, 3, 32)[0].n == 16
    peaks = []
    for whole in (False, True):
        if whole:
            monkeypatch.setattr(holds, "one_period", lambda segment, batch, *_: (segment, batch))
        for n in (4, 16):
            tree = Node.cut("T", [Node.leaf(i) for i in range(8)], n=n)
            segment = CostModel(network, TARGET).evaluate(tree).segments[0]
            peaks.append((segment.buffer_peak(), segment.late_stores))
    assert peaks[:2] == peaks[2:]
    assert peaks[1][1] == ((7, 3),)


def test_an_input_loaded_early_is_held_from_the_slot_before():
    """The leaves above with leaf 1 reading from DRAM: its input (10 / 0 B) is held in its own
    slot only (core 0: 3 + 4 + 10 = 17 at most), or, loaded a slot early (`early`), from
    slot 0 too: 5 + 10 (leaf 2's) + 10 = 25."""
    runs = [Run(0, 0, 0), Run(1, 0, 1), Run(2, 0, 2)]

    def cost(buf, wgt, ifm):
        ifm, wgt, buf = (np.array(values, float) for values in (ifm, wgt, buf))
        return NodeCost(Work(), Work(), np.zeros(2), np.zeros(2), 0.0, ifm, wgt, buf)

    leaves = {0: cost([5, 1], [0, 0], [1, 1]), 1: cost([3, 2], [4, 0], [10, 0]), 2: cost([1, 1], [0, 7], [10, 20])}
    producers = {0: set(), 1: set(), 2: {0, 1}}
    assert list(held_peak(runs, leaves, producers, None, {})) == [17, 22]
    assert list(held_peak(runs, leaves, producers, None, {}, {1: 1})) == [25, 22]


def test_a_result_stored_late_is_held_in_the_next_slot_too():
    """Three leaves reading nothing on chip, leaf 0's result (4 / 6 B) stored beside leaf
    1's compute (`late`): held in slot 1 too, core 0 then peaks at 3 + 4 (wgt) + 4 = 11
    (7 without), core 1 at 2 + 6 = 8 (2). In steps of one phase slot 1 starts a step of its
    own, where the lowering does not store late: nothing held."""
    runs = [Run(0, 0, 0), Run(1, 0, 1), Run(2, 0, 2)]

    def cost(buf, wgt, ifm, result=(0, 0)):
        ifm, wgt, buf, result = (np.array(values, float) for values in (ifm, wgt, buf, result))
        return attrs.evolve(NodeCost(Work(), Work(), np.zeros(2), np.zeros(2), 0.0, ifm, wgt, buf), result=result)

    leaves = {0: cost([5, 1], [0, 0], [1, 1], (4, 6)), 1: cost([3, 2], [4, 0], [0, 0]), 2: cost([1, 1], [0, 0], [0, 0])}
    producers = {0: set(), 1: set(), 2: set()}
    assert list(held_peak(runs, leaves, producers, None, {})) == [7, 2]
    assert list(held_peak(runs, leaves, producers, None, {}, {}, {0: 1})) == [11, 8]
    assert list(held_peak(runs, leaves, producers, 1, {}, {}, {0: 1})) == [7, 2]


def test_a_result_stored_k_slots_late_is_held_in_the_k_slots_after():
    """Leaf 0's result (4 / 6 B) stored one slot late is held beside leaf 1 (1 / 1 B): core
    1 peaks at 7; two slots late, beside leaf 2 (5 / 0 B) too: core 0 at 9. In steps of two
    phases slot 2 starts a step of its own, where the lowering does not store late: only
    slot 1 holds it."""
    runs = [Run(0, 0, 0), Run(1, 0, 1), Run(2, 0, 2)]

    def cost(buf, result=(0, 0)):
        buf, none = np.array(buf, float), np.zeros(2)
        return attrs.evolve(NodeCost(Work(), Work(), none, none, 0.0, none, none, buf), result=np.array(result, float))

    leaves = {0: cost([2, 2], (4, 6)), 1: cost([1, 1]), 2: cost([5, 0])}
    producers = {0: set(), 1: set(), 2: set()}
    assert list(held_peak(runs, leaves, producers, None, {})) == [5, 2]
    assert list(held_peak(runs, leaves, producers, None, {}, {}, {0: 1})) == [5, 7]
    assert list(held_peak(runs, leaves, producers, None, {}, {}, {0: 2})) == [9, 7]
    assert list(held_peak(runs, leaves, producers, 2, {}, {}, {0: 2})) == [5, 7]


def test_an_input_loaded_k_slots_early_is_held_from_k_slots_before():
    """Leaf 2 reading from DRAM (ifm 10 / 20 B) beside leaves of buf 5 / 9 and 3 + 4 / 2 B:
    held in its own slot only, core 1 peaks at 9 (slot 0); loaded a slot early, at 2 + 20 =
    22 (slot 1); two slots early, at 9 + 20 = 29 (slot 0). In steps of two phases the hold
    starts with slot 2's step: nothing before it."""
    runs = [Run(0, 0, 0), Run(1, 0, 1), Run(2, 0, 2)]

    def cost(buf, wgt, ifm):
        ifm, wgt, buf = (np.array(values, float) for values in (ifm, wgt, buf))
        return NodeCost(Work(), Work(), np.zeros(2), np.zeros(2), 0.0, ifm, wgt, buf)

    leaves = {0: cost([5, 9], [0, 0], [1, 1]), 1: cost([3, 2], [4, 0], [0, 0]), 2: cost([1, 1], [0, 7], [10, 20])}
    producers = {0: set(), 1: set(), 2: set()}
    assert list(held_peak(runs, leaves, producers, None, {})) == [7, 9]
    assert list(held_peak(runs, leaves, producers, None, {}, {2: 1})) == [17, 22]
    assert list(held_peak(runs, leaves, producers, None, {}, {2: 2})) == [17, 29]
    assert list(held_peak(runs, leaves, producers, 2, {}, {2: 2})) == [7, 9]


def test_greedy_segments_fuse_what_fits():
    model = CostModel(deep_network(3), TARGET)
    tree = greedy_segments(model)
    assert repr(tree) == "T/1[T/1[L0, L1, L2]]"
    # SET's start runs each layer as its own segment (the root's subbatch count 1 fits)
    assert repr(set_start(model)) == "T/1[L0, L1, L2]"
    assert model.evaluate(tree).value(model.objective) < model.evaluate(set_start(model)).value(model.objective)
    assert repr(initial_tree(model)) == repr(tree)


def test_greedy_segments_close_a_segment_when_the_next_layer_does_not_fit():
    """512 → 512 channels: 2,361,344 weight bytes a layer, at least 36,896 on each of the
    64 cores; with 100,000 bytes per core two layers fit at once, not three."""
    model = CostModel(deep_network(4, batch=4, channels=512, hw=4), with_buffer(100_000))
    tree = greedy_segments(model)
    assert tree.kind == "T"
    assert tree.n == 1
    assert len(tree.children) > 1
    assert list(tree.leaves()) == list(range(4))
    for segment in tree.children:
        assert model.evaluate(Node.cut("T", [segment])).valid
    assert model.evaluate(tree).valid


def test_the_start_is_the_cheapest_greedy_segmentation_over_subbatch_caps():
    """512 → 512 channels at batch 4 on 100,000 B per core: uncapped, two layers fit at
    once at four subbatches (one image each: two segments of two layers); capped at two
    subbatches they do not, so each layer runs as its own segment of the whole batch, which
    is cheaper; capped at one, the same tree, not cheaper, so the caps stop there."""
    model = CostModel(deep_network(4, batch=4, channels=512, hw=4), with_buffer(100_000))
    uncapped = greedy_segments(model)
    assert repr(uncapped) == "T/1[T/4[L0, L1], T/4[L2, L3]]"
    assert repr(greedy_segments(model, cap=4)) == repr(uncapped)
    capped = greedy_segments(model, cap=2)
    assert repr(capped) == "T/1[T/1[L0], T/1[L1], T/1[L2], T/1[L3]]"
    assert repr(greedy_segments(model, cap=1)) == repr(capped)
    cost = model.objective
    assert model.evaluate(capped).value(cost) < model.evaluate(uncapped).value(cost)
    assert repr(cheapest_greedy(model)) == repr(capped)
    assert repr(initial_tree(model)) == repr(capped)


def test_the_start_s_caps_priced_in_two_processes_give_the_same_start():
    """The caps 4 and 2 priced here, 1 in a worker (`shared_start`); or two at a time, 4
    and 2, then 1 (and nothing after it): the same start as one process pricing them one
    after the other."""
    network = deep_network(4, batch=4, channels=512, hw=4)
    target = with_buffer(100_000)
    shared = shared_start(CostModel(network, target), "set", workers=1)
    assert repr(shared) == "T/1[T/1[L0], T/1[L1], T/1[L2], T/1[L3]]"
    assert repr(shared) == repr(initial_tree(CostModel(network, target)))
    model = CostModel(network, target)
    asked: list[list[int]] = []

    def greedy(caps: list[int]) -> list:
        asked.append(caps)
        return [priced_greedy(model, "set", cap) for cap in caps]

    assert repr(cheapest_greedy(model, greedy=greedy, width=2)) == repr(shared)
    assert asked == [[4, 2], [1]]


def resnet18_b4() -> Network:
    return network_of(find_graph(build_network("resnet18", batch=4)))


def test_the_start_shared_out_is_the_one_process_start_and_handed_over_priced(monkeypatch):
    """ResNet-18 b4 on 150,000 B per core (four segments, repairs that go steepest): caps
    4 and 2 priced here, 1 in a worker; the same start, and the worker's trees' segment
    costs handed over, so the start is not priced again here."""
    target = with_buffer(150_000)
    plain = CostModel(resnet18_b4(), target)
    tree = initial_tree(plain)
    model = CostModel(resnet18_b4(), target)
    start = shared_start(model, "set", workers=1)
    assert repr(start) == repr(tree)
    monkeypatch.setattr(model, "priced_segment", lambda *args: pytest.fail("priced again"))
    shared, alone = model.evaluate(start), plain.evaluate(tree)
    assert (shared.energy, shared.latency, shared.kept) == (alone.energy, alone.latency, alone.kept)


def test_a_model_given_another_s_priced_tree_prices_it_again_for_nothing(monkeypatch):
    network = deep_network(4, batch=4, channels=512, hw=4)
    target = with_buffer(100_000)
    priced = CostModel(network, target)
    tree = initial_tree(priced)
    model = CostModel(network, target)
    model.adopt(priced.cached(tree))
    monkeypatch.setattr(model, "priced_segment", lambda *args: pytest.fail("priced again"))
    given, own = model.evaluate(tree), priced.evaluate(tree)
    assert (given.energy, given.latency, given.kept) == (own.energy, own.latency, own.kept)


def test_a_repair_pricing_each_spread_once_costs_what_pricing_every_trial_does(monkeypatch):
    """ResNet-18 b4 on 150,000 B per core: the start and its segments' costs and partitions
    with the repairs' trials remembered (`repair.remembered`) and priced every time."""
    target = with_buffer(150_000)
    model = CostModel(resnet18_b4(), target)
    tree = initial_tree(model)
    monkeypatch.setattr(repair, "remembered", lambda price: price)
    plain = CostModel(resnet18_b4(), target)
    assert repr(initial_tree(plain)) == repr(tree)
    remembered, every = model.evaluate(tree), plain.evaluate(tree)
    assert (remembered.energy, remembered.latency, remembered.kept) == (every.energy, every.latency, every.kept)
    assert model.layout(tree) == plain.layout(tree)


def test_greedy_segments_give_up_when_a_layer_fits_nowhere():
    model = CostModel(deep_network(2, batch=4, channels=512, hw=4), with_buffer(30_000))
    assert greedy_segments(model) is None


def test_a_move_reprices_only_the_segments_it_changes(monkeypatch):
    network = deep_network(4, batch=4, channels=512, hw=4)
    target = with_buffer(100_000)
    model = CostModel(network, target)
    before = Node.cut(
        "T", [Node.cut("T", [Node.leaf(0), Node.leaf(1)], n=4), Node.cut("T", [Node.leaf(2), Node.leaf(3)], n=4)]
    )
    after = Node.cut(
        "T", [Node.cut("T", [Node.leaf(0), Node.leaf(1)], n=4), Node.cut("T", [Node.leaf(2), Node.leaf(3)], n=2)]
    )
    model.evaluate(before)
    priced = []
    leaf = model.leaf
    monkeypatch.setattr(model, "leaf", lambda layer, *args: priced.append(layer) or leaf(layer, *args))
    estimate = model.evaluate(after)
    assert set(priced) == {2, 3}
    fresh = CostModel(network, target).evaluate(after)
    assert (estimate.latency, estimate.energy, estimate.valid) == (fresh.latency, fresh.energy, fresh.valid)


def test_weights_pinned_across_subbatches_count_the_room_they_leave_in_banks():
    """Per core, a subbatched segment's pinned pieces are packed into the banks as the
    allocator must keep them (a block no larger than a bank in one): core 0 holds four
    36 KB weights with their 128 B biases, one weight per 64 KB bank, 85,504 B left in
    banks no other 36 KB region fits (`banks.bank_gaps`); core 1 four 32 KB weights, which
    pair up: nothing; core 2 none. In one bank there are no walls."""
    weights = [np.array([36864 + 128, 32768 + 128, 0])] * 4
    leaves = {layer: SimpleNamespace(wgt=wgt) for layer, wgt in enumerate(weights)}
    blocks = lambda layer, nbytes: [nbytes - 128, 128]  # noqa: E731
    banked = Memory(262144, (65536,) * 4)
    assert list(PinnedBanks(banked, blocks).gaps(leaves)) == [28160 + 2 * 28672, 0, 0]  # pyright: ignore[reportArgumentType]
    assert PinnedBanks(Memory(262144), blocks).gaps(leaves) == 0  # pyright: ignore[reportArgumentType]


def test_a_subbatched_segment_holds_the_room_its_pinned_weights_leave_in_banks():
    """ResNet-18 b4's first ten layers as one segment of two subbatches on 1 MiB per core:
    in one bank its peak is 207,195 B, in set-8x8's sixteen 64 KB banks 222,075 B: on every
    core the room its pinned pieces (weight slices, biases) leave in their banks, 14,880 B,
    as `PinnedBanks` packs the leaves the banked model priced."""
    network = resnet18_b4()
    tree = Node.cut("T", [Node.cut("T", [Node.leaf(i) for i in range(10)], n=2)])
    banks = tuple(Bank(f"bank{i}", 65536) for i in range(16))
    one, banked = (CostModel(network, with_buffer(1_048_576, banks=b)) for b in (None, banks))
    flat, walled = one.evaluate(tree), banked.evaluate(tree)
    assert (flat.cost.buffer_peak(), walled.cost.buffer_peak()) == (207_195, 222_075)
    spreads = dict.fromkeys(range(10), 1)
    _, _, leaves = banked.spread_segment(
        tree.children[0], banked.places(tree), dict.fromkeys(range(10), 0), spreads, False, frozenset(), None
    )
    gaps = banked.pinned.gaps(leaves)
    assert np.array_equal(walled.cost.buf - flat.cost.buf, gaps)
    assert set(gaps.tolist()) == {14_880}  # pyright: ignore[reportAttributeAccessIssue]
