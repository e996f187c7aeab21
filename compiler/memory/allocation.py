"""Local-memory addresses for regions with known lifetimes: a rectangle allocator.

Each request is a rectangle: `size` bytes at an address the allocator chooses, times the
lifetime `[start, end]` of time indices it is given. The rectangles may only move along
addresses (seed 004); two whose lifetimes intersect must not overlap. Requests are placed
one by one in a strategy's order, each at the best address that is free over its whole
lifetime. The first strategy is the seed's (longer lifetime first, then larger size, best
fit); the others, then squeaky-wheel rounds, are tried only when it fails or, in a memory
of one bank, ends more than 3 % above the lower bound, `peak_live_bytes`.

    >>> memory = Memory(capacity=1024, banks=(512, 512))
    >>> x = Request("x", 256, 16, 0, 1, "x")
    >>> allocate([x, Request("y", 256, 16, 1, 1, "y")], memory)
    {'x': 0, 'y': 256}
    >>> allocate([x, Request("y", 256, 16, 1, 1, "y", apart_from=frozenset({"x"}))], memory)
    {'x': 0, 'y': 512}
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Literal

import attrs

from stc.dialects.st.local_memory import first_overlap

GOOD_ENOUGH = 1.03
"""In a memory of one bank, a placement whose peak address is within this factor of the
peak live bytes is kept without trying further. With several banks the peak address says
little (bank boundaries leave gaps, a small top bank such as TianjicX's MEM2 is worth
filling, and `apart_from` spreads requests over banks), so there the first complete
placement is kept."""

Fit = Literal["best", "first"]
Crossing = Literal["never", "avoided", "allowed"]

SHOWN_LIVE = 4
"""The live requests an error message names before counting the rest."""


def _positive(_instance: object, attribute: attrs.Attribute, value: int) -> None:
    if value <= 0:
        raise ValueError(f"{attribute.name} must be positive, not {value}")


@attrs.frozen
class Request:
    """A region of local memory, live from `start` to `end` inclusive.

    >>> Request("w3", size=4608, alignment=32, start=0, end=9, label="block 3 (task.weight, 4608 B)").is_live_at(9)
    True
    """

    key: Hashable
    """The caller's id for the region."""
    size: int = attrs.field(validator=_positive)
    """Bytes."""
    alignment: int = attrs.field(validator=_positive)
    """The address must be a multiple of it."""
    start: int
    """The first time index it is live."""
    end: int = attrs.field()
    """The last time index it is live."""
    label: str
    """How messages name it, e.g. "block 12 (task.weight, 4608 B)"."""
    apart_from: frozenset[Hashable] = frozenset()
    """Keys of requests it should preferably not share a bank with, e.g. a compute block's
    input and output tiles. Keys that name no request are ignored."""

    @end.validator
    def _check_end(self, _attribute: attrs.Attribute, end: int) -> None:
        if end < self.start:
            raise ValueError(f"{self.label}: end {end} is before start {self.start}")

    def is_live_at(self, time: int) -> bool:
        return self.start <= time <= self.end


@attrs.frozen
class Memory:
    """A core's local memory: addresses `[0, capacity)` in consecutive banks from address 0.

    The banks may add up to more than the capacity: the top is reserved (TianjicX's
    64 + 64 + 16 KB banks with 143,360 B usable). Memory past the last bank counts as one
    more bank; no banks means one bank.
    """

    capacity: int = attrs.field(validator=attrs.validators.ge(0))
    """Usable bytes."""
    banks: tuple[int, ...] = attrs.field(default=())
    """Sizes of consecutive banks from address 0."""

    @banks.validator
    def _check_banks(self, _attribute: attrs.Attribute, banks: tuple[int, ...]) -> None:
        if any(size <= 0 for size in banks):
            raise ValueError(f"bank sizes must be positive: {banks}")

    @property
    def bank_ranges(self) -> tuple[tuple[int, int], ...]:
        """The usable `[low, high)` address range of each bank, clipped to the capacity.

        >>> Memory(143360, (65536, 65536, 16384)).bank_ranges
        ((0, 65536), (65536, 131072), (131072, 143360))
        """
        ranges: list[tuple[int, int]] = []
        low = 0
        for size in self.banks:
            if low >= self.capacity:
                break
            ranges.append((low, min(low + size, self.capacity)))
            low += size
        if low < self.capacity:
            ranges.append((low, self.capacity))
        return tuple(ranges) or ((0, 0),)

    @property
    def largest_bank(self) -> int:
        """Bytes of the largest usable bank: a request up to this size fits in a bank."""
        return max(high - low for low, high in self.bank_ranges)

    @property
    def smallest_bank(self) -> int:
        """Bytes of the smallest bank, counted whole where the reserved top cuts it: a
        request up to this size fits in any bank.

        >>> Memory(143360, (65536, 65536, 16384)).smallest_bank
        16384
        """
        ranges = self.bank_ranges
        whole = [size for size, _ in zip(self.banks, ranges, strict=False)]
        return min(whole + [high - low for low, high in ranges[len(whole) :]])


