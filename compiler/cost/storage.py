"""
Per core, the local-memory bytes of a leaf's pieces as st-apply and st-lmem-alloc count
them: every row of a block's first-stored dimension padded to the target's alignment
(`compiler/memory/storage_size.py`, BiMap's storage-size model). The cost model's buffer
check uses these sizes, so a tree it accepts is one whose pieces the machine can hold;
traffic is counted in the unpadded bytes the DMAs and sends move.

On tianjicx a piece of a 3×3×512→512 conv with 4 output channels holds 32 B in each of
its 4,608 weight rows (147,456 B, not 18,432 B), and a 7×7 buffer of 20 channels 32 B a pixel:

>>> from stc.compiler.targets.hardware import load_target
>>> alignment = load_target("tianjicx").local_memory.alignment_bytes
>>> int(4608 * padded(np.array([4]), alignment.weight)[0])
147456
>>> int(activation_storage(np.array([49]), np.array([20]), 1, alignment)[0])
1568
"""

from __future__ import annotations

import numpy as np

from stc.compiler.cost.network import Layer
from stc.compiler.targets.components import Alignment


def padded(row_bytes: np.ndarray, alignment: int) -> np.ndarray:
    return -(-row_bytes // alignment) * alignment


def activation_storage(rows: np.ndarray, channels: np.ndarray, element_bytes: int, alignment: Alignment) -> np.ndarray:
    """An NHWC buffer of `rows` pixels of `channels` int8 activations (or int32 partial
    sums); `alignment` is the target's `local_memory.alignment_bytes`."""
    unit = alignment.partial_sum if element_bytes == 4 else alignment.activation
    return rows * padded(channels * element_bytes, unit)


def weight_storage(layer: Layer, channels: np.ndarray, alignment: Alignment) -> np.ndarray:
    """A piece's weight, bias and tables when it computes `channels` output channels."""
    return sum(weight_blocks(layer, channels, alignment))  # pyright: ignore[reportReturnType]


def weight_blocks(layer: Layer, channels: np.ndarray, alignment: Alignment) -> list[np.ndarray]:
    """The blocks `weight_storage` sums, each placed on its own: the weight slice, the bias
    and each table."""
    blocks = [layer.weight_rows * padded(channels, alignment.weight)]
    if layer.has_bias:
        blocks.append(padded(4 * channels, alignment.bias))
    return blocks + [padded(np.full_like(channels, size), alignment.bias) for size in layer.tables]


def blocks_of_storage(layer: Layer, nbytes: int, alignment: Alignment) -> list[int]:
    """The blocks of the piece whose `weight_storage` is `nbytes` (its channels found by
    bisection), or `nbytes` as one block where no channel count gives it."""
    low, high = 1, max(layer.out_channels, 1)
    while low < high:
        middle = (low + high) // 2
        if int(weight_storage(layer, np.array(middle), alignment)) < nbytes:
            low = middle + 1
        else:
            high = middle
    blocks = [int(block) for block in weight_blocks(layer, np.array(low), alignment)]
    return [block for block in blocks if block] if sum(blocks) == nbytes else [nbytes]
