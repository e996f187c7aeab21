"""Element-wise accumulations of the vector blocks, exact in int64, and table lookups."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def at_least(x: np.ndarray, floor: int) -> np.ndarray:
    """`max(x, floor)` as int64: ReLU and the compare value of max pooling.

    >>> at_least(np.array([-5, 3], np.int8), 0)
    array([0, 3])
    """
    return np.maximum(x, floor, dtype=np.int64)


def branch_sum(branches: Sequence[np.ndarray]) -> np.ndarray:
    """The element-wise sum of equally shaped branches, int64."""
    first, *rest = branches
    total = first.astype(np.int64)
    for branch in rest:
        total += branch
    return total


def product(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """The element-wise (Hadamard) product, int64."""
    return np.multiply(lhs, rhs, dtype=np.int64)


def lookup(x: np.ndarray, table: np.ndarray) -> np.ndarray:
    """`table[x as an unsigned byte]` for an int8 array and a 256-entry table."""
    return table[x.astype(np.int8).view(np.uint8)]