class AllocationError(Exception):
    """No placement exists or none was found: at `time`, the requests `live` then (largest
    first) need `needed` bytes of the `usable` ones. `unplaced` is the request no strategy
    could place when the live bytes fit (fragmentation), else None."""

    def __init__(self, time: int, live: Sequence[Request], needed: int, usable: int, unplaced: Request | None = None):
        self.time = time
        self.live = tuple(live)
        self.needed = needed
        self.usable = usable
        self.unplaced = unplaced
        super().__init__(self._message())

    def _message(self) -> str:
        shown = ", ".join(request.label for request in self.live[:SHOWN_LIVE])
        if len(self.live) > SHOWN_LIVE:
            shown += f", ... (+{len(self.live) - SHOWN_LIVE} more)"
        if self.unplaced is None:
            return f"at time {self.time}: {self.needed} B live > {self.usable} B usable: {shown}"
        return (
            f"at time {self.time}: fragmentation: {self.needed} B live fit in {self.usable} B usable"
            f" but no free address range is left for {self.unplaced.label}: {shown}"
        )


@attrs.frozen
class Strategy:
    """An order to place requests in and how to choose among the free ranges: "best" fit
    (the range that leaves the least free space around the request) or "first" fit (the
    lowest address)."""

    name: str
    order: Callable[[Request], tuple[int, ...]]
    fit: Fit = attrs.field(validator=attrs.validators.in_(("best", "first")))


def _lifetime(request: Request) -> int:
    return request.end - request.start


STRATEGIES = (
    Strategy("lifetime-best-fit", lambda r: (-_lifetime(r), -r.size), "best"),
    Strategy("size-first-fit", lambda r: (-r.size, -_lifetime(r)), "first"),
    Strategy("area-best-fit", lambda r: (-r.size * (_lifetime(r) + 1), -r.size), "best"),
)
"""The strategies `allocate` tries in turn: seed 004's, TFLite's greedy by size, and the
largest rectangles (bytes x time) first."""

IMPROVEMENT_ROUNDS = 400
"""At most this many squeaky-wheel rounds follow the strategies..."""

IMPROVEMENT_WORK = 1_000_000
"""...and they look at most this many requests and pairs of conflicting requests in all (a
round looks at each once): about 0.3 s of CPU, however large the problem."""


@attrs.frozen
class Placement:
    """Requests placed one by one in `order` (indices into the requests) with a fit rule:
    an address for each, up to the first request that found no free range (`unplaced`)."""

    order: tuple[int, ...]
    fit: Fit
    addresses: dict[Hashable, int]
    unplaced: int | None
    peak: int
    """The highest address used plus one: the memory the placed requests need."""

    @property
    def complete(self) -> bool:
        return self.unplaced is None

    @property
    def rank(self) -> tuple[int, int]:
        """Lower is better: complete placements by peak, then the others by requests placed."""
        return (0, self.peak) if self.complete else (1, -len(self.addresses))


def allocate(requests: Sequence[Request], memory: Memory) -> dict[Hashable, int]:
    """An address for every request such that no two requests whose lifetimes intersect
    overlap, every region lies in `[0, capacity)` at a multiple of its alignment, and a
    request that fits in any bank (up to `memory.smallest_bank`) never crosses a bank
    boundary. Preferably, where room allows: a larger request that fits in some bank does
    not cross one either, and requests named in each other's `apart_from` are in different
    banks. Deterministic. Raises AllocationError when no placement is found.

    >>> allocate([Request("a", 100, 64, 0, 0, "a"), Request("b", 100, 64, 0, 0, "b")], Memory(256))
    {'a': 0, 'b': 128}
    """
    _check_keys(requests)
    if peak_live_bytes(requests) > memory.capacity:
        raise _overflow_error(requests, memory)
    placement = _ladder_placement(requests, memory)
    if placement.unplaced is not None:
        raise _fragmentation_error(requests, memory, requests[placement.unplaced])
    return {r.key: placement.addresses[r.key] for r in requests}


