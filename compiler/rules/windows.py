"""
Window geometry, which the `task` and `isa` levels share: output sizes, the limits and the
message for a window that cannot slide.

    >>> window_output_hw(224, 224, window=(7, 7), stride=(2, 2), pad=(3, 3, 3, 3), dilation=(1, 1))
    (112, 112)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache


def window_output_size(size: int, kernel: int, stride: int, pad_lo: int, pad_hi: int, dilation: int = 1) -> int:
    """Number of windows along one axis: ⌊(size + pads − dilation·(kernel−1) − 1) / stride⌋ + 1."""
    return (size + pad_lo + pad_hi - dilation * (kernel - 1) - 1) // stride + 1


def window_output_hw(
    height: int,
    width: int,
    window: Sequence[int],
    stride: Sequence[int],
    pad: Sequence[int],
    dilation: Sequence[int],
) -> tuple[int, int]:
    """Number of windows along each axis of a height×width input; `pad` is [top, bottom,
    left, right]."""
    return (
        window_output_size(height, window[0], stride[0], pad[0], pad[1], dilation[0]),
        window_output_size(width, window[1], stride[1], pad[2], pad[3], dilation[1]),
    )


WINDOW_LIMIT = 2**16 - 1
"""Largest stride, pad, dilation and window size: far beyond any network's, and small
enough that no window arithmetic comes near 64 bits."""


def window_error(
    height: int,
    width: int,
    window: Sequence[int],
    stride: Sequence[int],
    pad: Sequence[int],
    dilation: Sequence[int],
) -> str | None:
    """Why a window cannot slide over a height×width input, or None: each parameter has
    two values (four for `pad`) in range, padding stays within the window's extent and
    at least one window fits."""

    def within(values: Sequence[int], count: int, lowest: int) -> bool:
        return len(values) == count and all(lowest <= v <= WINDOW_LIMIT for v in values)

    if not within(stride, 2, 1):
        return f"stride must be two integers in [1, {WINDOW_LIMIT}], got {list(stride)}"
    if not within(pad, 4, 0):
        return f"pad must be four integers in [0, {WINDOW_LIMIT}] (top, bottom, left, right), got {list(pad)}"
    if not within(dilation, 2, 1):
        return f"dilation must be two integers in [1, {WINDOW_LIMIT}], got {list(dilation)}"
    if not within(window, 2, 1):
        return f"window must be two integers in [1, {WINDOW_LIMIT}], got {list(window)}"
    extents = [dilation[axis] * (window[axis] - 1) + 1 for axis in (0, 1)]
    for axis, (lo, hi) in enumerate((pad[0:2], pad[2:4])):
        if max(lo, hi) >= extents[axis]:
            return f"pad {[lo, hi]} must be smaller than the window extent {extents[axis]}"
    if min(window_output_hw(height, width, window, stride, pad, dilation)) < 1:
        return f"window extent {extents} does not fit the padded {height}x{width} input"
    return None


@lru_cache(maxsize=4096)
def slid_windows(
    height: int,
    width: int,
    window: tuple[int, ...],
    stride: tuple[int, ...],
    pad: tuple[int, ...],
    dilation: tuple[int, ...],
) -> tuple[int, int] | str:
    """The number of windows along each axis (`window_output_hw`), or why they cannot slide
    (`window_error`), once per geometry: the pieces of a split share a few."""
    if message := window_error(height, width, window, stride, pad, dilation):
        return message
    return window_output_hw(height, width, window, stride, pad, dilation)
