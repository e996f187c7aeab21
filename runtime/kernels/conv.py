"""
Convolution and fully connected kernels with exact integer results on BLAS.

int8 × int8 products are at most 2^14 in magnitude, so a float32 dot product of up to
1024 of them stays below 2^24 and every partial sum is an exactly representable integer,
whatever order BLAS adds in. Longer reductions are cut into chunks of 1024 whose results
are summed in int64.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

EXACT_FLOAT32_TERMS = 1024
"""Most int8 × int8 products a float32 sum holds exactly (1024 · 2^14 = 2^24)."""


def exact_matmul(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """
    `lhs @ rhs` for int8-valued float32 matrices, exact, as int64.

    >>> exact_matmul(np.full((1, 2048), 127, np.float32), np.full((2048, 1), -128, np.float32))
    array([[-33292288]])
    """
    terms = lhs.shape[1]
    if terms <= EXACT_FLOAT32_TERMS:
        return (lhs @ rhs).astype(np.int64)
    total = np.zeros((lhs.shape[0], rhs.shape[1]), dtype=np.float64)  # exact below 2^53
    for start in range(0, terms, EXACT_FLOAT32_TERMS):
        stop = start + EXACT_FLOAT32_TERMS
        total += lhs[:, start:stop] @ rhs[start:stop]
    return total.astype(np.int64)


def conv2d(
    x: np.ndarray,
    w: np.ndarray,
    stride: Sequence[int] = (1, 1),
    pad: Sequence[int] = (0, 0, 0, 0),
    dilation: Sequence[int] = (1, 1),
) -> np.ndarray:
    """
    Raw accumulation of a 2-D convolution, zero padded: x is N×H×W×C, w is F×Ky×Kx×C,
    pad is [top, bottom, left, right]; the result is int64 N×Ho×Wo×F.
    """
    n, _, _, c = x.shape
    f, ky, kx, _ = w.shape
    padded = padded_copy(x, pad, np.float32)
    windows = sliding_windows(padded, (ky, kx), stride, dilation)
    _, out_h, out_w, *_ = windows.shape
    columns = windows.reshape(n * out_h * out_w, ky * kx * c)
    weights = w.reshape(f, ky * kx * c).astype(np.float32).T
    return exact_matmul(columns, weights).reshape(n, out_h, out_w, f)


def fully_connected(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Raw accumulation of a fully connected layer: x is N×H×W×R, w is F×H×W×R; N×1×1×F."""
    n, f = x.shape[0], w.shape[0]
    lhs = x.reshape(n, -1).astype(np.float32)
    rhs = w.reshape(f, -1).astype(np.float32).T
    return exact_matmul(lhs, rhs).reshape(n, 1, 1, f)


def padded_copy(x: np.ndarray, pad: Sequence[int], dtype: np.dtype | type, fill: int = 0) -> np.ndarray:
    """x (N×H×W×C) converted to `dtype` and padded by [top, bottom, left, right] with `fill`, in one pass."""
    n, h, w, c = x.shape
    top, bottom, left, right = pad
    padded = np.full((n, top + h + bottom, left + w + right, c), fill, dtype=dtype)
    padded[:, top : top + h, left : left + w] = x
    return padded


def sliding_windows(
    padded: np.ndarray, window: Sequence[int], stride: Sequence[int], dilation: Sequence[int]
) -> np.ndarray:
    """
    A read-only N×Ho×Wo×Ky×Kx×C view of the windows of a padded N×H×W×C array. The number
    of windows follows from the array's shape: every position where the dilated window
    fits, then every stride-th of them.
    """
    extent = [d * (k - 1) + 1 for k, d in zip(window, dilation, strict=True)]
    views = sliding_window_view(padded, extent, axis=(1, 2))  # N×(H−ey+1)×(W−ex+1)×C×ey×ex
    taps = views[:, :: stride[0], :: stride[1], :, :: dilation[0], :: dilation[1]]
    return taps.transpose(0, 1, 2, 4, 5, 3)
