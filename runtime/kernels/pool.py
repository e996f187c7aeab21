"""Window reductions (sum and max) over N×H×W×C integer arrays, one vector op per tap."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def window_sum(x: np.ndarray, window: Sequence[int], stride: Sequence[int], pad: Sequence[int]) -> np.ndarray:
    """Sum over each window, zero padded (pad is [top, bottom, left, right]); int64."""
    padded = np.pad(x.astype(np.int64), ((0, 0), tuple(pad[0:2]), tuple(pad[2:4]), (0, 0)))
    taps = window_taps(padded, window, stride)
    total = next(taps).copy()
    for tap in taps:
        total += tap
    return total


def window_max(x: np.ndarray, window: Sequence[int], stride: Sequence[int], pad: Sequence[int]) -> np.ndarray:
    """Maximum over each window; padding never wins. int64."""
    lowest = np.iinfo(x.dtype).min
    padded = np.pad(
        x.astype(np.int64),
        ((0, 0), tuple(pad[0:2]), tuple(pad[2:4]), (0, 0)),
        constant_values=lowest,
    )
    taps = window_taps(padded, window, stride)
    best = next(taps).copy()
    for tap in taps:
        np.maximum(best, tap, out=best)
    return best


def window_taps(padded: np.ndarray, window: Sequence[int], stride: Sequence[int]):
    """For each kernel tap, the strided N×Ho×Wo×C view of the elements it reads."""
    _, h, w, _ = padded.shape
    out_h = (h - window[0]) // stride[0] + 1
    out_w = (w - window[1]) // stride[1] + 1
    for dy in range(window[0]):
        for dx in range(window[1]):
            yield padded[
                :,
                dy : dy + stride[0] * (out_h - 1) + 1 : stride[0],
                dx : dx + stride[1] * (out_w - 1) + 1 : stride[1],
                :,
            ]
