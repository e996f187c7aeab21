"""Tests for `vec_trans_scatter`: the vendor's examples, every error rule, properties."""

import json
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stc.dialects.isa.vec_trans_scatter_rules import VecTransScatterError
from stc.runtime.kernels.vec_trans_scatter import vec_trans_scatter

BLOCK = 32
DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.float16, np.int32, np.uint32, np.float32]
PROPERTY_SETTINGS = settings(max_examples=50, deadline=None)
MAX_REPEATS = 255
"""Property calls draw any repeat count; lanes stay within a few dozen blocks, strides
within 40, so buffers stay small and the byte-by-byte reference stays quick."""


def reference(
    dst: bytearray,
    src: bytes | bytearray,
    width: int,
    dst_high_half: bool,
    src_high_half: bool,
    dst_list: list[int],
    src_list: list[int],
    repeat_times: int,
    dst_rep_stride: int,
    src_rep_stride: int,
) -> None:
    """The instruction on raw bytes, spelled out lane by lane; dst may be src."""
    for repeat in range(repeat_times):
        dst_at = [offset * width + repeat * dst_rep_stride * BLOCK for offset in dst_list]
        src_at = [offset * width + repeat * src_rep_stride * BLOCK for offset in src_list]
        blocks = [bytes(src[address : address + BLOCK]) for address in src_at]
        if width == 1:
            dst_half = 16 if dst_high_half else 0
            src_half = 16 if src_high_half else 0
            for e in range(16):
                for k in range(16):
                    dst[dst_at[e] + dst_half + k] = blocks[k][src_half + e]
        elif width == 2:
            for e in range(16):
                for k in range(16):
                    dst[dst_at[e] + 2 * k : dst_at[e] + 2 * k + 2] = blocks[k][2 * e : 2 * e + 2]
        else:
            for j in range(8):
                for k in range(8):
                    low, high = dst_at[2 * j] + 4 * k, dst_at[2 * j + 1] + 4 * k
                    dst[low : low + 4] = blocks[k][4 * j : 4 * j + 4]
                    dst[high : high + 4] = blocks[k + 8][4 * j : 4 * j + 4]


def overlap_is_forbidden(
    width: int,
    dst_high_half: bool,
    src_high_half: bool,
    dst_list: list[int],
    src_list: list[int],
    repeat_times: int,
    dst_rep_stride: int,
    src_rep_stride: int,
) -> bool:
    """The vendor's overlap rules for one buffer, on sets of touched byte addresses: a
    repeat reading what it writes other than block for block, or a byte some repeat
    writes before a later repeat reads it."""

    def touched(offsets: list[int], stride: int, high: bool, repeat: int) -> set[int]:
        start, size = (16 if high else 0, 16) if width == 1 else (0, BLOCK)
        return {offset * width + repeat * stride * BLOCK + start + i for offset in offsets for i in range(size)}

    first_write: dict[int, int] = {}
    last_read: dict[int, int] = {}
    for r in range(repeat_times):
        writes = touched(dst_list, dst_rep_stride, dst_high_half, r)
        reads = touched(src_list, src_rep_stride, src_high_half, r)
        block_for_block = (width != 1 or dst_high_half == src_high_half) and all(
            d * width + r * dst_rep_stride * BLOCK == s * width + r * src_rep_stride * BLOCK
            for d, s in zip(dst_list, src_list, strict=True)
        )
        if writes & reads and not block_for_block:
            return True
        for byte in writes:
            first_write.setdefault(byte, r)
        last_read.update(dict.fromkeys(reads, r))
    return any(first_write[byte] < last_read[byte] for byte in first_write.keys() & last_read.keys())


def random_array(dtype: type, blocks: int, seed: int) -> np.ndarray:
    raw = np.random.default_rng(seed).integers(0, 256, blocks * BLOCK, dtype=np.uint8)
    return raw.view(dtype)


