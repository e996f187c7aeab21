"""
The room that weights pinned across a segment's subbatches leave in a core's banks. The
allocator keeps a block no larger than a bank in one bank (`st-lmem-alloc`), so on a core
of several banks (set-8x8: sixteen of 64 KB) the weight slices, biases and tables a
subbatched segment keeps for all its subbatches are packed into the banks largest first
(`banks.bank_gaps`), and the room left in every bank they use but the emptiest counts as
held: a region larger than a gap cannot use it. Four 36 KB slices cannot share a 64 KB
bank: each leaves 28 KB no other such slice fits.

    pinned = PinnedBanks.of(network, target)
    buf = buf + pinned.gaps(leaves)      # per core
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from stc.compiler.cost.network import Network
from stc.compiler.cost.node_cost import NodeCost
from stc.compiler.cost.storage import blocks_of_storage
from stc.compiler.memory.banks import bank_gaps, local_memory
from stc.compiler.memory.rectangles import Memory
from stc.compiler.targets.hardware import HardwareTarget

Piece = tuple[int, int]
"""(layer, bytes of weights) of a leaf's piece on a core."""


class PinnedBanks:
    """The gaps of `memory`'s banks that pinned pieces leave, each piece split into its
    `blocks`; the gaps of each set of pieces found once."""

    def __init__(self, memory: Memory, blocks: Callable[[int, int], list[int]]):
        self.memory = memory
        self.blocks = blocks
        self._gaps: dict[tuple[Piece, ...], int] = {}

    @classmethod
    def of(cls, network: Network, target: HardwareTarget) -> PinnedBanks:
        """A core of the target, the blocks of a layer's piece from its bytes (cached)."""
        alignment = target.local_memory.alignment_bytes
        made: dict[Piece, list[int]] = {}

        def blocks(layer: int, nbytes: int) -> list[int]:
            if (found := made.get((layer, nbytes))) is None:
                found = made[(layer, nbytes)] = blocks_of_storage(network.layers[layer], nbytes, alignment)
            return found

        return cls(local_memory(target), blocks)

    def gaps(self, leaves: dict[int, NodeCost]) -> np.ndarray | int:
        """Per core, the room the leaves' pieces there (their wgt), all pinned, leave in its
        banks; cores that hold alike are packed once."""
        if len(self.memory.bank_ranges) < 2 or not leaves:
            return 0
        layers = list(leaves)
        columns, inverse = np.unique(np.stack([leaves[layer].wgt for layer in layers]), axis=1, return_inverse=True)
        gaps = [
            self.packed(tuple((layer, int(size)) for layer, size in zip(layers, column, strict=True) if size))
            for column in columns.T
        ]
        return np.array(gaps)[inverse.reshape(-1)]

    def packed(self, pieces: tuple[Piece, ...]) -> int:
        """The gaps the pieces of one core leave (`banks.bank_gaps` of their blocks)."""
        if (gaps := self._gaps.get(pieces)) is None:
            blocks = [block for piece in pieces for block in self.blocks(*piece)]
            gaps = self._gaps[pieces] = bank_gaps(blocks, self.memory)
        return gaps
