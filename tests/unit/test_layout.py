"""Tests for the NCHW <-> NC1HWC0 transforms built from `vec_trans_scatter`."""

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stc.runtime.kernels.layout import (
    Buffer,
    Nc1hwc0Geometry,
    VecTransScatterCall,
    layout_calls,
    nc1hwc0_to_nchw,
    nchw_to_nc1hwc0,
    run_calls,
)

DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.float16, np.int32, np.uint32, np.float32]


def random_array(shape: tuple[int, ...], dtype: type, seed: int) -> np.ndarray:
    """Random raw bits, so float types include NaNs with arbitrary payloads."""
    width = np.dtype(dtype).itemsize
    size = int(np.prod(shape)) * width
    raw = np.random.default_rng(seed).integers(0, 256, size, dtype=np.uint8)
    return raw.view(dtype).reshape(shape)


def c0_of(dtype: type) -> int:
    return 32 if np.dtype(dtype).itemsize == 1 else 16


def nc1hwc0_by_numpy(x: np.ndarray) -> np.ndarray:
    batch, channels, height, width = x.shape
    c0 = c0_of(x.dtype)
    c1 = -(-channels // c0)
    padded = np.zeros((batch, c1 * c0, height, width), x.dtype)
    padded[:, :channels] = x
    return padded.reshape(batch, c1, c0, height, width).transpose(0, 1, 3, 4, 2)


def nchw_by_numpy(y: np.ndarray, channels: int) -> np.ndarray:
    batch, c1, height, width, c0 = y.shape
    nchw = y.transpose(0, 1, 4, 2, 3).reshape(batch, c1 * c0, height, width)
    return nchw[:, :channels]


def assert_same_bits(actual: np.ndarray, expected: np.ndarray) -> None:
    assert actual.shape == expected.shape
    assert actual.dtype == expected.dtype
    assert actual.tobytes() == np.ascontiguousarray(expected).tobytes()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(
    "shape",
    [(1, 16, 4, 8), (1, 32, 2, 16), (2, 17, 3, 5), (1, 33, 1, 1), (2, 40, 7, 9), (1, 3, 6, 6)],
)
def test_round_trip_against_numpy(dtype: type, shape: tuple[int, int, int, int]):
    x = random_array(shape, dtype, seed=sum(shape))
    y = nchw_to_nc1hwc0(x)
    assert_same_bits(y, nc1hwc0_by_numpy(x))
    assert_same_bits(nc1hwc0_to_nchw(y, shape[1]), x)


@settings(max_examples=50, deadline=None)
@given(
    dtype=st.sampled_from(DTYPES),
    shape=st.tuples(st.integers(1, 2), st.integers(1, 70), st.integers(1, 9), st.integers(1, 9)),
    seed=st.integers(0, 2**32 - 1),
)
def test_transforms_match_numpy(dtype: type, shape: tuple[int, int, int, int], seed: int):
    x = random_array(shape, dtype, seed)
    assert_same_bits(nchw_to_nc1hwc0(x), nc1hwc0_by_numpy(x))

    batch, channels, height, width = shape
    c0 = c0_of(dtype)
    y = random_array((batch, -(-channels // c0), height, width, c0), dtype, seed + 1)
    assert_same_bits(nc1hwc0_to_nchw(y, channels), nchw_by_numpy(y, channels))


def test_padding_channels_are_zero():
    x = np.full((1, 17, 2, 3), np.nan, np.float16)
    y = nchw_to_nc1hwc0(x)
    assert y.shape == (1, 2, 2, 3, 16)
    assert np.isnan(y[:, 1, :, :, 0]).all()
    assert (y[:, 1, :, :, 1:] == 0).all()


def test_geometry_pads_pixels_to_whole_blocks():
    geometry = Nc1hwc0Geometry.from_nchw((2, 20, 5, 5), np.int32)
    assert (geometry.c0, geometry.c1, geometry.padded_pixels) == (16, 2, 32)
    assert geometry.nchw_shape == (2, 32, 32)
    assert geometry.nc1hwc0_shape == (2, 2, 32, 16)
    assert Nc1hwc0Geometry.from_nchw((1, 20, 5, 5), np.uint8).padded_pixels == 32
    assert Nc1hwc0Geometry.from_nchw((1, 20, 5, 5), np.float16).padded_pixels == 32


def test_float16_forward_plan():
    geometry = Nc1hwc0Geometry.from_nchw((1, 16, 8, 8), np.float16)
    assert layout_calls(geometry, Buffer.NC1HWC0) == [
        VecTransScatterCall(
            dtype=np.dtype(np.float16),
            dst_buffer=Buffer.NC1HWC0,
            src_buffer=Buffer.NCHW,
            dst_high_half=False,
            src_high_half=False,
            dst_list=tuple(range(0, 256, 16)),
            src_list=tuple(range(0, 1024, 64)),
            repeat_times=4,
            dst_rep_stride=16,
            src_rep_stride=1,
        )
    ]


def test_float32_backward_plan_pairs_low_and_high_channel_blocks():
    geometry = Nc1hwc0Geometry.from_nchw((1, 16, 4, 4), np.float32)
    (call,) = layout_calls(geometry, Buffer.NCHW)
    assert call.src_list == tuple(range(0, 128, 16)) + tuple(range(8, 128, 16))
    assert call.dst_list == tuple(16 * (j + 8 * high) for j in range(8) for high in (0, 1))
    assert (call.repeat_times, call.dst_rep_stride, call.src_rep_stride) == (2, 1, 16)


def test_int8_uses_four_calls_per_channel_group():
    geometry = Nc1hwc0Geometry.from_nchw((1, 64, 8, 8), np.int8)
    calls = layout_calls(geometry, Buffer.NC1HWC0)
    assert len(calls) == 2 * 4
    halves = [(call.dst_high_half, call.src_high_half) for call in calls[:4]]
    assert sorted(halves) == [(False, False), (False, True), (True, False), (True, True)]
    assert all(call.repeat_times == 2 and call.dst_rep_stride == 32 for call in calls)


def test_long_planes_split_into_calls_of_at_most_255_repeats():
    shape = (1, 16, 64, 64 + 4)
    geometry = Nc1hwc0Geometry.from_nchw(shape, np.float16)
    calls = layout_calls(geometry, Buffer.NC1HWC0)
    assert [call.repeat_times for call in calls] == [255, 17]
    assert calls[1].src_list[0] == 255 * 16
    assert calls[1].dst_list[0] == 255 * 16 * 16

    x = random_array(shape, np.float16, seed=9)
    assert_same_bits(nchw_to_nc1hwc0(x), nc1hwc0_by_numpy(x))


def test_a_single_repeat_chunk_has_strides_0():
    shape = (1, 16, 32, 256)
    calls = layout_calls(Nc1hwc0Geometry.from_nchw(shape, np.int8), Buffer.NCHW)
    repeats = [(call.repeat_times, call.dst_rep_stride, call.src_rep_stride) for call in calls]
    assert repeats == [(255, 1, 32), (1, 0, 0)] * 4

    y = random_array((1, 1, 32, 256, 32), np.int8, seed=10)
    assert_same_bits(nc1hwc0_to_nchw(y, 16), nchw_by_numpy(y, 16))


def test_calls_record_their_dtype_and_run_only_on_buffers_of_it():
    geometry = Nc1hwc0Geometry.from_nchw((1, 20, 3, 5), np.uint16)
    calls = layout_calls(geometry, Buffer.NC1HWC0)
    assert {call.dtype for call in calls} == {np.dtype(np.uint16)}
    assert geometry.staging_bytes == 32 * 16 * 2
    buffers = {Buffer.NCHW: np.zeros(2 * 32 * 16, np.int8), Buffer.NC1HWC0: np.zeros(2 * 32 * 16, np.int8)}
    with pytest.raises(ValueError, match="a call on uint16 got int8 and int8 buffers"):
        run_calls(calls, buffers)


def test_calls_are_frozen_plain_data():
    call = layout_calls(Nc1hwc0Geometry.from_nchw((1, 1, 4, 4), np.int16), Buffer.NC1HWC0)[0]
    assert attrs.asdict(call)["repeat_times"] == 1
    assert hash(call) == hash(attrs.evolve(call))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        call.repeat_times = 2  # type: ignore[misc]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: nchw_to_nc1hwc0(np.zeros((1, 2, 3, 4), np.float64)), r"dtype float64"),
        (lambda: nchw_to_nc1hwc0(np.zeros((2, 3, 4), np.int8)), r"NCHW shape"),
        (lambda: nchw_to_nc1hwc0(np.zeros((1, 0, 4, 4), np.int8)), r"NCHW shape"),
        (lambda: nc1hwc0_to_nchw(np.zeros((1, 2, 3, 4), np.int8), 4), r"NC1HWC0 shape"),
        (
            lambda: nc1hwc0_to_nchw(np.zeros((1, 1, 2, 2, 16), np.int8), 4),
            r"4 channels of int8 need C1 = 1 and C0 = 32, got C1 = 1 and C0 = 16",
        ),
        (
            lambda: nc1hwc0_to_nchw(np.zeros((1, 1, 2, 2, 16), np.int16), 17),
            r"need C1 = 2 and C0 = 16, got C1 = 1",
        ),
    ],
)
def test_bad_shapes_and_dtypes(call, message: str):
    with pytest.raises(ValueError, match=message):
        call()
