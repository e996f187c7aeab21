"""Seed 002's cost recursion on hand-computed trees: every rule of compiler/cost/recursion.py."""

import attrs
import numpy as np
import pytest

from stc.compiler.cost.node_cost import NodeCost
from stc.compiler.cost.objective import objective
from stc.compiler.cost.recursion import PREFETCH_DEPTH, reloaded, s_cut, stages_of, t_cut
from stc.compiler.cost.room import Room
from stc.compiler.cost.root_chain import RootChain
from stc.compiler.diagnostics import StcError
from stc.compiler.targets.cost_units import Work
from stc.compiler.targets.hardware import load_target

TARGET = load_target("set-8x8")


def child(latency, macs=0, dram=0, hop_bytes=0, link=0.0, weights=0, ifm=(0, 0), wgt=(0, 0), buf=(0, 0), loading=0.0):
    """A node on two cores and one link."""
    return NodeCost(
        work=Work(macs=macs, dram_read_bytes=dram, noc_hop_bytes=hop_bytes),
        weights=Work(dram_read_bytes=weights),
        links=np.array([link]),
        weight_links=np.array([0.0]),
        latency=latency,
        ifm=np.array(ifm, dtype=float),
        wgt=np.array(wgt, dtype=float),
        buf=np.array(buf, dtype=float),
        compute_cycles=latency,
        weight_cycles=loading,
    )


def test_work_and_hops_are_n_times_the_sum_weights_once():
    a = child(10, macs=100, dram=64, hop_bytes=5, weights=640)
    b = child(20, macs=50, dram=0, hop_bytes=7, weights=64)
    for cut in (t_cut([a, b], 4, TARGET), s_cut([a, b], 4, [0, 0], TARGET)):
        assert cut.work == Work(macs=600, dram_read_bytes=256, noc_hop_bytes=48)
        assert cut.weights == Work(dram_read_bytes=704)
        assert cut.energy(TARGET) == pytest.approx(600 * 0.018 + 5.6 * 48 + 60 * (256 + 704))


def test_t_cut_latency_is_n_times_the_sum():
    assert t_cut([child(10), child(20)], 3, TARGET).latency == 90


def test_s_cut_latency_is_each_slot_s_slowest_child_over_n_plus_the_last_stage_blocks():
    """Blocks 0 … 5: children (0), (0, 1), (0, 1, 2), (0, 1, 2), (1, 2), (2) run in them;
    the seed's (4 + 2)·20 = 120 is the bound, reached when the children take as long."""
    cut = s_cut([child(10), child(20), child(5)], 4, [0, 1, 2], TARGET)
    assert cut.latency == 10 + 20 + 20 + 20 + 20 + 5
    assert cut.slots.tolist() == [10, 20, 20, 20, 20, 5]
    assert s_cut([child(10), child(20)], 4, [0, 0], TARGET).latency == 4 * 20
    assert s_cut([child(20), child(20), child(20)], 4, [0, 1, 2], TARGET).latency == (4 + 2) * 20


def test_s_cut_slots_follow_the_children_s_slots_and_share_the_dram_bandwidth():
    """A T-cut child of two slots (10, 30) beside a leaf of 15 cycles and 1,280 DRAM bytes
    (20 cycles at 64 B/cycle) in one block of two slots; beside it the other child's DRAM
    bytes add: 2 × 1,280 B take 40 cycles."""
    two = t_cut([child(10), child(30)], 1, TARGET)
    cut = s_cut([two, child(15, dram=1280), child(5, dram=1280)], 1, [0, 0, 0], TARGET)
    assert cut.slots.tolist() == [40, 30]
    assert cut.latency == 70
    assert t_cut([cut, child(7)], 2, TARGET).latency == 2 * (70 + 7)


