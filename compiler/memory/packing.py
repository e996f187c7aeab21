"""Placing rectangles one by one (`Packer`): each request, in a strategy's order, at the
best free address range over its whole lifetime, with the bank rules of the rung of the
allocator's ladder it is asked for; squeaky-wheel rounds reorder the requests that end high.

    >>> from stc.compiler.memory.rectangles import Memory, Request
    >>> Packer([Request("a", 8, 1, 0, 0, "a")], Memory(16), "never", apart=True).place(STRATEGIES[0]).addresses
    {'a': 0}
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Literal

import attrs

from stc.compiler.memory.rectangles import Memory, Request, bank_of, peak_live_bytes

GOOD_ENOUGH = 1.03
"""In a memory of one bank, a placement whose peak address is within this factor of the
peak live bytes is kept without trying further. With several banks the peak address says
little (bank boundaries leave gaps, a small top bank such as TianjicX's MEM2 is worth
filling, and `apart_from` spreads requests over banks), so there the first complete
placement is kept."""


Fit = Literal["best", "first"]


Crossing = Literal["never", "avoided", "allowed"]


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


class Packer:
    """One allocation problem, prepared for placing its requests in many orders.

    Time is compressed to the distinct start times: two lifetimes intersect exactly when
    both are live at the later of their starts. `spans[i]` is request i's lifetime as
    indices into those start times.

    A request no larger than the smallest bank is always kept in one bank, one larger than
    every bank may always cross them; `crossing` says what the others may do.
    """

    def __init__(
        self, requests: Sequence[Request], memory: Memory, crossing: Crossing, apart: bool, whole: int | None = None
    ):
        self.requests = requests
        self.memory = memory
        self.bound = peak_live_bytes(requests)
        self.whole = self.bound if whole is None else whole
        """The peak live bytes of the whole problem, where these requests are one window of
        it (`rectangles.windows`): a placement is compact when within `GOOD_ENOUGH` of it."""
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
                bank_spans[i] = (bank_of(address, self.bank_lows), bank_of(interval[1] - 1, self.bank_lows))
        return Placement(tuple(order), fit, addresses, None, peak)

    def good_enough(self, placement: Placement) -> bool:
        """Complete, and with one bank compact too (see `GOOD_ENOUGH`)."""
        if not placement.complete:
            return False
        return len(self.bank_lows) > 1 or placement.peak <= GOOD_ENOUGH * self.whole

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
            first, last = bank_of(address, bank_lows), bank_of(address + size - 1, bank_lows)
        shared = sum(1 for a, b in avoid if a <= last and first <= b)
        key = (shared, first != last, high - low if fit == "best" else address)
        if best_key is None or key < best_key:
            best_key, best_address = key, address
    return best_address
