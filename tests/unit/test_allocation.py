"""Tests for the local-memory rectangle allocator and its checker."""

import random
from collections.abc import Hashable, Iterable

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stc.compiler.memory.allocation import allocate, fits
from stc.compiler.memory.banks import bank_gaps, packs_in_banks
from stc.compiler.memory.rectangles import AllocationError, Memory, Request, check_allocation, peak_live_bytes, windows

TIANJICX = Memory(143360, (65536, 65536, 16384))


def request(
    key: str, size: int, start: int, end: int, alignment: int = 1, apart_from: Iterable[Hashable] = ()
) -> Request:
    return Request(key, size, alignment, start, end, f"{key} ({size} B)", frozenset(apart_from))


def peak_address(requests: list[Request], addresses: dict[Hashable, int]) -> int:
    return max(addresses[r.key] + r.size for r in requests)


def allocation_or_error(requests: list[Request], memory: Memory) -> dict[Hashable, int] | AllocationError:
    try:
        return allocate(requests, memory)
    except AllocationError as e:
        return e


def bank_of(memory: Memory, address: int) -> int:
    return next(i for i, (low, high) in enumerate(memory.bank_ranges) if low <= address < high)


# --- hand-made cases ---


def test_requests_whose_lifetimes_do_not_intersect_share_addresses():
    requests = [request("a", 100, 0, 1), request("b", 100, 2, 3)]
    assert allocate(requests, Memory(100)) == {"a": 0, "b": 0}


def test_live_requests_fit_exactly_side_by_side():
    requests = [request("a", 100, 0, 2), request("b", 50, 1, 1), request("c", 150, 2, 3), request("d", 50, 0, 0)]
    memory = Memory(250)
    assert peak_live_bytes(requests) == 250
    addresses = allocate(requests, memory)
    check_allocation(requests, addresses, memory)
    assert peak_address(requests, addresses) == 250


def test_addresses_are_multiples_of_the_alignment():
    requests = [request("a", 100, 0, 0), request("b", 64, 0, 0, alignment=64)]
    addresses = allocate(requests, Memory(192))
    assert addresses in ({"a": 64, "b": 0}, {"a": 0, "b": 128})
    assert allocate(requests, Memory(512, (256, 256))) == {"a": 0, "b": 128}


def test_a_request_that_fits_in_a_bank_does_not_cross_a_bank_boundary():
    memory = Memory(1024, (512, 512))
    requests = [request("a", 300, 0, 1), request("b", 300, 0, 0)]
    assert allocate(requests, memory) == {"a": 0, "b": 512}


def test_a_request_larger_than_the_smallest_bank_crosses_only_when_nothing_else_fits():
    memory = Memory(1024, (512, 256, 256))
    assert memory.smallest_bank == 256
    # y would fit in bank 0 or 1 alone, but x leaves no room there: it crosses into bank 1.
    requests = [request("x", 400, 0, 1), request("y", 400, 0, 0), request("z", 200, 0, 0)]
    addresses = allocate(requests, memory)
    assert addresses == {"x": 0, "y": 400, "z": 800}
    check_allocation(requests, addresses, memory)
    # With room, it stays in one bank.
    assert allocate(requests[1:], memory) == {"y": 0, "z": 512}


def test_a_request_larger_than_every_bank_may_cross_them():
    memory = Memory(1024, (512, 512))
    requests = [request("big", 600, 0, 0), request("small", 300, 0, 0)]
    addresses = allocate(requests, memory)
    assert addresses == {"big": 0, "small": 600}
    check_allocation(requests, addresses, memory)


def test_memory_past_the_last_bank_is_one_more_bank():
    memory = Memory(100, (48, 48))
    assert memory.bank_ranges == ((0, 48), (48, 96), (96, 100))
    assert allocate([request("a", 48, 0, 0), request("b", 48, 0, 0), request("c", 4, 0, 0)], memory) == {
        "a": 0,
        "b": 48,
        "c": 96,
    }
    assert Memory(0).bank_ranges == ((0, 0),)
    with pytest.raises(AllocationError, match="at time 0: 8 B live > 0 B usable"):
        allocate([request("a", 8, 0, 0)], Memory(0))


def test_the_reserved_top_clips_the_last_bank():
    assert TIANJICX.bank_ranges == ((0, 65536), (65536, 131072), (131072, 143360))
    assert TIANJICX.largest_bank == 65536
    requests = [request("a", 65536, 0, 0), request("b", 65536, 0, 0), request("c", 12288, 0, 0)]
    assert allocate(requests, TIANJICX) == {"a": 0, "b": 65536, "c": 131072}