def test_weights_load_in_the_first_run_only():
    """Children of 10 and 20 cycles whose first run loads weights for 4 and 6 more: a T-cut
    of 3 subbatches pays the loading once, 3·(10 + 20) + 4 + 6; an S-cut with b one stage
    behind loads each child's weights in the child's first slot: a alone in the first
    (10 + 4), b's first run beside a's second (20 + 6), then 20 and 20; side by side (one
    stage) they load together and pay the slower loading once: (20 + 6) + 20 + 20; a parent
    running the cut again pays it once more only."""
    a, b = child(14, loading=4), child(26, loading=6)
    t = t_cut([a, b], 3, TARGET)
    assert (t.latency, t.weight_cycles) == (100, 10)
    s = s_cut([a, b], 3, [0, 1], TARGET)
    assert (s.latency, s.weight_cycles) == (14 + 26 + 20 + 20, 10)
    beside = s_cut([a, b], 3, [0, 0], TARGET)
    assert (beside.latency, beside.weight_cycles) == (26 + 20 + 20, 6)
    assert t_cut([t], 2, TARGET).latency == 2 * 90 + 10


def test_an_s_cut_child_loads_its_weights_in_the_slots_its_own_first_run_loads_them():
    """A = T[a1, a2], each leaf 10 cycles a slot and 5 more loading its weights, beside
    B (20 cycles, no weights): A's first run spreads its loading over its two slots, so
    slot 0 lasts max(10 + 5, 20) = 20 and slot 1 10 + 5 = 15 (35 cycles, 5 of loading).
    Lumped into A's first slot (max(10 + 10, 20) = 20, then 10) the loading vanished."""
    a = t_cut([child(15, loading=5), child(15, loading=5)], 1, TARGET)
    assert list(a.loading()[0]) == [5, 5]
    beside = s_cut([a, child(20)], 1, [0, 0], TARGET)
    assert (beside.latency, beside.weight_cycles) == (35, 5)
    assert list(beside.loading()[0]) == [0, 5]
    # twice over two subbatches: the loading only in the first run's slots
    assert list(t_cut([a], 2, TARGET).loading()[0]) == [5, 5, 0, 0]


def test_reloaded_weights_add_their_loading_once_per_reload():
    """A segment of two leaves, the first loading its weights twice more (in two later
    steps): 2 × its 640 B, 2 × its 30 cycles of loading, the other's nothing."""
    a = child(100, weights=640, loading=30)
    b = child(50, weights=64, loading=5)
    segment = t_cut([a, b], 1, TARGET)
    again = reloaded(segment, [(a, 2), (b, 0)], TARGET)
    assert again.weights == Work(dram_read_bytes=704 + 2 * 640)
    assert again.work == segment.work
    assert again.latency == segment.latency + 60
    assert again.weight_cycles == segment.weight_cycles + 60
    assert again.steady_latency == segment.steady_latency
    assert reloaded(segment, [], TARGET) is segment


def test_latency_never_below_the_traffic():
    # 6400 DRAM bytes at 64 B/cycle: 100 cycles > 2 × 10
    assert t_cut([child(10, dram=3200), child(10)], 2, TARGET).latency == 100
    # links carry any load at once, as on the machine: 2400 bytes on one link add nothing
    assert t_cut([child(10, link=600), child(10, link=600)], 2, TARGET).latency == 40


def test_stages_follow_reads_from_earlier_siblings():
    assert stages_of([set(), {0}, set(), {1, 2}]) == [0, 1, 0, 2]


def test_ifm_is_n_times_the_sum_and_wgt_the_sum():
    a = child(1, ifm=(10, 0), wgt=(100, 1))
    b = child(1, ifm=(5, 2), wgt=(7, 0))
    for cut in (t_cut([a, b], 3, TARGET), s_cut([a, b], 3, [0, 0], TARGET)):
        assert cut.ifm.tolist() == [45, 6]
        assert cut.wgt.tolist() == [107, 1]


def test_s_cut_buffers_add_and_add_the_prefetch_with_subbatches():
    a = child(1, ifm=(10, 0), buf=(30, 0))
    b = child(1, ifm=(0, 4), buf=(0, 8))
    assert s_cut([a, b], 1, [0, 0], TARGET).buf.tolist() == [30, 8]
    assert s_cut([a, b], 2, [0, 0], TARGET).buf.tolist() == [40, 12]


