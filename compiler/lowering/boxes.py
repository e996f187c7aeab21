"""
Byte boxes of tensors: where a sub-box of a row-major tensor starts and how to step
through it, as DMA, `isa.copy` and NoC transfers take it (sizes and strides in bytes,
innermost last).

    >>> nhwc_box(1024, (1, 8, 8, 16), 1, (0, 2, 0, 0), (1, 4, 8, 16))
    Box(address=1280, sizes=(1, 4, 8, 16), strides=(1024, 128, 16, 1))
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from stc.dialects.task.stats import row_major_strides


@attrs.frozen
class Box:
    """A strided box of bytes: the first byte, bytes per dimension, byte strides."""

    address: int
    sizes: tuple[int, ...]
    strides: tuple[int, ...]


def nhwc_box(base: int, shape: Sequence[int], itemsize: int, lo: Sequence[int], extent: Sequence[int]) -> Box:
    """The box `lo` + `extent` of a dense tensor of `shape` at `base`; the innermost
    dimension counts bytes, so elements wider than a byte stay whole."""
    return strided_box(base, row_major_strides(shape, itemsize), itemsize, lo, extent)


def strided_box(base: int, strides: Sequence[int], itemsize: int, lo: Sequence[int], extent: Sequence[int]) -> Box:
    """`nhwc_box` of a tensor whose row-major byte strides are known."""
    address = base + sum(start * stride for start, stride in zip(lo, strides, strict=True))
    sizes = (*extent[:-1], extent[-1] * itemsize)
    return Box(address, tuple(sizes), (*strides[:-1], 1))


def nchw_box(base: int, nchw: Sequence[int], itemsize: int, lo_nhwc: Sequence[int], extent_nhwc: Sequence[int]) -> Box:
    """An NHWC box of a tensor that global memory holds in NCHW at `base`, listed in NHWC
    order (so that it pairs element for element with the same box of an NHWC tile); the
    innermost (channel) dimension counts elements of `itemsize` bytes, one byte each."""
    n, c, h, w = nchw
    n0, h0, w0, c0 = lo_nhwc
    strides = (c * h * w * itemsize, w * itemsize, itemsize, h * w * itemsize)
    address = base + sum(start * stride for start, stride in zip((n0, h0, w0, c0), strides, strict=True))
    if itemsize == 1:
        return Box(address, tuple(extent_nhwc), strides)
    # An element wider than a byte: its bytes are the innermost dimension.
    return Box(address, (*extent_nhwc, itemsize), (*strides, 1))
