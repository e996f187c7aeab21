"""
The vendor's `vec_trans_scatter` instruction (VNCHWCONV) on numpy arrays.

An array stands for a Unified Buffer tensor whose first byte is 32-byte aligned. List
entries are element offsets into it, so an entry's byte address is offset * itemsize and
must start a 32-byte block. One repeat moves 16 lanes of one block each:

- 16-bit types: the 16 x 16 tile is transposed; element e of source block k becomes
  element k of destination block e.
- 32-bit types: the 16 x 8 tile is transposed into 8 rows of 16 elements; row j fills
  the destination block pair (2j, 2j + 1).
- 8-bit types: the chosen 16-byte halves of the source blocks are transposed into the
  chosen halves of the destination blocks; the other halves keep their bytes.

Where the vendor leaves a call undefined, the model refuses it rather than pick an
outcome. Two rules are the model's own choices, not the vendor's: the 16 destination
blocks of a repeat must be distinct (the vendor does not say in which order lanes
write, so two lanes naming one block have no defined result), and a repeat reads all
of its source blocks before it writes (which only matters for the block-for-block
in-place call the vendor allows). `repeat_times = 1` with non-zero strides is refused
because the vendor's documents disagree on whether the strides apply.

The constants, the dtype table and the argument checks live with the `isa` dialect
(`stc.dialects.isa.vec_trans_scatter_rules`), whose verifier applies the same rules to
`isa.vec_trans_scatter`.
"""

from collections.abc import Sequence

import numpy as np

from stc.dialects.isa.vec_trans_scatter_rules import (
    BLOCK_BYTES,
    HALF_BLOCK_BYTES,
    LANES,
    SUPPORTED_DTYPES,
    VecTransScatterError,
    check_distinct_destinations,
    check_repeats,
    half_offset,
    lane_addresses,
    lane_bytes,
)