def blocks_to_offsets(blocks: list[int], dtype: type) -> list[int]:
    return [block * BLOCK // np.dtype(dtype).itemsize for block in blocks]


# The three examples of the vendor documentation.


def test_example_1_int8_high_source_halves_into_low_destination_halves():
    src = (np.arange(1536) % 128).astype(np.int8)
    dst = np.zeros(1536, np.int8)
    blocks = [32 * i for i in range(16)]
    vec_trans_scatter(dst, src, False, True, blocks, blocks, 3, 16, 16)

    lane, column = np.ogrid[:16, :16]
    expected = np.zeros((3, 32, 16), np.int8)
    expected[:, 0::2, :] = (32 * column + 16 + lane) % 128
    np.testing.assert_array_equal(dst.reshape(3, 32, 16), expected)
    assert dst[:16].tolist() == [16, 48, 80, 112] * 4


def test_example_2_float16_transposes_each_repeat():
    src = np.arange(768).astype(np.float16)
    dst = np.full(768, np.nan, np.float16)
    blocks = [16 * i for i in range(16)]
    vec_trans_scatter(dst, src, False, False, blocks, blocks, 3, 16, 16)

    expected = src.reshape(3, 16, 16).transpose(0, 2, 1)
    np.testing.assert_array_equal(dst.reshape(3, 16, 16), expected)
    assert dst[16:32].tolist() == list(range(1, 256, 16))


def test_example_3_int32_48x16_to_16x48_in_six_calls():
    src = np.arange(768, dtype=np.int32)
    dst = np.ones(768, np.int32)
    for column_half in range(2):
        for j in range(3):
            src_list = [16 * i + 256 * j + 8 * column_half for i in range(16)]
            dst_list = [48 * (i // 2) + 8 * (i % 2) + 16 * j + 384 * column_half for i in range(16)]
            vec_trans_scatter(dst, src, False, False, dst_list, src_list, 1, 0, 0)

    np.testing.assert_array_equal(dst.reshape(16, 48), src.reshape(48, 16).T)
    assert dst[:48].tolist() == list(range(0, 768, 16))


VENDOR_EXAMPLES = json.loads((Path(__file__).parent / "data" / "vec_trans_scatter_examples.json").read_text())
"""The examples' printed input and output arrays, copied from the vendor page (see the file's "about")."""


@pytest.mark.parametrize("example", VENDOR_EXAMPLES["examples"], ids=lambda example: example["name"][:9])
def test_vendor_examples_element_for_element(example: dict[str, Any]):
    dtype = np.dtype(example["dtype"])
    src = np.array(example["src"], dtype).reshape(-1)
    size = int(np.prod(example["dst_shape"]))
    fill = example["dst_fill"]
    dst = np.full(size, np.nan if fill is None else fill, dtype)
    for call in example["calls"]:
        vec_trans_scatter(dst, src, **call)
    expected = np.array(example["dst"], dtype).reshape(example["dst_shape"])
    np.testing.assert_array_equal(dst.reshape(example["dst_shape"]), expected)


# Semantics beyond the examples.


def test_repeat_zero_is_a_no_op():
    dst = random_array(np.int16, 32, seed=1)
    before = dst.copy()
    blocks = [16 * i for i in range(16)]
    vec_trans_scatter(dst, random_array(np.int16, 32, 2), False, False, blocks, blocks, 0, 5, 7)
    np.testing.assert_array_equal(dst, before)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_float_payloads_move_as_raw_bits(dtype: type):
    width = np.dtype(dtype).itemsize
    signalling_nan_bits = 0x7C01 if width == 2 else 0x7F800001
    src = (np.arange(BLOCK * 16 // width, dtype=f"u{width}") | signalling_nan_bits).view(dtype)
    dst = np.zeros_like(src)
    blocks = blocks_to_offsets(list(range(16)), dtype)
    vec_trans_scatter(dst, src, False, False, blocks, blocks, 1, 0, 0)

    expected = bytearray(BLOCK * 16)
    reference(expected, src.tobytes(), width, False, False, blocks, blocks, 1, 0, 0)
    assert dst.tobytes() == bytes(expected)


@pytest.mark.parametrize("dst_high_half", [False, True])
def test_int8_keeps_the_unselected_destination_half(dst_high_half: bool):
    dst = np.full(512, 0x5A, np.uint8)
    src = (np.arange(512) % 256).astype(np.uint8)
    blocks = [32 * i for i in range(16)]
    vec_trans_scatter(dst, src, dst_high_half, False, blocks, blocks, 1, 0, 0)

    kept = dst.reshape(16, 2, 16)[:, 0 if dst_high_half else 1, :]
    written = dst.reshape(16, 2, 16)[:, 1 if dst_high_half else 0, :]
    assert (kept == 0x5A).all()
    np.testing.assert_array_equal(written, src.reshape(16, 2, 16)[:, 0, :].T)


@pytest.mark.parametrize("dtype", [np.int16, np.int32])
def test_half_flags_are_ignored_above_8_bits(dtype: type):
    src = random_array(dtype, 16, seed=3)
    plain, flagged = np.zeros_like(src), np.zeros_like(src)
    blocks = blocks_to_offsets(list(range(16)), dtype)
    vec_trans_scatter(plain, src, False, False, blocks, blocks, 1, 0, 0)
    vec_trans_scatter(flagged, src, True, True, blocks, blocks, 1, 0, 0)
    np.testing.assert_array_equal(plain, flagged)


def test_later_repeat_overwrites_an_earlier_one_with_destination_stride_0():
    src = random_array(np.int16, 48, seed=4)
    dst = np.zeros(256, np.int16)
    blocks = [16 * i for i in range(16)]
    vec_trans_scatter(dst, src, False, False, blocks, blocks, 3, 0, 16)
    np.testing.assert_array_equal(dst.reshape(16, 16), src[512:].reshape(16, 16).T)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("repeat_times", [1, 3])
def test_in_place_with_block_for_block_overlap(dtype: type, repeat_times: int):
    buffer = random_array(dtype, 48, seed=5)
    expected = bytearray(buffer.tobytes())
    width = buffer.itemsize
    blocks = blocks_to_offsets(list(range(15, -1, -1)), dtype)
    stride = 16 if repeat_times > 1 else 0
    vec_trans_scatter(buffer, buffer, True, True, blocks, blocks, repeat_times, stride, stride)
    reference(expected, expected, width, True, True, blocks, blocks, repeat_times, stride, stride)
    assert buffer.tobytes() == bytes(expected)


def test_in_place_int8_between_the_two_halves_of_the_same_blocks():
    buffer = random_array(np.int8, 16, seed=6)
    expected = bytearray(buffer.tobytes())
    blocks = [32 * i for i in range(16)]
    vec_trans_scatter(buffer, buffer, True, False, blocks, blocks[::-1], 1, 0, 0)
    reference(expected, expected, 1, True, False, blocks, blocks[::-1], 1, 0, 0)
    assert buffer.tobytes() == bytes(expected)


def test_a_later_repeat_may_overwrite_what_an_earlier_one_read():
    buffer = random_array(np.int16, 48, seed=7)
    expected = bytearray(buffer.tobytes())
    dst_list = [16 * i for i in range(16)]
    src_list = [256 + 16 * i for i in range(16)]
    vec_trans_scatter(buffer, buffer, False, False, dst_list, src_list, 2, 16, 16)
    reference(expected, expected, 2, False, False, dst_list, src_list, 2, 16, 16)
    assert buffer.tobytes() == bytes(expected)


# Every error rule.

ROWS = [16 * i for i in range(16)]


def call_with(**changes: Any) -> None:
    """A valid int16 call (two repeats over a 64-block buffer) with some arguments changed."""
    arguments: dict[str, Any] = {
        "dst": np.zeros(1024, np.int16),
        "src": np.zeros(1024, np.int16),
        "dst_high_half": False,
        "src_high_half": False,
        "dst_list": ROWS,
        "src_list": ROWS,
        "repeat_times": 2,
        "dst_rep_stride": 16,
        "src_rep_stride": 16,
    }
    vec_trans_scatter(**(arguments | changes))


def test_the_valid_call_is_valid():
    call_with()


def read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"dst": [0] * 1024}, r"dst must be a numpy array, got list"),
        ({"dst": np.zeros((32, 32), np.int16)}, r"dst must be a contiguous 1-D array"),
        ({"src": np.zeros(2048, np.int16)[::2]}, r"src must be a contiguous 1-D array"),
        ({"src": np.zeros(1024, np.float16)}, r"same dtype, got int16 and float16"),
        (
            {"dst": np.zeros(512, np.float64), "src": np.zeros(512, np.float64)},
            r"dtype float64 is not supported",
        ),
        ({"dst": np.zeros(2048, bool), "src": np.zeros(2048, bool)}, r"dtype bool"),
        ({"dst_high_half": 1}, r"dst_high_half must be a bool, got 1"),
        ({"src_high_half": None}, r"src_high_half must be a bool"),
        ({"dst_list": ROWS[:15]}, r"dst_list must hold 16 element offsets, got shape \(15,\)"),
        ({"src_list": [float(o) for o in ROWS]}, r"src_list must hold integer element offsets"),
        ({"src_list": ROWS[:3] + [-16] + ROWS[4:]}, r"src_list\[3\] = -16 is negative"),
        (
            {"dst_list": ROWS[:5] + [88] + ROWS[6:]},
            r"dst_list\[5\] = 88 is byte address 176, not a multiple of the 32-byte block",
        ),
        (
            {
                "dst": np.zeros(512, np.int32),
                "src": np.zeros(512, np.int32),
                "src_list": ROWS[:1] + [4] + ROWS[2:],
            },
            r"src_list\[1\] = 4 is byte address 16",
        ),
        (
            {"dst_list": ROWS[:7] + [ROWS[2]] + ROWS[8:]},
            r"dst_list\[2\] and dst_list\[7\] both name byte address 64",
        ),
        (
            {
                "dst": np.zeros(512, np.int32),
                "src": np.zeros(512, np.int32),
                "dst_list": [2**62] + ROWS[1:],
            },
            r"dst_list\[0\] at repeat 1 touches bytes \[18446744073709552128, 18446744073709552160\) "
            r"but dst holds 2048 bytes",
        ),
        (
            {"src_list": np.array([2**63, *ROWS[1:]], np.uint64)},
            r"src_list\[0\] at repeat 1 touches bytes \[18446744073709552128, 18446744073709552160\) "
            r"but src holds 2048 bytes",
        ),
        ({"dst": read_only(np.zeros(1024, np.int16))}, r"dst must be writeable, got a read-only array"),
        ({"repeat_times": 256}, r"repeat_times = 256 is outside \[0, 255\]"),
        ({"repeat_times": -1}, r"repeat_times = -1 is outside \[0, 255\]"),
        ({"repeat_times": 2.0}, r"repeat_times must be an integer, got 2.0"),
        ({"repeat_times": True}, r"repeat_times must be an integer, got True"),
        ({"dst_rep_stride": 65536}, r"dst_rep_stride = 65536 is outside \[0, 65535\]"),
        ({"src_rep_stride": -1}, r"src_rep_stride = -1 is outside \[0, 65535\]"),
        (
            {"repeat_times": 1, "dst_rep_stride": 3, "src_rep_stride": 0},
            r"repeat_times = 1 with dst_rep_stride = 3 and src_rep_stride = 0",
        ),
        (
            {"repeat_times": 1, "dst_rep_stride": 0, "src_rep_stride": 1},
            r"repeat_times = 1 with dst_rep_stride = 0 and src_rep_stride = 1",
        ),
        (
            {"repeat_times": 5},
            r"dst_list\[15\] at repeat 4 touches bytes \[2528, 2560\) but dst holds 2048 bytes",
        ),
        (
            {"src": np.zeros(500, np.int16)},
            r"src_list\[15\] at repeat 1 touches bytes \[992, 1024\) but src holds 1000 bytes",
        ),
    ],
)
def test_error(changes: dict[str, Any], message: str):
    with pytest.raises(VecTransScatterError, match=message):
        call_with(**changes)


def test_int8_range_counts_only_the_selected_half():
    dst, src = np.zeros(1024, np.int8), np.zeros(1024 - 16, np.int8)
    blocks = [32 * i for i in range(16)]
    last = blocks[:15] + [31 * 32]
    vec_trans_scatter(dst, src, False, False, blocks, last, 1, 0, 0)
    message = r"src_list\[15\] at repeat 0 touches bytes \[1008, 1024\)"
    with pytest.raises(VecTransScatterError, match=message):
        vec_trans_scatter(dst, src, False, True, blocks, last, 1, 0, 0)


@pytest.mark.parametrize(
    ("dtype", "halves", "dst_blocks", "src_blocks", "repeats", "strides", "message"),
    [
        (np.int16, (False, False), range(1, 17), range(16), 1, (0, 0), r"partial overlap"),
        (np.int32, (False, False), range(15, -1, -1), range(16), 1, (0, 0), r"partial overlap"),
        (np.int8, (True, True), range(1, 17), range(16), 1, (0, 0), r"bytes \[48, 64\)"),
        (np.int16, (False, False), range(16), range(16), 2, (16, 15), r"at repeat 1 bytes"),
        (
            np.int16,
            (False, False),
            range(16),
            range(16),
            2,
            (1, 1),
            r"repeat 0 writes bytes \[32, 48\) that repeat 1 reads later",
        ),
        (
            np.int8,
            (False, False),
            range(16, 32),
            range(16),
            2,
            (16, 16),
            r"repeat 0 writes bytes \[512, 528\) that repeat 1 reads later",
        ),
    ],
)
def test_forbidden_overlap_in_one_buffer(
    dtype: type,
    halves: tuple[bool, bool],
    dst_blocks: range,
    src_blocks: range,
    repeats: int,
    strides: tuple[int, int],
    message: str,
):
    buffer = np.zeros(80 * BLOCK // np.dtype(dtype).itemsize, dtype)
    dst_list = blocks_to_offsets(list(dst_blocks), dtype)
    src_list = blocks_to_offsets(list(src_blocks), dtype)
    with pytest.raises(VecTransScatterError, match=message):
        vec_trans_scatter(buffer, buffer, *halves, dst_list, src_list, repeats, *strides)


def test_in_place_checks_cost_the_blocks_touched_not_the_address():
    """A call 15 MB into a 16 MB buffer (a machine's local memory) allocates about what
    one at address 0 does, and its errors still name the absolute bytes."""
    memory = np.zeros(16 * 2**20, np.int8)
    high = 15 * 2**20
    rows = [high + 32 * lane for lane in range(16)]
    planes = [high + 512 * 255 + 255 * 32 * lane for lane in range(16)]
    tracemalloc.start()
    vec_trans_scatter(memory, memory, False, False, planes, rows, 255, 1, 16)
    vec_trans_scatter(memory, memory, True, True, rows, rows, 255, 16, 16)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 2**21
    overlapping = [high + 32 + 32 * lane for lane in range(16)]
    with pytest.raises(VecTransScatterError, match=rf"at repeat 0 bytes \[{high + 32}, {high + 48}\)"):
        vec_trans_scatter(memory, memory, False, False, overlapping, rows, 1, 0, 0)


def test_views_sharing_memory_from_different_starts_are_refused():
    buffer = np.zeros(2048, np.int16)
    with pytest.raises(VecTransScatterError, match=r"share memory but start 64 bytes apart"):
        vec_trans_scatter(buffer[32:], buffer[:-32], False, False, ROWS, ROWS, 1, 0, 0)


# Properties against the reference.


@st.composite
def separate_buffer_calls(draw: st.DrawFn) -> dict[str, Any]:
    dtype = draw(st.sampled_from(DTYPES))
    repeat_times = draw(st.integers(0, MAX_REPEATS))
    fixed = repeat_times == 1
    dst_stride = 0 if fixed else draw(st.integers(0, 40))
    src_stride = 0 if fixed else draw(st.integers(0, 40))
    dst_blocks = draw(st.lists(st.integers(0, 39), min_size=16, max_size=16, unique=True))
    src_blocks = draw(st.lists(st.integers(0, 39), min_size=16, max_size=16))
    reach = 40 + max(repeat_times - 1, 0) * max(dst_stride, src_stride)
    return {
        "dtype": dtype,
        "blocks": reach + draw(st.integers(0, 2)),
        "seed": draw(st.integers(0, 2**32 - 1)),
        "dst_high_half": draw(st.booleans()),
        "src_high_half": draw(st.booleans()),
        "dst_list": blocks_to_offsets(dst_blocks, dtype),
        "src_list": blocks_to_offsets(src_blocks, dtype),
        "repeat_times": repeat_times,
        "dst_rep_stride": dst_stride,
        "src_rep_stride": src_stride,
    }


@PROPERTY_SETTINGS
@given(separate_buffer_calls())
def test_matches_reference_between_separate_buffers(call: dict[str, Any]):
    dtype, blocks, seed = call.pop("dtype"), call.pop("blocks"), call.pop("seed")
    dst, src = random_array(dtype, blocks, seed), random_array(dtype, blocks, seed + 1)
    expected = bytearray(dst.tobytes())
    reference(expected, src.tobytes(), dst.itemsize, *call.values())
    vec_trans_scatter(dst, src, *call.values())
    assert dst.tobytes() == bytes(expected)


@st.composite
def shared_buffer_calls(draw: st.DrawFn) -> dict[str, Any]:
    dtype = draw(st.sampled_from(DTYPES))
    repeat_times = draw(st.integers(1, MAX_REPEATS))
    fixed = repeat_times == 1
    dst_stride = 0 if fixed else draw(st.integers(0, 20))
    src_stride = dst_stride if fixed or draw(st.booleans()) else draw(st.integers(0, 20))
    dst_blocks = draw(st.lists(st.integers(0, 23), min_size=16, max_size=16, unique=True))
    shift = draw(st.sampled_from([0, 0, 1, 16, 24, None]))
    src_blocks = (
        draw(st.lists(st.integers(0, 47), min_size=16, max_size=16))
        if shift is None
        else [block + shift for block in dst_blocks]
    )
    return {
        "dtype": dtype,
        "blocks": 48 + (repeat_times - 1) * max(dst_stride, src_stride),
        "seed": draw(st.integers(0, 2**32 - 1)),
        "dst_high_half": draw(st.booleans()),
        "src_high_half": draw(st.booleans()),
        "dst_list": blocks_to_offsets(dst_blocks, dtype),
        "src_list": blocks_to_offsets(src_blocks, dtype),
        "repeat_times": repeat_times,
        "dst_rep_stride": dst_stride,
        "src_rep_stride": src_stride,
    }


@PROPERTY_SETTINGS
@given(shared_buffer_calls())
def test_one_buffer_is_either_refused_or_matches_reference(call: dict[str, Any]):
    dtype, blocks, seed = call.pop("dtype"), call.pop("blocks"), call.pop("seed")
    buffer = random_array(dtype, blocks, seed)
    width = buffer.itemsize
    if overlap_is_forbidden(width, *call.values()):
        with pytest.raises(VecTransScatterError, match=r"overlap|reads later"):
            vec_trans_scatter(buffer, buffer, *call.values())
        return
    expected = bytearray(buffer.tobytes())
    reference(expected, expected, width, *call.values())
    vec_trans_scatter(buffer, buffer, *call.values())
    assert buffer.tobytes() == bytes(expected)
