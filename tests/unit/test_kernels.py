"""The numpy kernels against deliberately naive loop references."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stc.runtime import kernels


def naive_conv(x, w, stride, pad, dilation):
    n, h, wd, c = x.shape
    f, ky, kx, _ = w.shape
    out_h = (h + pad[0] + pad[1] - dilation[0] * (ky - 1) - 1) // stride[0] + 1
    out_w = (wd + pad[2] + pad[3] - dilation[1] * (kx - 1) - 1) // stride[1] + 1
    out = np.zeros((n, out_h, out_w, f), dtype=np.int64)
    for b in range(n):
        for oy in range(out_h):
            for ox in range(out_w):
                for i in range(ky):
                    for j in range(kx):
                        y = oy * stride[0] + i * dilation[0] - pad[0]
                        xx = ox * stride[1] + j * dilation[1] - pad[2]
                        if 0 <= y < h and 0 <= xx < wd:
                            out[b, oy, ox] += w[:, i, j, :].astype(np.int64) @ x[b, y, xx].astype(np.int64)
    return out


def naive_window(x, window, stride, pad, reduce, fill):
    n, h, w, c = x.shape
    out_h = (h + pad[0] + pad[1] - window[0]) // stride[0] + 1
    out_w = (w + pad[2] + pad[3] - window[1]) // stride[1] + 1
    out = np.zeros((n, out_h, out_w, c), dtype=np.int64)
    for oy in range(out_h):
        for ox in range(out_w):
            cells = []
            for i in range(window[0]):
                for j in range(window[1]):
                    y, xx = oy * stride[0] + i - pad[0], ox * stride[1] + j - pad[2]
                    inside = 0 <= y < h and 0 <= xx < w
                    cells.append(x[:, y, xx].astype(np.int64) if inside else np.full((n, c), fill))
            out[:, oy, ox] = reduce(np.stack(cells), axis=0)
    return out


def int8(rng, shape, extreme=False):
    if extreme:
        return rng.choice(np.array([-128, 127], dtype=np.int8), size=shape)
    return rng.integers(-128, 128, size=shape, dtype=np.int8)


conv_cases = st.fixed_dictionaries(
    {
        "n": st.integers(1, 2),
        "c": st.integers(1, 9),
        "f": st.integers(1, 6),
        "ky": st.integers(1, 4),
        "kx": st.integers(1, 4),
        "stride": st.tuples(st.integers(1, 3), st.integers(1, 3)),
        "dilation": st.tuples(st.integers(1, 3), st.integers(1, 3)),
        "pad": st.tuples(*[st.integers(0, 3)] * 4),
        "extra": st.tuples(st.integers(0, 5), st.integers(0, 5)),
        "extreme": st.booleans(),
        "seed": st.integers(0, 2**32 - 1),
    }
)


@settings(max_examples=60, deadline=None)
@given(conv_cases)
def test_conv2d_matches_naive_loops(case):
    rng = np.random.default_rng(case["seed"])
    extent = [case["dilation"][a] * (k - 1) + 1 for a, k in enumerate((case["ky"], case["kx"]))]
    h, w = extent[0] + case["extra"][0], extent[1] + case["extra"][1]
    x = int8(rng, (case["n"], h, w, case["c"]), case["extreme"])
    weights = int8(rng, (case["f"], case["ky"], case["kx"], case["c"]), case["extreme"])
    got = kernels.conv2d(x, weights, case["stride"], case["pad"], case["dilation"])
    assert np.array_equal(got, naive_conv(x, weights, case["stride"], case["pad"], case["dilation"]))


@pytest.mark.parametrize("channels", [1023, 1024, 1025, 4608])
def test_long_reductions_at_the_int8_extremes_stay_exact(channels):
    x = np.full((1, 1, 1, channels), -128, dtype=np.int8)
    w = np.stack([np.full((1, 1, channels), -128), np.full((1, 1, channels), 127)]).astype(np.int8)
    got = kernels.conv2d(x, w)
    assert got.tolist() == [[[[channels * 16384, channels * -16256]]]]
    assert kernels.fully_connected(x, w).tolist() == got.tolist()


def test_conv_with_a_long_random_reduction_is_exact():
    rng = np.random.default_rng(2)
    x = int8(rng, (1, 5, 5, 600))  # 3x3x600 = 5400 terms per output: six float32 chunks
    w = int8(rng, (3, 3, 3, 600))
    assert np.array_equal(
        kernels.conv2d(x, w, (1, 1), (1, 0, 0, 1), (1, 1)), naive_conv(x, w, (1, 1), (1, 0, 0, 1), (1, 1))
    )


def test_exact_beyond_float32_mantissa():
    rng = np.random.default_rng(1)
    x = int8(rng, (3, 5, 5, 300), extreme=True)
    w = int8(rng, (4, 5, 5, 300), extreme=True)
    expected = np.einsum("nhwr,fhwr->nf", x.astype(np.int64), w.astype(np.int64))
    assert np.array_equal(kernels.fully_connected(x, w)[:, 0, 0, :], expected)


window_cases = st.fixed_dictionaries(
    {
        "window": st.tuples(st.integers(1, 4), st.integers(1, 4)),
        "stride": st.tuples(st.integers(1, 3), st.integers(1, 3)),
        "pad": st.tuples(*[st.integers(0, 3)] * 4),
        "extra": st.tuples(st.integers(0, 5), st.integers(0, 5)),
        "wide": st.booleans(),
        "seed": st.integers(0, 2**32 - 1),
    }
)


@settings(max_examples=60, deadline=None)
@given(window_cases)
def test_window_reductions_match_naive_loops(case):
    rng = np.random.default_rng(case["seed"])
    window, stride = case["window"], case["stride"]
    pad = [min(p, window[i // 2] - 1) for i, p in enumerate(case["pad"])]
    shape = (2, window[0] + case["extra"][0], window[1] + case["extra"][1], 3)
    dtype = np.int32 if case["wide"] else np.int8
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    assert np.array_equal(kernels.window_sum(x, window, stride, pad), naive_window(x, window, stride, pad, np.sum, 0))
    assert np.array_equal(
        kernels.window_max(x, window, stride, pad), naive_window(x, window, stride, pad, np.max, info.min)
    )


def test_a_stride_or_dilation_that_selects_nothing_more_may_be_any_size():
    # One window per axis makes the stride irrelevant, a 1x1 kernel the dilation: the
    # window count and taps follow from array shapes, never from products of these numbers.
    rng = np.random.default_rng(2)
    x = int8(rng, (1, 3, 3, 4))
    w = int8(rng, (2, 1, 1, 4))
    huge = (2**63 - 1, 2**63 - 1)
    assert np.array_equal(kernels.conv2d(x, w, huge, (0, 0, 0, 0), huge), kernels.conv2d(x, w, (3, 3)))
    assert np.array_equal(kernels.window_sum(x, (3, 3), huge, (0, 0, 0, 0)), x.sum(axis=(1, 2), keepdims=True))


def test_saturate_shift_floors_then_clips():
    acc = np.array([-(2**40), -9, -8, -1, 0, 7, 8, 1023, 2**40])
    assert kernels.saturate_shift(acc, 3, 8).tolist() == [-128, -2, -1, -1, 0, 0, 1, 127, 127]
    assert kernels.saturate_shift(acc, 0, 32).tolist() == [-(2**31), -9, -8, -1, 0, 7, 8, 1023, 2**31 - 1]


def test_lookup_indexes_by_the_unsigned_byte():
    table = np.arange(256).astype(np.uint8).view(np.int8)[::-1].copy()
    x = np.array([0, 1, 127, -128, -1], dtype=np.int8)
    assert kernels.lookup(x, table).tolist() == [table[0], table[1], table[127], table[128], table[255]]
