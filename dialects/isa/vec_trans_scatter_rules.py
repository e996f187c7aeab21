"""
The rules of the vendor's `vec_trans_scatter` instruction (VNCHWCONV) that both the `isa`
dialect's verifier and the runtime's kernel apply: the block and lane constants, the
element types it moves, and the checks of its lists and repeats. See
`stc.runtime.kernels.vec_trans_scatter` for what the instruction does.

    >>> lane_addresses("dst_list", [16 * lane for lane in range(16)], itemsize=2)[:3]
    [0, 32, 64]
"""

from collections.abc import Sequence

import numpy as np

BLOCK_BYTES = 32
"""The unit of every list entry and stride: 32 contiguous bytes at a 32-byte boundary."""
HALF_BLOCK_BYTES = 16
LANES = 16
"""Blocks one repeat reads and writes."""
MAX_REPEAT_TIMES = 255
MAX_REP_STRIDE = 65535

SUPPORTED_DTYPES = tuple(
    np.dtype(name) for name in ("int8", "uint8", "int16", "uint16", "float16", "int32", "uint32", "float32")
)


class VecTransScatterError(ValueError):
    """A `vec_trans_scatter` call that the vendor forbids or leaves undefined."""


def lane_bytes(itemsize: int) -> int:
    """Bytes one lane reads or writes per repeat: half a block for 8-bit types, else a block."""
    return HALF_BLOCK_BYTES if itemsize == 1 else BLOCK_BYTES


def half_offset(itemsize: int, high_half: bool) -> int:
    """Where in its block a lane starts: the upper half for 8-bit types with `high_half`."""
    return HALF_BLOCK_BYTES if itemsize == 1 and high_half else 0


def lane_addresses(name: str, offsets: Sequence[int], itemsize: int, base: int = 0) -> list[int]:
    """
    The byte addresses `base + offset * itemsize` of the 16 blocks a list names, exact
    (Python integers, which cannot wrap), after checking that the list holds 16 integer
    offsets, none negative, each naming the start of a block.
    """
    values = np.asarray(offsets)
    if values.shape != (LANES,):
        raise VecTransScatterError(f"{name} must hold {LANES} element offsets, got shape {values.shape}")
    if values.dtype.kind not in "iu":
        raise VecTransScatterError(f"{name} must hold integer element offsets, got dtype {values.dtype}")
    entries: list[int] = values.tolist()
    if (lane := next((lane for lane, entry in enumerate(entries) if entry < 0), None)) is not None:
        raise VecTransScatterError(f"{name}[{lane}] = {entries[lane]} is negative")
    addresses = [base + entry * itemsize for entry in entries]
    if (lane := next((lane for lane, address in enumerate(addresses) if address % BLOCK_BYTES), None)) is not None:
        raise VecTransScatterError(
            f"{name}[{lane}] = {entries[lane]} is byte address {addresses[lane]}, not a "
            f"multiple of the {BLOCK_BYTES}-byte block"
        )
    return addresses


def check_distinct_destinations(dst_addresses: Sequence[int]) -> None:
    """Refuse two lanes naming one destination block: the vendor does not document in
    which order lanes write, so the model does not pick one (its own rule)."""
    lanes: dict[int, int] = {}
    for lane, address in enumerate(dst_addresses):
        if (first := lanes.setdefault(address, lane)) != lane:
            raise VecTransScatterError(
                f"dst_list[{first}] and dst_list[{lane}] both name byte address {address}; "
                "the 16 destination blocks must be distinct"
            )


def check_repeats(repeat_times: int, dst_rep_stride: int, src_rep_stride: int) -> tuple[int, int, int]:
    """The repeat count and the two strides, checked against the vendor's ranges and the
    repeat-1 rule."""
    repeats = check_count("repeat_times", repeat_times, MAX_REPEAT_TIMES)
    dst_stride = check_count("dst_rep_stride", dst_rep_stride, MAX_REP_STRIDE)
    src_stride = check_count("src_rep_stride", src_rep_stride, MAX_REP_STRIDE)
    if repeats == 1 and (dst_stride or src_stride):
        raise VecTransScatterError(
            f"repeat_times = 1 with dst_rep_stride = {dst_stride} and src_rep_stride = "
            f"{src_stride}: vendor documents disagree on whether a single repeat adds the "
            "stride; pass strides 0"
        )
    return repeats, dst_stride, src_stride


def check_count(name: str, value: int, limit: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise VecTransScatterError(f"{name} must be an integer, got {value!r}")
    if not 0 <= value <= limit:
        raise VecTransScatterError(f"{name} = {value} is outside [0, {limit}]")
    return int(value)
