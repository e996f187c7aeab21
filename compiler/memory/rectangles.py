"""Local-memory rectangles: the requests an allocator places, the memory it places them
in, and the rules a placement keeps (`check_allocation`) or why none exists
(`AllocationError`).

Each request is a rectangle: `size` bytes at an address the allocator chooses, times the
lifetime `[start, end]` of time indices it is given; two whose lifetimes intersect must
not overlap.

    >>> peak_live_bytes([Request("x", 256, 16, 0, 1, "x"), Request("y", 256, 16, 1, 1, "y")])
    512
"""

from __future__ import annotations

import bisect
from collections.abc import Hashable, Iterable, Mapping, Sequence

import attrs

from stc.dialects.st.local_memory import first_overlap

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


def peak_live_bytes(requests: Iterable[Request]) -> int:
    """The most bytes live at any one time: no placement needs less memory.

    >>> peak_live_bytes([Request("a", 10, 1, 0, 1, "a"), Request("b", 5, 1, 1, 2, "b"), Request("c", 7, 1, 2, 2, "c")])
    15
    """
    changes: dict[int, int] = {}
    for r in requests:
        changes[r.start] = changes.get(r.start, 0) + r.size
        changes[r.end + 1] = changes.get(r.end + 1, 0) - r.size
    return peak_of_changes(changes)


def peak_of_changes(changes: dict[int, int]) -> int:
    """The most bytes live at once, from the live bytes' change at each time.

    >>> peak_of_changes({0: 10, 1: 5, 2: -10, 3: -5})
    15
    """
    peak = live = 0
    for time in sorted(changes):
        live += changes[time]
        peak = max(peak, live)
    return peak


def windows(requests: Sequence[Request]) -> list[list[Request]]:
    """The requests cut where no lifetime crosses and no request is to be kept apart from
    one on the other side, each part in their order: parts that can be placed one by one.

    >>> [[r.key for r in part] for part in windows([Request("a", 1, 1, 0, 1, "a"), Request("b", 1, 1, 2, 2, "b"),
    ...                                            Request("c", 1, 1, 1, 1, "c")])]
    [['a', 'c'], ['b']]
    """
    part_of = [0] * len(requests)
    parts, end = -1, -1
    for index in sorted(range(len(requests)), key=lambda i: requests[i].start):
        if parts < 0 or requests[index].start > end:
            parts += 1
        part_of[index] = parts
        end = max(end, requests[index].end)
    joined = list(range(parts + 1))  # union-find: parts a link to keep apart crosses become one

    def root(part: int) -> int:
        while joined[part] != part:
            part = joined[part]
        return part

    index_of = {r.key: i for i, r in enumerate(requests)}
    for i, r in enumerate(requests):
        for j in (index_of[key] for key in r.apart_from if key in index_of):
            low, high = sorted((root(part_of[i]), root(part_of[j])))
            joined[high] = low
    grouped: dict[int, list[Request]] = {}
    for i, r in enumerate(requests):
        grouped.setdefault(root(part_of[i]), []).append(r)
    return [grouped[part] for part in sorted(grouped)]


def live_requests(requests: Iterable[Request], time: int) -> list[Request]:
    """The requests live at `time`, largest first."""
    return sorted((r for r in requests if r.is_live_at(time)), key=lambda r: -r.size)


def check_keys(requests: Sequence[Request]) -> None:
    seen: dict[Hashable, Request] = {}
    for r in requests:
        if r.key in seen:
            raise ValueError(f"{seen[r.key].label} and {r.label} have the same key {r.key!r}")
        seen[r.key] = r


def bank_of(address: int, bank_lows: list[int]) -> int:
    return bisect.bisect_right(bank_lows, address) - 1


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
        if r.size <= memory.smallest_bank and bank_of(address, bank_lows) != bank_of(address + r.size - 1, bank_lows):
            raise ValueError(f"{r.label} at [{address}, {address + r.size}) crosses a bank boundary")

    spans = [(r.start, r.end, addresses[r.key], r.size) for r in requests]
    if (overlap := first_overlap(spans)) is not None:
        time, i, j = overlap
        raise ValueError(f"at time {time}, {_region(requests, spans, i)} and {_region(requests, spans, j)} overlap")


def _region(requests: Sequence[Request], spans: Sequence[tuple[int, int, int, int]], i: int) -> str:
    address = spans[i][2]
    return f"{requests[i].label} [{address}, {address + requests[i].size})"