@pytest.mark.parametrize("named_on", ["input", "output"])
def test_apart_from_puts_a_blocks_input_and_output_in_different_banks(named_on: str):
    memory = Memory(1024, (512, 512))
    tile_in = request("in", 256, 0, 1, apart_from=["out"] if named_on == "input" else [])
    tile_out = request("out", 256, 1, 1, apart_from=["in"] if named_on == "output" else [])
    assert allocate([tile_in, tile_out], memory) == {"in": 0, "out": 512}
    assert allocate([request("in", 256, 0, 1), request("out", 256, 1, 1)], memory) == {"in": 0, "out": 256}


def test_apart_from_gives_way_when_only_one_bank_has_room():
    memory = Memory(1024, (512, 512))
    requests = [request("weight", 512, 0, 2), request("in", 256, 1, 1, apart_from=["out"]), request("out", 256, 1, 1)]
    addresses = allocate(requests, memory)
    check_allocation(requests, addresses, memory)
    assert bank_of(memory, addresses["in"]) == bank_of(memory, addresses["out"]) == 1


def test_apart_from_keys_that_name_no_request_are_ignored():
    assert allocate([request("a", 8, 0, 0, apart_from=["elsewhere"])], Memory(16, (8, 8))) == {"a": 0}


def test_the_seed_order_puts_long_lived_requests_first():
    # Seed 004: the weight resident over every slice is placed first, at the bottom.
    requests = [request(f"slice{t}", 1000, t, t) for t in range(4)] + [request("weight", 200, 0, 3)]
    addresses = allocate(requests, Memory(1200))
    assert addresses["weight"] == 0
    assert {addresses[f"slice{t}"] for t in range(4)} == {200}


def test_no_requests_need_no_memory():
    assert allocate([], Memory(16)) == {}
    assert peak_live_bytes([]) == 0


def test_allocation_is_deterministic():
    rng = random.Random(3)
    requests = [request(str(i), rng.randint(1, 500), t, t + rng.randint(0, 3), 16) for i, t in enumerate(range(60))]
    memory = Memory(peak_live_bytes(requests) * 2)
    assert allocate(requests, memory) == allocate(requests, memory)


def test_thousands_of_requests_are_allocated():
    # Sizes uniform in 64 B to 16 KB, harder to pack than a network's (see the 5 % property below).
    rng = random.Random(0)
    requests = []
    for i in range(2000):
        start = rng.randrange(200)
        size = 16 * rng.randint(4, 1024)
        requests.append(request(str(i), size, start, min(199, start + rng.randint(0, 7)), alignment=16))
    memory = Memory(2 * peak_live_bytes(requests))
    addresses = allocate(requests, memory)
    check_allocation(requests, addresses, memory)
    assert peak_address(requests, addresses) <= 1.1 * peak_live_bytes(requests)


# --- errors ---


def test_too_many_live_bytes_name_the_time_and_the_largest_live_requests():
    requests = [
        Request(12, 73728, 32, 5, 9, "block 12 (task.weight, 73728 B)"),
        Request(9, 65536, 16, 7, 7, "block 9 (task.buffer, 65536 B)"),
        *[Request(k, 1024 * k, 16, 6, 8, f"block {k} (task.buffer, {1024 * k} B)") for k in (1, 2, 3, 4)],
        Request(20, 4096, 16, 0, 4, "block 20 (task.buffer, 4096 B)"),
    ]
    with pytest.raises(AllocationError) as info:
        allocate(requests, TIANJICX)
    error = info.value
    assert (error.time, error.needed, error.usable, error.unplaced) == (7, 149504, 143360, None)
    assert [r.key for r in error.live] == [12, 9, 4, 3, 2, 1]
    assert str(error) == (
        "at time 7: 149504 B live > 143360 B usable: block 12 (task.weight, 73728 B), "
        "block 9 (task.buffer, 65536 B), block 4 (task.buffer, 4096 B), block 3 (task.buffer, 3072 B), "
        "... (+2 more)"
    )


