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


def packs_in_banks(sizes: Sequence[int], memory: Memory) -> bool:
    """A sufficient test: the regions larger than the smallest bank (which may cross banks)
    side by side from address 0, then the others, largest first, each into the first bank
    with room left above them."""
    if sum(sizes) > memory.capacity:
        return False
    smallest = memory.smallest_bank
    crossing = sum(size for size in sizes if size > smallest)
    room = [high - max(low, crossing) for low, high in memory.bank_ranges if high > crossing]
    for size in sorted((size for size in sizes if size <= smallest), reverse=True):
        bank = next((i for i, free in enumerate(room) if free >= size), None)
        if bank is None:
            return False
        room[bank] -= size
    return True
