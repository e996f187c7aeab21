"""
The local-memory rectangle allocator: every request is a rectangle (bytes × lifetime)
that may only move along addresses. Requests are placed one by one, each into the
best-fitting gap among the requests already placed that are live at the same time, first
in seed 004's order (longer lifetime first, then larger), then, if that fragments, in
other orders; a request that fits in one bank never crosses a bank boundary.

    >>> allocate([Request("a", 64, 16, 0, 1, "a"), Request("b", 64, 16, 1, 2, "b")], Memory(256))
    {'a': 0, 'b': 64}
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence

import attrs


@attrs.frozen
class Request:
    """A region that must lie in memory from time `start` to `end`, both included."""

    key: Hashable
    size: int
    alignment: int
    start: int
    end: int
    label: str
    apart_from: frozenset = frozenset()
    """Keys of requests better kept in another bank (a compute block's inputs and output)."""


@attrs.frozen
class Memory:
    """Usable bytes [0, capacity) and the sizes of consecutive banks from address 0."""

    capacity: int
    banks: tuple[int, ...] = ()


class AllocationError(Exception):
    """No room at `time`: the requests `live` then need `needed` bytes of `usable`."""

    def __init__(self, time: int, live: Sequence[Request], needed: int, usable: int):
        super().__init__(f"at time {time}: {needed} B live, {usable} B usable")
        self.time = time
        self.live = list(live)
        self.needed = needed
        self.usable = usable


def peak_live_bytes(requests: Sequence[Request]) -> int:
    """The most bytes live at one time: no allocation's peak address is lower."""
    events = sorted([(r.start, r.size) for r in requests] + [(r.end + 1, -r.size) for r in requests])
    return max(itertools.accumulate(change for _, change in events), default=0)


def live_at(requests: Sequence[Request], time: int) -> list[Request]:
    return [r for r in requests if r.start <= time <= r.end]


def bank_bounds(memory: Memory) -> list[int]:
    """The addresses where banks meet, inside the usable memory."""
    return [bound for bound in itertools.accumulate(memory.banks) if 0 < bound < memory.capacity]


def candidate_address(start: int, request: Request, bounds: Sequence[int], bank_bytes: int) -> int:
    """The first aligned address at or after `start`, moved past a bank bound its region
    would cross when the request fits in one bank."""
    address = -(-start // request.alignment) * request.alignment
    if request.size > bank_bytes:
        return address
    for bound in bounds:
        if address < bound < address + request.size:
            address = -(-bound // request.alignment) * request.alignment
    return address


ORDERS: dict[str, Callable[[Request], tuple[int, ...]]] = {
    "seed": lambda r: (-(r.end - r.start), -r.size, r.start),
    "largest": lambda r: (-r.size, -(r.end - r.start), r.start),
    "earliest": lambda r: (r.start, -r.size, -r.end),
}
"""The orders tried in turn: seed 004's (longer lifetime first, then larger), the largest
first (big tiles get the long gaps), and by start time (a left-edge sweep)."""


def top_address(end: int, request: Request, bounds: Sequence[int], bank_bytes: int) -> int:
    """The highest aligned address whose region ends by `end`, moved below a bank bound its
    region would cross when the request fits in one bank."""
    address = (end - request.size) // request.alignment * request.alignment
    if request.size > bank_bytes:
        return address
    for bound in reversed(bounds):
        if address < bound < address + request.size:
            address = (bound - request.size) // request.alignment * request.alignment
    return address


def allocate(requests: Sequence[Request], memory: Memory) -> dict[Hashable, int]:
    """Addresses for every request; no two requests live at one time overlap. The orders
    of `ORDERS` are tried in turn; the error of the first one is raised if none fits."""
    first_error: AllocationError | None = None
    for order, from_top in itertools.product(ORDERS.values(), (False, True)):
        try:
            return allocate_in_order(sorted(requests, key=order), memory, from_top)
        except AllocationError as error:
            first_error = first_error or error
    assert first_error is not None
    raise first_error


def allocate_in_order(requests: Sequence[Request], memory: Memory, from_top: bool = False) -> dict[Hashable, int]:
    """Each request in turn into the best-fitting gap left by those before it, at the
    gap's lowest address, or its highest with `from_top` (which leaves the low banks to
    the requests that must not cross a bank bound)."""
    bounds = bank_bounds(memory)
    bank_bytes = min(memory.banks, default=memory.capacity)
    placed: list[tuple[Request, int]] = []
    addresses: dict[Hashable, int] = {}
    for request in requests:
        busy = sorted(
            (address, address + other.size)
            for other, address in placed
            if other.start <= request.end and request.start <= other.end
        )
        best: tuple[int, int] | None = None
        for gap_start, gap_end in _gaps(busy):
            gap_end = min(gap_end, memory.capacity)
            address = (
                top_address(gap_end, request, bounds, bank_bytes)
                if from_top
                else candidate_address(gap_start, request, bounds, bank_bytes)
            )
            if gap_start <= address and address + request.size <= gap_end:
                waste = gap_end - gap_start - request.size
                if best is None or waste < best[0]:
                    best = (waste, address)
        if best is None:
            time = max(range(request.start, request.end + 1), key=lambda t: sum(r.size for r in live_at(requests, t)))
            live = live_at(requests, time)
            raise AllocationError(time, live, sum(r.size for r in live), memory.capacity)
        placed.append((request, best[1]))
        addresses[request.key] = best[1]
    return addresses


def _gaps(busy: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The free [start, end) ranges between sorted busy ranges, the last one unbounded."""
    gaps: list[tuple[int, int]] = []
    reach = 0
    for lo, hi in busy:
        if lo > reach:
            gaps.append((reach, lo))
        reach = max(reach, hi)
    gaps.append((reach, 1 << 62))
    return gaps
