"""Window reductions (sum and max) over N×H×W×C integer arrays, one vector op per tap."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from stc.runtime.kernels.conv import padded_copy, sliding_windows


def window_sum(x: np.ndarray, window: Sequence[int], stride: Sequence[int], pad: Sequence[int]) -> np.ndarray:
    """Sum over each window, zero padded (pad is [top, bottom, left, right]); int64."""
    taps = window_taps(padded_copy(x, pad, np.int64), window, stride)
    total = next(taps).copy()
    for tap in taps:
        total += tap
    return total


def window_max(x: np.ndarray, window: Sequence[int], stride: Sequence[int], pad: Sequence[int]) -> np.ndarray:
    """Maximum over each window, in x's dtype; padding never wins."""
    lowest = np.iinfo(x.dtype).min
    taps = window_taps(padded_copy(x, pad, x.dtype, fill=lowest), window, stride)
    best = next(taps).copy()
    for tap in taps:
        np.maximum(best, tap, out=best)
    return best


def window_taps(padded: np.ndarray, window: Sequence[int], stride: Sequence[int]) -> Iterator[np.ndarray]:
    """For each kernel tap, the strided N×Ho×Wo×C view of the elements it reads."""
    windows = sliding_windows(padded, window, stride, (1, 1))
    for dy in range(window[0]):
        for dx in range(window[1]):
            yield windows[:, :, :, dy, dx]
