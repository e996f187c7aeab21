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
    shifted = np.right_shift(acc, shift, dtype=np.int64)
    np.clip(shifted, limits.min, limits.max, out=shifted)
    return shifted.astype(dtype)
