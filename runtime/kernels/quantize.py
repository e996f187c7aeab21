"""The output stage of every compute block: arithmetic shift, then saturation."""

from __future__ import annotations

import numpy as np

DTYPES = {8: np.int8, 32: np.int32}


def saturate_shift(acc: np.ndarray, shift: int, bits: int) -> np.ndarray:
    """
    `clip(acc >> shift)` to the range of a `bits`-wide signed integer, as that dtype.
    The shift floors, like the hardware's arithmetic shift.

    >>> saturate_shift(np.array([1000, -1000, 300]), 2, 8)
    array([ 127, -128,   75], dtype=int8)
    """
    dtype = DTYPES[bits]
    limits = np.iinfo(dtype)
    shifted = np.right_shift(acc.astype(np.int64), shift)
    return np.clip(shifted, limits.min, limits.max).astype(dtype)


def lookup(x: np.ndarray, table: np.ndarray) -> np.ndarray:
    """`table[x as an unsigned byte]` for an int8 array and a 256-entry table."""
    return table[x.astype(np.int8).view(np.uint8)]