def test_t_cut_buffer_is_the_max_of_buf_and_the_next_ifm_with_wraparound():
    a = child(1, ifm=(10, 1), buf=(30, 1))
    b = child(1, ifm=(20, 2), buf=(5, 50))
    c = child(1, ifm=(3, 0), buf=(12, 0))
    # n = 1: a+ifm(b) = (50, 3), b+ifm(c) = (8, 50), c alone = (12, 0)
    assert t_cut([a, b, c], 1, TARGET).buf.tolist() == [50, 50]
    # n = 2: the last child also holds the first's next ifm: c + ifm(a) = (22, 1)
    assert t_cut([a, b, c], 2, TARGET).buf.tolist() == [50, 50]
    assert t_cut([c, a], 2, TARGET).buf.tolist() == [max(12 + 10, 30 + 3), max(0 + 1, 1 + 0)]


def test_validity_is_buf_plus_wgt_against_the_buffer():
    fits = child(1, buf=(1 << 19, 0), wgt=(1 << 19, 0))
    assert fits.buffer_peak() == 1 << 20
    assert fits.fits(TARGET)
    assert not child(1, buf=(1 << 19, 0), wgt=((1 << 19) + 1, 0)).fits(TARGET)


@pytest.mark.parametrize(
    ("name", "expected"), [("edp", 6.0), ("energy", 2.0), ("latency", 3.0), ("e2d", 12.0), ("ed3", 54.0)]
)
def test_cost_functions(name, expected):
    assert objective(name)(2.0, 3.0) == expected


def test_unknown_cost_function():
    with pytest.raises(StcError, match="unknown cost function 'fast'"):
        objective("fast")


IN_ORDER = TARGET.with_global_memory(dma_overlaps_compute=False)
"""set-8x8 with its DMA in line with compute: nothing is prefetched."""


