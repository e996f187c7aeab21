"""
NCHW <-> NC1HWC0 layout transforms built only from `vec_trans_scatter` calls.

NC1HWC0 splits the channels into C1 groups of C0 (16 for 16- and 32-bit types, 32 for
8-bit types) and stores each pixel's group contiguously: y[n, c1, h, w, c0] =
x[n, c1 * C0 + c0, h, w], with channels past C set to zero.

The calls work between two staging buffers whose shapes `Nc1hwc0Geometry` gives: an
NCHW buffer (N, C1 * C0, HWp) and an NC1HWC0 buffer (N, C1, HWp, C0), where HWp is H * W
rounded up to the pixels one repeat moves (32 / itemsize), which keeps every channel
plane 32-byte aligned. The executing functions copy the input into a zero-initialised
staging buffer when it needs padding (that copy is the zero padding) and crop the result
out of the other one; without padding they use the arrays themselves.
"""

from collections.abc import Iterable, Iterator, Mapping
from enum import StrEnum
from typing import NamedTuple

import attrs
import numpy as np
from numpy.typing import DTypeLike

from stc.dialects.isa.vec_trans_scatter_rules import BLOCK_BYTES, LANES, MAX_REPEAT_TIMES, SUPPORTED_DTYPES
from stc.runtime.kernels.vec_trans_scatter import vec_trans_scatter


class Buffer(StrEnum):
    """The staging buffers a layout transform moves data between."""

    NCHW = "nchw"
    NC1HWC0 = "nc1hwc0"


@attrs.frozen
class VecTransScatterCall:
    """One `vec_trans_scatter` on elements of `dtype`; list entries are element offsets
    into the named buffers."""

    dtype: np.dtype
    dst_buffer: Buffer
    src_buffer: Buffer
    dst_high_half: bool
    src_high_half: bool
    dst_list: tuple[int, ...]
    src_list: tuple[int, ...]
    repeat_times: int
    dst_rep_stride: int
    src_rep_stride: int


