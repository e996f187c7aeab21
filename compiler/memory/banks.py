"""
Whether the regions one block needs at once can lie in a core's banks without a region
that fits in a bank crossing a boundary: what `task-split{fit}` asks of each piece, so that
`st-lmem-alloc` finds room. Four 14 KB tiles and a 3.5 KB result fit an AIE-ML tile's
64 KB by bytes, but not its four 16 KB banks:

>>> memory = Memory(65536, (16384,) * 4)
>>> packs_in_banks([14336] * 4 + [3584], memory), packs_in_banks([14336] * 4 + [2048], memory)
(False, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from stc.compiler.memory.rectangles import Memory
from stc.compiler.targets.hardware import HardwareTarget


def memory_of(target: HardwareTarget, memory_bytes: int) -> Memory:
    """The usable part of a local memory of `memory_bytes` and the target's banks."""
    capacity = max(memory_bytes - target.local_memory.reserved_bytes, 0)
    banks = tuple(bank.capacity_bytes for bank in target.local_memory.banks)
    return Memory(capacity, banks if len(banks) > 1 else ())


def local_memory(target: HardwareTarget) -> Memory:
    """A compute core's usable local memory and its banks."""
    return memory_of(target, target.local_memory.capacity_bytes)


def packs_in_banks(sizes: Sequence[int], memory: Memory) -> bool:
    """A sufficient test: the regions larger than the smallest bank (which may cross banks)
    side by side from address 0, then the others, largest first, each into the first bank
    with room left above them."""
    return sum(sizes) <= memory.capacity and banks_left(sizes, memory) is not None


def banks_left(sizes: Sequence[int], memory: Memory) -> list[tuple[int, int]] | None:
    """The (room left, bank size) of each bank the regions are packed into as
    `packs_in_banks` packs them (banks below the crossing regions' end left out), or None
    where a region finds no bank."""
    smallest = memory.smallest_bank
    crossing = sum(size for size in sizes if size > smallest)
    left = [[high - max(low, crossing), high - low] for low, high in memory.bank_ranges if high > crossing]
    for size in sorted((size for size in sizes if size <= smallest), reverse=True):
        bank = next((bank for bank in left if bank[0] >= size), None)
        if bank is None:
            return None
        bank[0] -= size
    return [(room, size) for room, size in left]


def bank_gaps(sizes: Sequence[int], memory: Memory) -> int:
    """The bytes that regions held long leave in the banks they share with nothing else
    but one another: packed as `packs_in_banks` packs them, the room left in every bank
    they use but the emptiest (which the allocator can put beside the free banks). A region
    no larger than a bank stays in one, so a region that needs more than a gap cannot use
    it (the whole memory where they do not pack). Four 40 KB regions in four 64 KB banks
    leave 24 KB in each, 72 KB of them in three banks that a 32 KB region cannot use:

    >>> bank_gaps([40960] * 4, Memory(262144, (65536,) * 4)), bank_gaps([32768] * 4, Memory(262144, (65536,) * 4))
    (73728, 0)
    """
    if len(memory.bank_ranges) < 2 or not sizes:
        return 0
    left = banks_left(sizes, memory)
    if left is None:
        return memory.capacity
    gaps = [room for room, size in left if room < size]
    return sum(gaps) - max(gaps, default=0)