def fits(requests: Sequence[Request], memory: Memory) -> bool:
    """Whether `allocate` finds addresses for the requests, without building its error
    (here 200 B fit in 210, but b cannot start below 128, aligned to 64).

    >>> fits([Request("a", 100, 64, 0, 0, "a"), Request("b", 100, 64, 0, 0, "b")], Memory(210))
    False
    """
    _check_keys(requests)
    return peak_live_bytes(requests) <= memory.capacity and _ladder_placement(requests, memory).complete


def _ladder_placement(requests: Sequence[Request], memory: Memory) -> Placement:
    """The first complete placement from the most constrained rules to the least: partners
    in different banks, then a request that fits in some bank kept in one, then (seed 004
    only prefers regions not to cross banks) preferably kept in one, then free to cross.
    The strategies try each in turn; the last also gets the squeaky-wheel rounds."""
    ladder: list[tuple[Crossing, bool]] = []
    if len(memory.bank_ranges) > 1 and any(r.apart_from for r in requests):
        ladder.append(("never", True))
    ladder.append(("never", False))
    if memory.smallest_bank < memory.largest_bank:
        ladder += [("avoided", False), ("allowed", False)]
    for crossing, apart in ladder[:-1]:
        placement = _strategies_placement(_Packer(requests, memory, crossing, apart))
        if placement.complete:
            return placement
    return _best_placement(_Packer(requests, memory, *ladder[-1]))


def _strategies_placement(packer: _Packer) -> Placement:
    """The first strategy's placement that is good enough, else the best of them."""
    best: Placement | None = None
    for strategy in STRATEGIES:
        placement = packer.place(strategy)
        if best is None or placement.rank < best.rank:
            best = placement
        if packer.good_enough(best):
            break
    assert best is not None
    return best


def _best_placement(packer: _Packer) -> Placement:
    """The strategies' placement, improved by squeaky-wheel rounds when it is not good enough."""
    placement = _strategies_placement(packer)
    return placement if packer.good_enough(placement) else packer.improve(placement)


def place(requests: Sequence[Request], memory: Memory, strategy: Strategy) -> Placement:
    """The placement one strategy finds on its own, honouring `apart_from`.

    >>> place([Request("a", 8, 1, 0, 0, "a")], Memory(8), STRATEGIES[0]).addresses
    {'a': 0}
    """
    _check_keys(requests)
    return _Packer(requests, memory, "never", apart=True).place(strategy)