@attrs.frozen
class Nc1hwc0Geometry:
    """The sizes of an NCHW tensor and of the staging buffers its transforms use."""

    batch: int
    channels: int
    pixels: int
    dtype: np.dtype

    @classmethod
    def from_nchw(cls, shape: tuple[int, ...], dtype: DTypeLike) -> "Nc1hwc0Geometry":
        dtype = np.dtype(dtype)
        if dtype not in SUPPORTED_DTYPES:
            raise ValueError(f"dtype {dtype} has no NC1HWC0 layout")
        if len(shape) != 4 or min(shape) < 1:
            raise ValueError(f"expected a non-empty NCHW shape, got {shape}")
        batch, channels, height, width = shape
        return cls(batch, channels, height * width, dtype)

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def c0(self) -> int:
        return 32 if self.itemsize == 1 else 16

    @property
    def c1(self) -> int:
        return -(-self.channels // self.c0)

    @property
    def block_elements(self) -> int:
        return BLOCK_BYTES // self.itemsize

    @property
    def padded_pixels(self) -> int:
        """H * W rounded up to whole blocks of one channel plane."""
        return -(-self.pixels // self.block_elements) * self.block_elements

    @property
    def nchw_shape(self) -> tuple[int, int, int]:
        return (self.batch, self.c1 * self.c0, self.padded_pixels)

    @property
    def nc1hwc0_shape(self) -> tuple[int, int, int, int]:
        return (self.batch, self.c1, self.padded_pixels, self.c0)

    @property
    def staging_bytes(self) -> int:
        """Bytes of each staging buffer (the NCHW and the NC1HWC0 one are equally large)."""
        return self.batch * self.c1 * self.c0 * self.padded_pixels * self.itemsize

    def plane(self, batch: int, channel: int) -> int:
        """Offset of a channel plane in the NCHW staging buffer."""
        return (batch * self.c1 * self.c0 + channel) * self.padded_pixels

    def group(self, batch: int, c1: int) -> int:
        """Offset of a channel group's first pixel in the NC1HWC0 staging buffer."""
        return (batch * self.c1 + c1) * self.padded_pixels * self.c0


def layout_calls(geometry: Nc1hwc0Geometry, destination: Buffer) -> list[VecTransScatterCall]:
    """The calls that fill the `destination` staging buffer from the other one."""
    forward = destination is Buffer.NC1HWC0
    source = Buffer.NCHW if forward else Buffer.NC1HWC0
    group_stride = {Buffer.NC1HWC0: geometry.c0, Buffer.NCHW: 1}
    calls: list[VecTransScatterCall] = []
    for batch in range(geometry.batch):
        for c1 in range(geometry.c1):
            for pairing in _lane_pairings(geometry, batch, c1, forward):
                lanes = {Buffer.NC1HWC0: pairing.nc1hwc0_lanes, Buffer.NCHW: pairing.nchw_lanes}
                halves = {Buffer.NC1HWC0: pairing.nc1hwc0_high_half, Buffer.NCHW: pairing.nchw_high_half}
                calls += _repeated(
                    geometry,
                    destination,
                    source,
                    halves[destination],
                    halves[source],
                    lanes[destination],
                    lanes[source],
                    dst_rep_stride=group_stride[destination],
                    src_rep_stride=group_stride[source],
                )
    return calls


def run_calls(calls: Iterable[VecTransScatterCall], buffers: Mapping[Buffer, np.ndarray]) -> None:
    """Execute calls on flat buffers of the calls' dtype."""
    for call in calls:
        dst, src = buffers[call.dst_buffer], buffers[call.src_buffer]
        if dst.dtype != call.dtype or src.dtype != call.dtype:
            raise ValueError(f"a call on {call.dtype} got {dst.dtype} and {src.dtype} buffers")
        vec_trans_scatter(
            dst,
            src,
            call.dst_high_half,
            call.src_high_half,
            call.dst_list,
            call.src_list,
            call.repeat_times,
            call.dst_rep_stride,
            call.src_rep_stride,
        )


def nchw_to_nc1hwc0(x: np.ndarray) -> np.ndarray:
    """Convert an (N, C, H, W) array to (N, C1, H, W, C0), padding C with zeros."""
    geometry = Nc1hwc0Geometry.from_nchw(x.shape, x.dtype)
    batch, channels, height, width = x.shape
    nchw = _padded(x.reshape(batch, channels, geometry.pixels), geometry.nchw_shape)
    nc1hwc0 = np.zeros(geometry.nc1hwc0_shape, x.dtype)
    buffers = {Buffer.NCHW: nchw.reshape(-1), Buffer.NC1HWC0: nc1hwc0.reshape(-1)}
    run_calls(layout_calls(geometry, Buffer.NC1HWC0), buffers)
    cropped = nc1hwc0[:, :, : geometry.pixels, :]
    return cropped.reshape(batch, geometry.c1, height, width, geometry.c0)


def nc1hwc0_to_nchw(y: np.ndarray, channels: int) -> np.ndarray:
    """Convert an (N, C1, H, W, C0) array back to (N, channels, H, W)."""
    if y.ndim != 5:
        raise ValueError(f"expected an NC1HWC0 shape, got {y.shape}")
    batch, c1, height, width, c0 = y.shape
    geometry = Nc1hwc0Geometry.from_nchw((batch, channels, height, width), y.dtype)
    if (c1, c0) != (geometry.c1, geometry.c0):
        raise ValueError(
            f"{channels} channels of {y.dtype} need C1 = {geometry.c1} and C0 = "
            f"{geometry.c0}, got C1 = {c1} and C0 = {c0}"
        )
    nc1hwc0 = _padded(y.reshape(batch, c1, geometry.pixels, c0), geometry.nc1hwc0_shape)
    nchw = np.zeros(geometry.nchw_shape, y.dtype)
    buffers = {Buffer.NCHW: nchw.reshape(-1), Buffer.NC1HWC0: nc1hwc0.reshape(-1)}
    run_calls(layout_calls(geometry, Buffer.NCHW), buffers)
    return nchw[:, :channels, : geometry.pixels].reshape(batch, channels, height, width)


def _padded(array: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The array itself if it has the shape, else a zero buffer with it in the corner."""
    if array.shape == shape:
        return np.ascontiguousarray(array)
    buffer = np.zeros(shape, array.dtype)
    buffer[tuple(slice(0, size) for size in array.shape)] = array
    return buffer


class _LanePairing(NamedTuple):
    """Which NC1HWC0 and NCHW blocks (and halves, for 8-bit types) one call pairs up."""

    nc1hwc0_high_half: bool
    nchw_high_half: bool
    nc1hwc0_lanes: list[int]
    nchw_lanes: list[int]


def _lane_pairings(geometry: Nc1hwc0Geometry, batch: int, c1: int, forward: bool) -> Iterator[_LanePairing]:
    """
    The pairings that convert one channel group, for the repeat covering its first pixels.

    A repeat covers one block of every channel plane: 16 pixels of 16-bit, 8 of 32-bit
    and 32 of 8-bit data. 8-bit groups take four calls, one per (channel half, pixel
    half); 32-bit rows span two blocks, paired differently in the two directions.
    """
    planes = [geometry.plane(batch, c1 * geometry.c0 + channel) for channel in range(LANES)]
    rows = [geometry.group(batch, c1) + pixel * geometry.c0 for pixel in range(LANES)]
    if geometry.itemsize == 2:
        yield _LanePairing(False, False, rows, planes)
        return
    if geometry.itemsize == 4:
        row_halves = [row + high * geometry.block_elements for row in rows[:8] for high in (0, 1)]
        if forward:
            yield _LanePairing(False, False, row_halves, planes)
            return
        lows_then_highs = row_halves[0::2] + row_halves[1::2]
        interleaved_planes = [planes[channel + high * 8] for channel in range(8) for high in (0, 1)]
        yield _LanePairing(False, False, lows_then_highs, interleaved_planes)
        return
    for channel_half in (False, True):
        channel_planes = [plane + channel_half * LANES * geometry.padded_pixels for plane in planes]
        for pixel_half in (False, True):
            pixel_rows = [row + pixel_half * LANES * geometry.c0 for row in rows]
            yield _LanePairing(channel_half, pixel_half, pixel_rows, channel_planes)


def _repeated(
    geometry: Nc1hwc0Geometry,
    dst_buffer: Buffer,
    src_buffer: Buffer,
    dst_high_half: bool,
    src_high_half: bool,
    dst_list: list[int],
    src_list: list[int],
    dst_rep_stride: int,
    src_rep_stride: int,
) -> Iterator[VecTransScatterCall]:
    """One pairing repeated over all pixels, in calls of at most 255 repeats."""
    repeats = geometry.padded_pixels // geometry.block_elements
    for first in range(0, repeats, MAX_REPEAT_TIMES):
        count = min(MAX_REPEAT_TIMES, repeats - first)
        dst_shift = first * dst_rep_stride * geometry.block_elements
        src_shift = first * src_rep_stride * geometry.block_elements
        yield VecTransScatterCall(
            geometry.dtype,
            dst_buffer,
            src_buffer,
            dst_high_half,
            src_high_half,
            tuple(offset + dst_shift for offset in dst_list),
            tuple(offset + src_shift for offset in src_list),
            count,
            dst_rep_stride if count > 1 else 0,
            src_rep_stride if count > 1 else 0,
        )