def test_live_bytes_that_fit_but_cannot_be_placed_are_fragmentation():
    # Four 60 B tiles fit in 300 B, but each 100 B bank holds only one.
    requests = [request(name, 60, 0, 0) for name in "abcd"]
    with pytest.raises(AllocationError) as info:
        allocate(requests, Memory(300, (100, 100, 100)))
    error = info.value
    assert (error.time, error.needed, error.usable, error.unplaced) == (0, 240, 300, requests[3])
    assert str(error) == (
        "at time 0: fragmentation: 240 B live fit in 300 B usable but no free address range is left "
        "for d (60 B): a (60 B), b (60 B), c (60 B), d (60 B)"
    )


def test_a_request_larger_than_the_memory_is_an_error():
    with pytest.raises(AllocationError, match=r"at time 3: 200 B live > 100 B usable: a \(200 B\)"):
        allocate([request("a", 200, 3, 4)], Memory(100))


def test_bad_requests_and_memories_are_rejected():
    with pytest.raises(ValueError, match="size must be positive, not 0"):
        request("a", 0, 0, 0)
    with pytest.raises(ValueError, match="alignment must be positive, not 0"):
        request("a", 8, 0, 0, alignment=0)
    with pytest.raises(ValueError, match=r"a \(8 B\): end 1 is before start 2"):
        request("a", 8, 2, 1)
    with pytest.raises(ValueError, match="'capacity' must be >= 0: -1"):
        Memory(-1)
    with pytest.raises(ValueError, match=r"bank sizes must be positive: \(64, 0\)"):
        Memory(128, (64, 0))
    with pytest.raises(ValueError, match="the same key 'a'"):
        allocate([request("a", 8, 0, 0), request("a", 8, 1, 1)], Memory(16))


# --- the checker, on hand-broken allocations ---

CHECKED = [request("a", 64, 0, 1, alignment=32), request("b", 64, 1, 2, alignment=32), request("c", 32, 2, 2)]
CHECKED_MEMORY = Memory(256, (128, 128))


def test_the_checker_accepts_a_valid_allocation():
    check_allocation(CHECKED, {"a": 0, "b": 64, "c": 0}, CHECKED_MEMORY)


@pytest.mark.parametrize(
    ("addresses", "message"),
    [
        ({"a": 0, "b": 64}, r"c \(32 B\) has no address"),
        ({"a": 0, "b": 64, "c": 240}, r"c \(32 B\) at \[240, 272\) is outside \[0, 256\)"),
        ({"a": -32, "b": 64, "c": 0}, r"a \(64 B\) at \[-32, 32\) is outside \[0, 256\)"),
        ({"a": 0, "b": 80, "c": 0}, r"b \(64 B\) at 80 is not a multiple of its alignment 32"),
        ({"a": 0, "b": 96, "c": 0}, r"b \(64 B\) at \[96, 160\) crosses a bank boundary"),
        ({"a": 0, "b": 32, "c": 0}, r"at time 1, a \(64 B\) \[0, 64\) and b \(64 B\) \[32, 96\) overlap"),
        ({"a": 0, "b": 64, "c": 96}, r"at time 2, b \(64 B\) \[64, 128\) and c \(32 B\) \[96, 128\) overlap"),
    ],
)
def test_the_checker_rejects_each_broken_rule(addresses: dict[Hashable, int], message: str):
    with pytest.raises(ValueError, match=message):
        check_allocation(CHECKED, addresses, CHECKED_MEMORY)


def test_the_checker_lets_regions_share_addresses_only_at_different_times():
    requests = [request("a", 100, 0, 1), request("b", 100, 2, 3), request("c", 10, 3, 4)]
    check_allocation(requests, {"a": 0, "b": 0, "c": 100}, Memory(128))
    with pytest.raises(ValueError, match=r"at time 3, b \(100 B\) \[0, 100\) and c \(10 B\) \[90, 100\) overlap"):
        check_allocation(requests, {"a": 0, "b": 0, "c": 90}, Memory(128))


# --- properties ---