def loader(layer, steady, nbytes, dram=0):
    """A leaf that loads `nbytes` of weights (at 64 B/cycle) before its `steady` cycles."""
    loading = -(-nbytes // 64)
    cost = child(steady + loading, dram=dram, weights=nbytes, loading=loading)
    return attrs.evolve(cost, head_dram=float(nbytes), head_cycles=float(steady), head_layers=frozenset({layer}))


def test_weights_load_beside_an_earlier_slot_s_compute_where_dma_overlaps_compute():
    """A 1,000-cycle slot without DRAM bytes hides the 100 cycles of the next leaf's 6,400 B
    of weights: 1,000 + 100 instead of 1,000 + 200; in order they add."""
    a, b = child(1000), loader(1, 100, 6400)
    assert t_cut([a, b], 1, IN_ORDER).latency == 1200
    cut = t_cut([a, b], 1, TARGET)
    assert cut.latency == 1100
    assert cut.prefetched == ((1, 1),)
    assert [values.tolist() for values in cut.first_run()] == [[1000, 100], [6400, 0]]


def test_weights_are_prefetched_only_where_that_is_faster_and_as_far_as_the_best():
    """Slot a is DRAM-bound (6,400 B): prefetching b there makes it 200 cycles, no gain; two
    slots back, a 1,000-cycle slot hides it (held two slots); beyond PREFETCH_DEPTH slots
    that slot is out of reach, and of the 10-cycle slots, which gain alike (10 → 100 cycles,
    +90, for the 100 the load added, −100), the farthest takes it: the nearer slots stay
    free for the weights of the leaves after it, which reach fewer slots back."""
    busy, short = child(100, dram=6400), child(10)
    assert t_cut([busy, loader(1, 100, 6400)], 1, TARGET).prefetched == ()
    cut = t_cut([child(1000), short, loader(2, 100, 6400)], 1, TARGET)
    assert (cut.latency, cut.prefetched) == (1110, ((2, 2),))
    far = t_cut([child(1000)] + [short] * PREFETCH_DEPTH + [loader(9, 100, 6400)], 1, TARGET)
    assert far.prefetched == ((9, PREFETCH_DEPTH),)
    assert far.latency == 1000 + 10 * (PREFETCH_DEPTH - 1) + 100 + 100


def test_an_s_cut_s_first_slot_weights_are_its_head():
    """Two leaves of stage 0 side by side load 6,400 B each in the S-cut's first slot: 200
    cycles of DRAM; the T-cut prefetches both behind the 1,000 cycles before."""
    side = s_cut([loader(1, 100, 6400), loader(2, 50, 6400)], 1, [0, 0], TARGET)
    assert (side.latency, side.head_dram, side.head_cycles) == (200, 12800, 100)
    cut = t_cut([child(1000), side], 1, TARGET)
    assert cut.latency == 1100
    assert cut.prefetched == ((1, 1), (2, 1))


ROOM = TARGET.usable_memory_bytes


def segment(latency, free, holds=(0, 0), layer=-1, nbytes=0):
    """A segment whose peak leaves `free` bytes on each of its two cores; with `nbytes`, it
    loads that many bytes of weights first, `holds` of them per core."""
    cost = child(latency, buf=[ROOM - room for room in free])
    if nbytes:
        cost = attrs.evolve(loader(layer, latency, nbytes), buf=cost.buf)
    return attrs.evolve(cost, head_wgt=np.array(holds, dtype=float))


def root(costs):
    """The root over segments, as `CostModel.root` prices it."""
    return t_cut(costs, 1, TARGET, early=False, room=Room.of(costs, TARGET))


def test_the_root_prefetches_weights_only_across_segments_with_room_for_them():
    """A segment's weights (200 B a core) held from a slot of an earlier segment on must fit
    beside the peak of that segment and of every one up to theirs: a (1,000 cycles) hides
    their load best, but 100 B are free on a core there, so b's 10-cycle slot takes it
    (10 + 100 + 100, not 1,000's 0 + 100); with b full too, nothing does (10 + 200). The
    same cut without room to check (a T-cut in a segment, whose weights are all counted)
    takes a."""
    weights = dict(holds=(200, 200), layer=2, nbytes=6400)
    roomy, tight = segment(1000, (100, ROOM)), segment(10, (ROOM, ROOM))
    assert t_cut([roomy, tight, segment(100, (ROOM, ROOM), **weights)], 1, TARGET, early=False).prefetched == ((2, 2),)
    cut = root([roomy, tight, segment(100, (ROOM, ROOM), **weights)])
    assert (cut.latency, cut.prefetched) == (1000 + 100 + 100, ((2, 1),))
    full = root([segment(1000, (ROOM, ROOM)), segment(10, (ROOM, 199)), segment(100, (ROOM, ROOM), **weights)])
    assert (full.latency, full.prefetched) == (1000 + 10 + 200, ())


def test_results_kept_across_a_segment_take_its_room_from_prefetched_weights():
    """A 1,000-cycle segment with room on every core, but holding a result kept for a later
    segment that leaves 100 B free on one: the 200 B a core of weights go to the 10-cycle
    segment after it instead."""
    weights = dict(holds=(200, 200), layer=2, nbytes=6400)
    after = [segment(10, (ROOM, ROOM)), segment(100, (ROOM, ROOM), **weights)]
    assert root([segment(1000, (ROOM, ROOM)), *after]).prefetched == ((2, 2),)
    holding = attrs.evolve(segment(1000, (ROOM, ROOM)), held=np.array([ROOM - 100.0, 0.0]))
    assert root([holding, *after]).prefetched == ((2, 1),)


def test_weights_prefetched_across_a_segment_take_its_room_from_later_prefetches():
    """Two segments of weights (200 B a core each) after a 1,000-cycle segment with 300 B
    free: the first is prefetched there, the second no longer fits beside it and loads in
    the first's 50-cycle slot, which its 100 cycles of DMA lengthen by 50 (1,000 + 100 +
    100); with room for both, both go to the first slot (1,000 + 50 + 100)."""
    weights = dict(holds=(200, 200), nbytes=6400)
    after = [segment(50, (ROOM, ROOM), layer=1, **weights), segment(100, (ROOM, ROOM), layer=2, **weights)]
    cut = root([segment(1000, (300, 300)), *after])
    assert (cut.latency, cut.prefetched) == (1000 + 100 + 100, ((1, 1), (2, 1)))
    roomy = root([segment(1000, (400, 400)), *after])
    assert (roomy.latency, roomy.prefetched) == (1000 + 50 + 100, ((1, 1), (2, 2)))


def test_the_root_chain_prices_the_room_as_the_root():
    """`RootChain` (the search's incremental root), whole and resumed after one segment,
    values the trees above as `root` prices them."""
    weights = dict(holds=(200, 200), nbytes=6400)
    lists = [
        [segment(1000, (100, ROOM)), segment(10, (ROOM, ROOM)), segment(100, (ROOM, ROOM), layer=2, **weights)],
        [
            segment(1000, (300, 300)),
            segment(50, (ROOM, ROOM), layer=1, **weights),
            segment(100, (ROOM, ROOM), layer=2, **weights),
        ],
    ]
    edp = objective("edp")
    for costs, other in zip(lists, lists[::-1], strict=True):
        whole = root(costs)
        assert RootChain.of(costs, TARGET).value(edp, TARGET) == edp(whole.energy(TARGET), whole.latency)
        mixed = other[:1] + costs[1:]
        resumed = RootChain.of(mixed, TARGET, RootChain.of(other, TARGET))
        priced = root(mixed)
        assert resumed.value(edp, TARGET) == edp(priced.energy(TARGET), priced.latency)


def charged(layer, steady, nbytes, modes, **fields):
    """A charged leaf of one slot of `steady` cycles and `nbytes` DRAM bytes, its slot in
    each mode (`NodeCost.modes`) the same in every run, with `fields`."""
    return attrs.evolve(
        child(steady, dram=nbytes),
        slots=np.array([float(steady)]),
        slot_dram=np.array([float(nbytes)]),
        head_layers=frozenset({layer}),
        modes=tuple((float(slot), float(slot)) for slot in modes),
        **fields,
    )


def reader(layer, steady, nbytes, early):
    """A charged leaf whose input boxes, `nbytes` from DRAM, take `steady − early` cycles of
    its slot (`early`: the slot once the slot before has loaded them)."""
    return charged(layer, steady, nbytes, (steady, early), input_dram=float(nbytes))


def test_input_boxes_load_beside_the_slot_before_where_dma_overlaps_compute():
    """b's 6,400 B of input (100 cycles at 64 B/cycle) load beside a's 1,000 cycles, which
    have no DRAM bytes: each subbatch 1,000 + 50 instead of 1,000 + 150, the bytes moved to
    a's slot; in order, or where the slot before is DRAM-bound (a's own 6,400 B: 100 → 200
    cycles for b's 100 saved), they stay in b's slot."""
    a, b = child(1000), reader(1, 150, 6400, 50)
    assert t_cut([a, b], 2, IN_ORDER).latency == 2300
    cut = t_cut([a, b], 2, TARGET)
    assert (cut.latency, cut.early_inputs) == (2100, ((1, 1),))
    assert [values.tolist() for values in cut.profile()] == [[1000, 50, 1000, 50], [6400, 0, 6400, 0]]
    bound = t_cut([child(100, dram=6400), b], 2, TARGET)
    assert (bound.latency, bound.early_inputs) == (500, ())


def test_a_segment_s_first_leaf_loads_its_inputs_in_the_last_slot_of_the_subbatch_before():
    """With `wrap` (a segment's T-cut), the first leaf's inputs of subbatches 2 and 3 load
    beside the 1,000 cycles of the last slot of the subbatch before; the first subbatch's
    load in its own slot (150), the last subbatch's last slot loads nothing: 150 + 1,000 +
    2 × (50 + 1,000) = 3,250, not 3 × 1,150. Without `wrap` (a T-cut inside a segment) it
    stays in place."""
    cut = t_cut([reader(0, 150, 6400, 50), child(1000)], 3, TARGET, wrap=True)
    assert (cut.latency, cut.early_inputs) == (3250, ((0, 1),))
    assert [values.tolist() for values in cut.profile()] == [
        [150, 1000, 50, 1000, 50, 1000],
        [6400, 6400, 0, 6400, 0, 0],
    ]
    inner = t_cut([reader(0, 150, 6400, 50), child(1000)], 3, TARGET)
    assert (inner.latency, inner.early_inputs) == (3450, ())


def test_input_boxes_load_in_the_nearest_slot_of_the_prefetch_depth_that_has_room():
    """c's 6,400 B of input (100 cycles) would lengthen b's DRAM-bound slot (6,400 B of its
    own: 100 → 200 cycles) by what it saves; a's 1,000 cycles two slots before have room:
    each subbatch 1,000 + 100 + 50 instead of 1,000 + 100 + 150, the bytes in a's slot, and
    c's input held beside a and b (buf: a's 100 + c's 300 on core 0, above b's 50 + 300).
    Of two slots with room the nearer takes them (a then a2: k = 2, not 3)."""
    a, b = child(1000, buf=(100, 0)), child(100, dram=6400, buf=(50, 0))
    c = attrs.evolve(reader(2, 150, 6400, 50), ifm=np.array([300.0, 40.0]))
    cut = t_cut([a, b, c], 2, TARGET)
    assert (cut.latency, cut.early_inputs) == (2300, ((2, 2),))
    assert [values.tolist() for values in cut.profile()] == [[1000, 100, 50] * 2, [6400, 6400, 0] * 2]
    assert cut.buf.tolist() == [400, 40]
    assert t_cut([a, b, c], 2, IN_ORDER).latency == 2500
    nearer = t_cut([a, child(1000), b, c], 1, TARGET)
    assert (nearer.latency, nearer.early_inputs) == (2150, ((2, 2),))


def test_a_segment_s_first_leaf_loads_its_inputs_in_a_slot_of_the_subbatch_before_with_room():
    """With `wrap`, the first leaf's inputs of subbatches 2 and 3 load beside the 1,000
    cycles two slots before the next subbatch, not in the DRAM-bound last slot (100 cycles
    of 6,400 B): 150 + 1,000 + 100 + 2 × (50 + 1,000 + 100) = 3,550, not 3 × 1,250."""
    first = attrs.evolve(reader(0, 150, 6400, 50), ifm=np.array([300.0, 0.0]))
    cut = t_cut([first, child(1000, buf=(100, 0)), child(100, dram=6400)], 3, TARGET, wrap=True)
    assert (cut.latency, cut.early_inputs) == (3550, ((0, 2),))
    assert [values.tolist() for values in cut.profile()] == [
        [150, 1000, 100, 50, 1000, 100, 50, 1000, 100],
        [6400, 6400, 6400, 0, 6400, 6400, 0, 0, 6400],
    ]
    assert cut.buf.tolist() == [400, 0]


def writer(layer, steady, nbytes, late, result=(0, 0)):
    """A charged leaf whose output store, `nbytes` to DRAM, takes `steady − late` cycles of
    its slot (`late`: the slot once the next slot stores it), its result `result` B per core."""
    modes = (steady, steady, late, late)
    return charged(layer, steady, nbytes, modes, store_dram=float(nbytes), result=np.array(result, dtype=float))


def test_a_result_is_stored_beside_the_next_slot_s_compute_in_a_segment():
    """With `wrap` (a segment's T-cut), a's 6,400 B store (100 cycles) runs beside b's 1,000
    cycles, which have no DRAM bytes: each subbatch 50 + 1,000 instead of 150 + 1,000, the
    bytes in b's slot, and a's result (64 B on core 0) held beside b's buffers (100 B). Not
    inside a segment (no `wrap`), in order, or where the next slot is DRAM-bound (6,400 B of
    its own: 100 → 200 cycles for the 100 saved) and the last of the segment."""
    a, b = writer(0, 150, 6400, 50, result=(64, 0)), child(1000, buf=(100, 0))
    cut = t_cut([a, b], 2, TARGET, wrap=True)
    assert (cut.latency, cut.late_stores) == (2100, ((0, 1),))
    assert [values.tolist() for values in cut.profile()] == [[50, 1000, 50, 1000], [0, 6400, 0, 6400]]
    assert cut.buf.tolist() == [164, 0]
    assert (t_cut([a, b], 2, TARGET).latency, t_cut([a, b], 2, TARGET).late_stores) == (2300, ())
    assert t_cut([a, b], 2, IN_ORDER, wrap=True).latency == 2300
    bound = t_cut([a, child(100, dram=6400)], 1, TARGET, wrap=True)
    assert (bound.latency, bound.late_stores) == (250, ())


def test_a_result_is_stored_k_slots_late_beside_the_nearest_slot_with_room():
    """Where the next slot is DRAM-bound (c: 100 cycles of 6,400 B, 200 with a's), a's
    store (6,400 B, 100 cycles) runs two slots late, beside d's 1,000 cycles: 50 + 100 +
    1,000 = 1,150, not 1,250 (as with stores at most one slot late, `late=1`), a's result
    (64 B) held beside c's buffers (30 B) and d's (100 B). Over two subbatches of a and c,
    subbatch 1's store runs beside subbatch 2's a (150 → 200 cycles for the 100 saved),
    the last subbatch's in its own slot: 50 + 100 + 200 + 100 = 450, not 500, its result
    held beside c's buffers and the next a's (30 + 64 B)."""
    a = writer(0, 150, 6400, 50, result=(64, 0))
    c, d = child(100, dram=6400, buf=(30, 0)), child(1000, buf=(100, 0))
    cut = t_cut([a, c, d], 1, TARGET, wrap=True)
    assert (cut.latency, cut.late_stores) == (1150, ((0, 2),))
    assert [values.tolist() for values in cut.profile()] == [[50, 100, 1000], [0, 6400, 6400]]
    assert cut.buf.tolist() == [164, 0]
    nearer = t_cut([a, c, d], 1, TARGET, wrap=True, late=1)
    assert (nearer.latency, nearer.late_stores) == (1250, ())
    pair = t_cut([a, c], 2, TARGET, wrap=True)
    assert (pair.latency, pair.late_stores) == (450, ((0, 2),))
    assert [values.tolist() for values in pair.profile()] == [[50, 100, 200, 100], [0, 6400, 12800, 6400]]
    assert pair.buf.tolist() == [94, 0]


def test_a_segment_s_last_leaf_stores_beside_the_next_subbatch_s_first_slot():
    """The last leaf's store runs beside the next subbatch's first slot (1,000 cycles), in
    every subbatch but the last, whose next slot is another segment's: 1,000 + 50 twice,
    then 1,000 + 150 = 3,250, not 3 × 1,150; its result held beside the first leaf's
    buffers (100 + 64 B)."""
    cut = t_cut([child(1000, buf=(100, 0)), writer(1, 150, 6400, 50, result=(64, 0))], 3, TARGET, wrap=True)
    assert (cut.latency, cut.late_stores) == (3250, ((1, 1),))
    assert [values.tolist() for values in cut.profile()] == [
        [1000, 50, 1000, 50, 1000, 150],
        [0, 0, 6400, 0, 6400, 6400],
    ]
    assert cut.buf.tolist() == [164, 0]
    single = t_cut([child(1000), writer(1, 150, 6400, 50)], 1, TARGET, wrap=True)
    assert (single.latency, single.late_stores) == (1150, ())