class _Packer:
    """One allocation problem, prepared for placing its requests in many orders.

    Time is compressed to the distinct start times: two lifetimes intersect exactly when
    both are live at the later of their starts. `spans[i]` is request i's lifetime as
    indices into those start times.

    A request no larger than the smallest bank is always kept in one bank, one larger than
    every bank may always cross them; `crossing` says what the others may do.
    """

    def __init__(self, requests: Sequence[Request], memory: Memory, crossing: Crossing, apart: bool):
        self.requests = requests
        self.memory = memory
        self.bound = peak_live_bytes(requests)
        starts = sorted({r.start for r in requests})
        self.times = len(starts)
        self.spans = [(bisect.bisect_left(starts, r.start), bisect.bisect_right(starts, r.end) - 1) for r in requests]
        self.round_work = len(requests) + _conflicting_pairs(self.spans, self.times)
        self.bank_lows = [low for low, _ in memory.bank_ranges]
        self.largest_bank = memory.largest_bank
        self.in_one_bank = memory.largest_bank if crossing == "never" else memory.smallest_bank
        self.prefer_one_bank = crossing == "avoided"
        self.partners: list[set[int]] = [set() for _ in requests]
        if apart and len(self.bank_lows) > 1:
            index_of = {r.key: i for i, r in enumerate(requests)}
            for i, r in enumerate(requests):
                for j in (index_of[key] for key in r.apart_from if key in index_of and index_of[key] != i):
                    self.partners[i].add(j)
                    self.partners[j].add(i)

    def place(self, strategy: Strategy) -> Placement:
        order = sorted(range(len(self.requests)), key=lambda i: (*strategy.order(self.requests[i]), i))
        return self.place_in_order(order, strategy.fit)

    def place_in_order(self, order: Sequence[int], fit: Fit) -> Placement:
        """Each request in turn at the best free range over its whole lifetime."""
        live_at: list[list[tuple[int, int]]] = [[] for _ in range(self.times)]
        starting_at: list[list[tuple[int, int]]] = [[] for _ in range(self.times)]
        addresses: dict[Hashable, int] = {}
        bank_spans: dict[int, tuple[int, int]] = {}
        peak = 0
        for i in order:
            request = self.requests[i]
            first, last = self.spans[i]
            occupied = live_at[first] + [interval for t in range(first + 1, last + 1) for interval in starting_at[t]]
            free = _free_ranges(occupied, self.memory.capacity)
            prefer_one_bank = False
            if request.size <= self.in_one_bank:
                free = _cut_at_walls(free, self.bank_lows)
            elif request.size <= self.largest_bank and self.prefer_one_bank:
                free = _cut_at_walls(free, self.bank_lows) + free
                prefer_one_bank = True
            avoid = [bank_spans[j] for j in self.partners[i] if j in bank_spans]
            address = _choose_address(request, free, fit, avoid, self.bank_lows, prefer_one_bank)
            if address is None:
                return Placement(tuple(order), fit, addresses, i, peak)
            addresses[request.key] = address
            interval = (address, address + request.size)
            peak = max(peak, interval[1])
            for t in range(first, last + 1):
                live_at[t].append(interval)
            starting_at[first].append(interval)
            if self.partners[i]:
                bank_spans[i] = (_bank_of(address, self.bank_lows), _bank_of(interval[1] - 1, self.bank_lows))
        return Placement(tuple(order), fit, addresses, None, peak)

    def good_enough(self, placement: Placement) -> bool:
        """Complete, and with one bank compact too (see `GOOD_ENOUGH`)."""
        if not placement.complete:
            return False
        return len(self.bank_lows) > 1 or placement.peak <= GOOD_ENOUGH * self.bound

    def improve(self, start: Placement) -> Placement:
        """Squeaky-wheel optimisation: the requests that end above the lower bound (and the
        one that found no room) move to a random earlier place in the order, and all are
        placed again; the best placement is kept. Seeded, so deterministic."""
        rng = random.Random(0)
        best = current = start
        rounds = min(IMPROVEMENT_ROUNDS, IMPROVEMENT_WORK // max(1, self.round_work))
        for _ in range(rounds):
            if self.good_enough(best):
                break
            squeaky = self.squeaky(current)
            position = {i: rng.randint(0, k) - 0.5 if i in squeaky else k for k, i in enumerate(current.order)}
            current = self.place_in_order(sorted(current.order, key=position.__getitem__), current.fit)
            if current.rank < best.rank:
                best = current
        return best

    def squeaky(self, placement: Placement) -> set[int]:
        """The requests that end above the lower bound, and the one that found no room."""
        above = {
            i
            for i, r in enumerate(self.requests)
            if r.key in placement.addresses and placement.addresses[r.key] + r.size > self.bound
        }
        return above if placement.unplaced is None else above | {placement.unplaced}


def _conflicting_pairs(spans: Sequence[tuple[int, int]], times: int) -> int:
    """How many pairs of lifetimes intersect: each pair is live at the later start."""
    starting = [0] * times
    ending = [0] * times
    for first, last in spans:
        starting[first] += 1
        ending[last] += 1
    pairs = live = 0
    for t in range(times):
        pairs += starting[t] * live + starting[t] * (starting[t] - 1) // 2
        live += starting[t] - ending[t]
    return pairs


def _free_ranges(occupied: list[tuple[int, int]], capacity: int) -> list[tuple[int, int]]:
    """The `[low, high)` ranges below `capacity` that no occupied interval touches."""
    free: list[tuple[int, int]] = []
    top = 0
    occupied.sort()
    occupied.append((capacity, capacity))
    for low, high in occupied:
        if low > top:
            free.append((top, low))
        if high > top:
            top = high
    return free


def _cut_at_walls(free: list[tuple[int, int]], walls: list[int]) -> list[tuple[int, int]]:
    """The ranges cut at the addresses in `walls` (sorted)."""
    pieces: list[tuple[int, int]] = []
    for low, high in free:
        for wall in walls[bisect.bisect_right(walls, low) : bisect.bisect_left(walls, high)]:
            pieces.append((low, wall))
            low = wall
        pieces.append((low, high))
    return pieces


def _choose_address(
    request: Request,
    free: Iterable[tuple[int, int]],
    fit: Fit,
    avoid: list[tuple[int, int]],
    bank_lows: list[int],
    prefer_one_bank: bool,
) -> int | None:
    """The lowest aligned address of the best free range that holds `request`: first the
    range sharing fewest banks with `avoid` (bank spans), then (with `prefer_one_bank`) one
    where the request stays in one bank, then the one with the least free space (best fit)
    or the lowest one (first fit)."""
    size, alignment = request.size, request.alignment
    best_key: tuple[int, bool, int] | None = None
    best_address: int | None = None
    for low, high in free:
        address = -(-low // alignment) * alignment
        if address + size > high:
            continue
        first, last = 0, 0
        if avoid or prefer_one_bank:
            first, last = _bank_of(address, bank_lows), _bank_of(address + size - 1, bank_lows)
        shared = sum(1 for a, b in avoid if a <= last and first <= b)
        key = (shared, first != last, high - low if fit == "best" else address)
        if best_key is None or key < best_key:
            best_key, best_address = key, address
    return best_address


def _bank_of(address: int, bank_lows: list[int]) -> int:
    return bisect.bisect_right(bank_lows, address) - 1


def peak_live_bytes(requests: Iterable[Request]) -> int:
    """The most bytes live at any one time: no placement needs less memory.

    >>> peak_live_bytes([Request("a", 10, 1, 0, 1, "a"), Request("b", 5, 1, 1, 2, "b"), Request("c", 7, 1, 2, 2, "c")])
    15
    """
    changes: dict[int, int] = {}
    for r in requests:
        changes[r.start] = changes.get(r.start, 0) + r.size
        changes[r.end + 1] = changes.get(r.end + 1, 0) - r.size
    peak = live = 0
    for time in sorted(changes):
        live += changes[time]
        peak = max(peak, live)
    return peak


def live_requests(requests: Iterable[Request], time: int) -> list[Request]:
    """The requests live at `time`, largest first."""
    return sorted((r for r in requests if r.is_live_at(time)), key=lambda r: -r.size)


def _overflow_error(requests: Sequence[Request], memory: Memory) -> AllocationError:
    """The error for the first time the live bytes exceed the capacity."""
    for time in sorted({r.start for r in requests}):
        live = live_requests(requests, time)
        needed = sum(r.size for r in live)
        if needed > memory.capacity:
            return AllocationError(time, live, needed, memory.capacity)
    raise AssertionError("the live bytes fit")


def _fragmentation_error(requests: Sequence[Request], memory: Memory, unplaced: Request) -> AllocationError:
    """The error for a request no strategy placed: at the time in its lifetime with the
    most live bytes."""
    times = {r.start for r in requests if unplaced.is_live_at(r.start)} | {unplaced.start}
    time = max(sorted(times), key=lambda t: sum(r.size for r in requests if r.is_live_at(t)))
    live = live_requests(requests, time)
    return AllocationError(time, live, sum(r.size for r in live), memory.capacity, unplaced)


def _check_keys(requests: Sequence[Request]) -> None:
    seen: dict[Hashable, Request] = {}
    for r in requests:
        if r.key in seen:
            raise ValueError(f"{seen[r.key].label} and {r.label} have the same key {r.key!r}")
        seen[r.key] = r


def check_allocation(requests: Sequence[Request], addresses: Mapping[Hashable, int], memory: Memory) -> None:
    """Raise ValueError naming the request(s) that break a rule: an address missing, a
    region outside `[0, capacity)`, an address not a multiple of the alignment, a region
    that fits in any bank but crosses a bank boundary, or two regions live at the same time
    that overlap. A sweep over time keeps the live regions sorted by address, so each new
    region is compared with its two neighbours only.

    >>> check_allocation([Request("a", 8, 4, 0, 1, "a"), Request("b", 8, 4, 1, 1, "b")], {"a": 0, "b": 4}, Memory(16))
    Traceback (most recent call last):
    ...
    ValueError: at time 1, a [0, 8) and b [4, 12) overlap
    """
    bank_lows = [low for low, _ in memory.bank_ranges]
    for r in requests:
        if r.key not in addresses:
            raise ValueError(f"{r.label} has no address")
        address = addresses[r.key]
        if address < 0 or address + r.size > memory.capacity:
            raise ValueError(f"{r.label} at [{address}, {address + r.size}) is outside [0, {memory.capacity})")
        if address % r.alignment:
            raise ValueError(f"{r.label} at {address} is not a multiple of its alignment {r.alignment}")
        if r.size <= memory.smallest_bank and _bank_of(address, bank_lows) != _bank_of(address + r.size - 1, bank_lows):
            raise ValueError(f"{r.label} at [{address}, {address + r.size}) crosses a bank boundary")

    spans = [(r.start, r.end, addresses[r.key], r.size) for r in requests]
    if (overlap := first_overlap(spans)) is not None:
        time, i, j = overlap
        raise ValueError(f"at time {time}, {_region(requests, spans, i)} and {_region(requests, spans, j)} overlap")


def _region(requests: Sequence[Request], spans: Sequence[tuple[int, int, int, int]], i: int) -> str:
    address = spans[i][2]
    return f"{requests[i].label} [{address}, {address + requests[i].size})"