@st.composite
def random_problems(draw: st.DrawFn) -> tuple[list[Request], Memory]:
    """Up to 25 requests of 1 to 300 B, alignments 1 to 64, live 1 to 6 of 12 time steps, a
    few asked to be apart; a memory 0.9 to 2 times the peak live bytes, in 1 to 4 banks."""
    count = draw(st.integers(1, 25))
    requests: list[Request] = []
    for i in range(count):
        start = draw(st.integers(0, 11))
        apart = draw(st.lists(st.integers(0, count - 1), max_size=2))
        requests.append(
            Request(
                i,
                draw(st.integers(1, 300)),
                draw(st.sampled_from((1, 2, 4, 16, 64))),
                start,
                start + draw(st.integers(0, 5)),
                f"r{i}",
                frozenset(apart),
            )
        )
    capacity = max(1, int(peak_live_bytes(requests) * draw(st.floats(0.9, 2.0))))
    bank_count = draw(st.integers(1, 4))
    return requests, Memory(capacity, (-(-capacity // bank_count),) * bank_count)


@settings(max_examples=150, deadline=None)
@given(random_problems())
def test_an_allocation_passes_the_checker_or_the_error_gives_its_reason(problem: tuple[list[Request], Memory]):
    requests, memory = problem
    result = allocation_or_error(requests, memory)
    if isinstance(result, dict):
        check_allocation(requests, result, memory)
        return
    assert result.usable == memory.capacity
    assert result.needed == sum(r.size for r in result.live)
    assert all(r.is_live_at(result.time) for r in result.live)
    assert [r.size for r in result.live] == sorted((r.size for r in result.live), reverse=True)
    if result.unplaced is None:
        assert result.needed > memory.capacity
    else:
        assert result.needed <= memory.capacity
        assert result.unplaced in result.live


@settings(max_examples=100, deadline=None)
@given(random_problems(), st.integers(3, 4))
def test_a_roomy_memory_always_allocates_and_keeps_partners_apart(
    problem: tuple[list[Request], Memory], bank_count: int
):
    # A chain of tiles, each apart from the next, like the inputs and outputs of a chain of blocks.
    requests = [attrs.evolve(r, apart_from=frozenset({i + 1})) for i, r in enumerate(problem[0])]
    bank = sum(r.size + r.alignment for r in requests)
    memory = Memory(bank * bank_count, (bank,) * bank_count)
    addresses = allocate(requests, memory)
    check_allocation(requests, addresses, memory)
    for r in requests:
        for key in r.apart_from & addresses.keys():
            assert bank_of(memory, addresses[r.key]) != bank_of(memory, addresses[key]), (r.key, key)


@st.composite
def network_workloads(draw: st.DrawFn) -> list[Request]:
    """One core's chain of compute blocks, one per time step (2 to 40 steps). Each block
    writes an activation tile of 1 to 64 KB in 16 B rows, read by the next block or, one
    time in five, by a block 2 to 6 steps on (a skip connection); three times in ten it
    has int32 partial sums of 128 B to 8 KB (128 B aligned) for its step only; seven
    times in ten a weight of 256 B to 16 KB (32 B aligned) and a bias of 16 B to 1 KB,
    loaded one step ahead and freed after the block, or, when the layer group is sliced,
    resident to the end."""
    steps = draw(st.integers(2, 40))
    resident = draw(st.booleans())
    rng = draw(st.randoms(use_true_random=False))
    requests: list[Request] = []

    def add(size: int, alignment: int, start: int, end: int) -> None:
        key = len(requests)
        requests.append(Request(key, size, alignment, start, min(end, steps - 1), f"{key} ({size} B)"))

    add(16 * rng.randint(64, 4096), 16, 0, 0)
    for step in range(steps):
        reader = step + 1 if rng.random() < 0.8 else step + rng.randint(2, 6)
        add(16 * rng.randint(64, 4096), 16, step, reader)
        if rng.random() < 0.3:
            add(128 * rng.randint(1, 64), 128, step, step)
        if rng.random() < 0.7:
            last = steps - 1 if resident else step
            add(32 * rng.randint(8, 512), 32, max(0, step - 1), last)
            add(16 * rng.randint(1, 64), 16, max(0, step - 1), last)
    return requests


# Derandomized, so it guards against regressions without flaking: on truly random draws of
# this distribution about 1 % of the workloads, all with resident weights, end 5 to 13 %
# above the bound, which may be their optimum (docs/passes/st-lmem-alloc.md).
@settings(max_examples=60, deadline=None, derandomize=True)
@given(network_workloads())
def test_the_peak_address_is_within_5_percent_of_the_peak_live_bytes(requests: list[Request]):
    bound = peak_live_bytes(requests)
    memory = Memory(2 * bound)
    addresses = allocate(requests, memory)
    check_allocation(requests, addresses, memory)
    assert peak_address(requests, addresses) <= 1.05 * bound


@settings(max_examples=60, deadline=None)
@given(network_workloads(), st.data())
def test_the_checker_rejects_a_region_moved_onto_a_live_neighbour(requests: list[Request], data: st.DataObject):
    memory = Memory(4 * peak_live_bytes(requests))
    addresses = allocate(requests, memory)
    pairs = [(a, b) for a in requests for b in requests if a.key < b.key and a.start <= b.end and b.start <= a.end]
    moved, onto = data.draw(st.sampled_from(pairs))
    broken = addresses | {moved.key: addresses[onto.key] - addresses[onto.key] % moved.alignment}
    with pytest.raises(ValueError, match="overlap") as info:
        check_allocation(requests, broken, memory)
    assert moved.label in str(info.value)


def test_packs_in_banks_counts_banks_not_only_bytes():
    aie = Memory(65536, (16384,) * 4)
    assert not packs_in_banks([14336] * 4 + [3584], aie)  # 61,440 B, but five tiles for four banks
    assert packs_in_banks([14336] * 4 + [2048] * 4, aie)
    assert not packs_in_banks([16384] * 4 + [16], aie)  # more bytes than the memory
    tianjicx = Memory(143360, (65536, 65536, 16384))  # 12,288 B usable in MEM2
    assert packs_in_banks([100000, 20000, 12000], tianjicx)  # the large regions cross from 0
    assert not packs_in_banks([110000, 15000, 15000], tianjicx)  # 21,072 and 12,288 B left: one 15,000 B fits
    assert packs_in_banks([], Memory(0))


@settings(max_examples=100, deadline=None)
@given(random_problems())
def test_what_packs_in_banks_the_allocator_places_at_one_time(problem: tuple[list[Request], Memory]):
    """packs_in_banks is a sufficient test: regions it packs, all live at once, allocate."""
    requests, memory = problem
    sizes = [r.size for r in requests]
    if not packs_in_banks(sizes, memory):
        return
    together = [Request(r.key, r.size, 1, 0, 0, r.label) for r in requests]
    check_allocation(together, allocate(together, memory), memory)


@settings(max_examples=60, deadline=None)
@given(random_problems(), random_problems())
def test_parts_that_are_never_live_together_are_placed_one_by_one(
    first: tuple[list[Request], Memory], second: tuple[list[Request], Memory]
):
    """Two problems one after the other in time, in the first's memory: two windows, and
    they fit together exactly where each fits alone (each window is placed on its own,
    with its own strategies and squeaky-wheel rounds); where they do, the checker passes."""
    memory = first[1]
    later = 1 + max(r.end for r in first[0])
    moved = [
        attrs.evolve(r, key=("b", r.key), start=r.start + later, end=r.end + later, apart_from=frozenset())
        for r in second[0]
    ]
    separate = [attrs.evolve(r, apart_from=frozenset()) for r in first[0]]
    both = separate + moved
    assert len(windows(both)) >= 2
    assert sum(len(part) for part in windows(both)) == len(both)
    assert fits(both, memory) == (fits(separate, memory) and fits(moved, memory))
    if fits(both, memory):
        check_allocation(both, allocate(both, memory), memory)


def test_requests_kept_apart_across_a_cut_share_a_window():
    """a and b are never live together, but b is to be kept apart from a (a block's input
    and its result): one window, so the allocator can put them in different banks."""
    a, b = Request("a", 1, 1, 0, 0, "a"), Request("b", 1, 1, 1, 1, "b", apart_from=frozenset({"a"}))
    assert [[r.key for r in part] for part in windows([a, b])] == [["a", "b"]]
    assert [[r.key for r in part] for part in windows([a, attrs.evolve(b, apart_from=frozenset())])] == [["a"], ["b"]]


def test_bank_gaps_count_the_room_long_held_regions_leave_in_their_banks():
    """Four 64 KB banks. Four 36 KB weights and four 128 B biases: each weight alone in a
    bank (two do not fit one), the biases in the first: 28,160 + 3 x 28,672 B left, all but
    the emptiest bank's counted: 85,504 B. Four 32 KB weights pair up in two banks, the
    biases open a third: no gap but that one. Five 36 KB weights do not pack: the whole
    memory."""
    memory = Memory(262144, (65536,) * 4)
    assert bank_gaps([36864] * 4 + [128] * 4, memory) == 28160 + 2 * 28672
    assert bank_gaps([32768] * 4 + [128] * 4, memory) == 0
    assert bank_gaps([36864] * 5, memory) == 262144
    assert bank_gaps([36864] * 4, Memory(262144)) == 0  # one bank: no walls
    assert bank_gaps([131072, 36864, 36864], memory) == 28672  # two banks crossed, a weight in each other
