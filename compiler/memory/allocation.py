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

from collections.abc import Hashable, Iterator, Sequence

from stc.compiler.memory.packing import STRATEGIES, Crossing, Packer, Placement, Strategy
from stc.compiler.memory.rectangles import (
    AllocationError,
    Memory,
    Request,
    check_keys,
    live_requests,
    peak_live_bytes,
    windows,
)


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
    check_keys(requests)
    if peak_live_bytes(requests) > memory.capacity:
        raise _overflow_error(requests, memory)
    addresses: dict[Hashable, int] = {}
    for window, placement in _placements(requests, memory):
        if placement.unplaced is not None:
            raise _fragmentation_error(requests, memory, window[placement.unplaced])
        addresses |= placement.addresses
    return {r.key: addresses[r.key] for r in requests}


def fits(requests: Sequence[Request], memory: Memory) -> bool:
    """Whether `allocate` finds addresses for the requests: `unplaced` finds none it
    cannot place (here 200 B fit in 210, but b cannot start below 128, aligned to 64).

    >>> fits([Request("a", 100, 64, 0, 0, "a"), Request("b", 100, 64, 0, 0, "b")], Memory(210))
    False
    """
    return unplaced(requests, memory) is None


def unplaced(requests: Sequence[Request], memory: Memory) -> Request | None:
    """A request `allocate` finds no address for, or None where it places them all: the
    largest live at the first time of too many live bytes, else the first that no strategy
    placed in the first window that does not pack.

    >>> unplaced([Request("a", 100, 64, 0, 0, "a"), Request("b", 100, 64, 0, 0, "b")], Memory(210)).key
    'b'
    """
    check_keys(requests)
    if peak_live_bytes(requests) > memory.capacity:
        return max(_overflow_error(requests, memory).live, key=lambda request: request.size)
    for window, placement in _placements(requests, memory):
        if placement.unplaced is not None:
            return window[placement.unplaced]
    return None


def _placements(requests: Sequence[Request], memory: Memory) -> Iterator[tuple[list[Request], Placement]]:
    """Each window of the requests (`windows`: no lifetime crosses from one to the next)
    with its placement, up to the first incomplete one. A window is placed on its own, so
    its strategy and squeaky-wheel rounds are its own, and judged compact against the
    whole problem's peak live bytes: where one strategy places every window compactly, the
    addresses are those it gives the whole problem."""
    whole = peak_live_bytes(requests)
    for window in windows(requests):
        placement = _ladder_placement(window, memory, whole)
        yield window, placement
        if not placement.complete:
            return


def _ladder_placement(requests: Sequence[Request], memory: Memory, whole: int) -> Placement:
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
        placement = _strategies_placement(Packer(requests, memory, crossing, apart, whole))
        if placement.complete:
            return placement
    return _best_placement(Packer(requests, memory, *ladder[-1], whole))


def _strategies_placement(packer: Packer) -> Placement:
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


def _best_placement(packer: Packer) -> Placement:
    """The strategies' placement, improved by squeaky-wheel rounds when it is not good enough."""
    placement = _strategies_placement(packer)
    return placement if packer.good_enough(placement) else packer.improve(placement)


def place(requests: Sequence[Request], memory: Memory, strategy: Strategy) -> Placement:
    """The placement one strategy finds on its own, honouring `apart_from`.

    >>> place([Request("a", 8, 1, 0, 0, "a")], Memory(8), STRATEGIES[0]).addresses
    {'a': 0}
    """
    check_keys(requests)
    return Packer(requests, memory, "never", apart=True).place(strategy)


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