def vec_trans_scatter(
    dst: np.ndarray,
    src: np.ndarray,
    dst_high_half: bool,
    src_high_half: bool,
    dst_list: Sequence[int],
    src_list: Sequence[int],
    repeat_times: int,
    dst_rep_stride: int,
    src_rep_stride: int,
) -> None:
    """
    Run one `vec_trans_scatter` from `src` into `dst`, which may be the same array.

    Repeat r uses the list addresses advanced by r * stride * 32 bytes and reads all of
    its source blocks before it writes. The half flags only matter for 8-bit types.

        >>> src = np.arange(256, dtype=np.float16)
        >>> dst = np.zeros_like(src)
        >>> rows = [16 * i for i in range(16)]
        >>> vec_trans_scatter(dst, src, False, False, rows, rows, 1, 0, 0)
        >>> bool((dst.reshape(16, 16) == src.reshape(16, 16).T).all())
        True
    """
    itemsize = _element_width(dst, src)
    _check_flag("dst_high_half", dst_high_half)
    _check_flag("src_high_half", src_high_half)
    dst_addresses = lane_addresses("dst_list", dst_list, itemsize)
    src_addresses = lane_addresses("src_list", src_list, itemsize)
    check_distinct_destinations(dst_addresses)
    repeats, dst_stride, src_stride = check_repeats(repeat_times, dst_rep_stride, src_rep_stride)
    if repeats == 0:
        return

    span = lane_bytes(itemsize)
    dst_first = [address + half_offset(itemsize, dst_high_half) for address in dst_addresses]
    src_first = [address + half_offset(itemsize, src_high_half) for address in src_addresses]
    _check_inside("dst", dst, dst_first, dst_stride, repeats, span)
    _check_inside("src", src, src_first, src_stride, repeats, span)
    dst_touched = _touched_starts(dst_first, dst_stride, repeats)
    src_touched = _touched_starts(src_first, src_stride, repeats)
    if _same_buffer(dst, src):
        _check_overlaps(dst_touched, src_touched, span)

    lane_elements = span // itemsize
    tiles = _lane_rows(src, lane_elements)[src_touched // span]
    moved = tiles.swapaxes(1, 2).reshape(-1, lane_elements)
    kept = _last_writes(dst_touched)
    _lane_rows(dst, lane_elements)[dst_touched.ravel()[kept] // span] = moved[kept]


def _element_width(dst: np.ndarray, src: np.ndarray) -> int:
    for name, array in (("dst", dst), ("src", src)):
        if not isinstance(array, np.ndarray):
            raise VecTransScatterError(f"{name} must be a numpy array, got {type(array).__name__}")
        if array.ndim != 1 or not array.flags.c_contiguous:
            raise VecTransScatterError(
                f"{name} must be a contiguous 1-D array, got shape {array.shape} with strides {array.strides}"
            )
    if not dst.flags.writeable:
        raise VecTransScatterError("dst must be writeable, got a read-only array")
    if dst.dtype != src.dtype:
        raise VecTransScatterError(f"dst and src must have the same dtype, got {dst.dtype} and {src.dtype}")
    if dst.dtype not in SUPPORTED_DTYPES:
        supported = ", ".join(str(dtype) for dtype in SUPPORTED_DTYPES)
        raise VecTransScatterError(f"dtype {dst.dtype} is not supported; use one of {supported}")
    return dst.dtype.itemsize


def _check_flag(name: str, value: bool) -> None:
    if not isinstance(value, bool | np.bool_):
        raise VecTransScatterError(f"{name} must be a bool, got {value!r}")


def _check_inside(name: str, array: np.ndarray, first: list[int], stride: int, repeats: int, span: int) -> None:
    """Refuse a lane whose last repeat ends past the array, in exact integers."""
    last = [start + (repeats - 1) * stride * BLOCK_BYTES for start in first]
    lane = max(range(LANES), key=last.__getitem__)
    if last[lane] + span <= array.nbytes:
        return
    raise VecTransScatterError(
        f"{name}_list[{lane}] at repeat {repeats - 1} touches bytes "
        f"[{last[lane]}, {last[lane] + span}) but {name} holds {array.nbytes} bytes"
    )


def _touched_starts(first: list[int], stride: int, repeats: int) -> np.ndarray:
    """The first byte each (repeat, lane) touches, shaped (repeats, 16); inside the array."""
    advance = np.arange(repeats, dtype=np.int64)[:, None] * (stride * BLOCK_BYTES)
    return np.array(first, dtype=np.int64)[None, :] + advance


def _same_buffer(dst: np.ndarray, src: np.ndarray) -> bool:
    """Whether dst and src are one buffer; other ways of sharing memory are refused."""
    if not np.may_share_memory(dst, src):
        return False
    dst_start = dst.__array_interface__["data"][0]
    src_start = src.__array_interface__["data"][0]
    if dst_start == src_start:
        return True
    raise VecTransScatterError(
        f"dst and src share memory but start {abs(src_start - dst_start)} bytes apart; "
        "pass the same array as both to work in place"
    )


def _check_overlaps(dst_touched: np.ndarray, src_touched: np.ndarray, span: int) -> None:
    """
    Refuse the overlaps the vendor does not support within one buffer: a repeat whose
    destination overlaps its own source other than block for block (dst_list[i] ==
    src_list[i], same half), and a repeat reading bytes an earlier repeat wrote.

    Calls whose destination and source ranges are apart (separate buffers in one
    memory) return at once; otherwise the 16-byte units the call touches are numbered
    densely, so the cost depends on how many blocks it touches, not on where they are.
    """
    if dst_touched.max() + span <= src_touched.min() or src_touched.max() + span <= dst_touched.min():
        return
    dst_units = _half_block_units(dst_touched, span)
    src_units = _half_block_units(src_touched, span)
    units, ids = np.unique(np.concatenate((dst_units.ravel(), src_units.ravel())), return_inverse=True)
    dst_ids = ids[: dst_units.size].reshape(dst_units.shape)
    src_ids = ids[dst_units.size :].reshape(src_units.shape)
    unit_count = units.size
    repeat = np.arange(len(dst_touched))[:, None]

    shared = np.isin(dst_ids + repeat * unit_count, src_ids + repeat * unit_count)
    exact = (dst_touched == src_touched).all(axis=1)
    partial = np.flatnonzero(shared.any(axis=1) & ~exact)
    if partial.size:
        first = partial[0]
        unit = units[dst_ids[first][shared[first]][0]]
        raise VecTransScatterError(
            f"at repeat {first} bytes [{unit * HALF_BLOCK_BYTES}, "
            f"{(unit + 1) * HALF_BLOCK_BYTES}) are both read and written, but dst_list and "
            "src_list do not overlap block for block; partial overlap is not supported"
        )

    first_write = np.full(unit_count, len(dst_touched))
    np.minimum.at(first_write, dst_ids, np.broadcast_to(repeat, dst_ids.shape))
    last_read = np.full(unit_count, -1)
    np.maximum.at(last_read, src_ids, np.broadcast_to(repeat, src_ids.shape))
    hazards = np.flatnonzero(first_write < last_read)
    if hazards.size:
        hazard = hazards[0]
        unit = units[hazard]
        raise VecTransScatterError(
            f"repeat {first_write[hazard]} writes bytes [{unit * HALF_BLOCK_BYTES}, "
            f"{(unit + 1) * HALF_BLOCK_BYTES}) that repeat {last_read[hazard]} reads later; a "
            "destination that a later repeat reads is not supported"
        )


def _half_block_units(touched: np.ndarray, span: int) -> np.ndarray:
    """The 16-byte units each (repeat, lane) touches, shaped (repeats, 16 * units)."""
    first = touched // HALF_BLOCK_BYTES
    units = first[..., None] + np.arange(span // HALF_BLOCK_BYTES)
    return units.reshape(len(touched), -1)


def _lane_rows(array: np.ndarray, lane_elements: int) -> np.ndarray:
    """The array's raw bits as rows of one lane's worth of elements (a view)."""
    raw = array.view(f"u{array.itemsize}")
    return raw[: raw.size // lane_elements * lane_elements].reshape(-1, lane_elements)


def _last_writes(dst_touched: np.ndarray) -> np.ndarray:
    """Indices of the flattened (repeat, lane) writes that no later repeat overwrites."""
    backwards = dst_touched.ravel()[::-1]
    _, first_seen = np.unique(backwards, return_index=True)
    return backwards.size - 1 - first_seen
