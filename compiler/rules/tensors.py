"""The rule every tensor of a task graph follows, on its shape and element width."""

from __future__ import annotations

import math
from collections.abc import Sequence

MAX_TENSOR_BYTES = 1 << 33
"""The largest tensor a task graph holds, in bytes (8 GiB): the largest global memory of
any preset target (aie-ml, set-8x8), so that no shape's element count overflows what a
target or a run could hold (`tensor<4294967296x4294967296x...>`)."""


def widths_text(widths: Sequence[int]) -> str:
    """`i8 or i32`."""
    return " or ".join(f"i{w}" for w in widths)


def tensor_problem(
    shape: Sequence[int], width: int | None, rank: int, widths: Sequence[int], typ: object, encoded: bool = False
) -> str | None:
    """
    Why a tensor of `shape` and signless integers of `width` bits (None: any other
    element type), with an encoding when `encoded`, is not one a task graph holds: `rank`
    static, positive dimensions, one of `widths`, no encoding. `typ` is the type as the
    message names it.

    >>> tensor_problem((1, 0), 8, 2, (8,), "tensor<1x0xi8>")
    'must have static, positive dimensions, got tensor<1x0xi8>'
    """
    if not all(size >= 1 for size in shape):
        return f"must have static, positive dimensions, got {typ}"
    if encoded:
        return f"must have no encoding, got {typ}"
    if len(shape) != rank:
        return f"must have rank {rank}, got {typ}"
    if width not in widths:
        return f"must have {widths_text(widths)} elements, got {typ}"
    if (size := math.prod(shape) * width // 8) > MAX_TENSOR_BYTES:
        return f"holds {size} bytes, more than any target holds ({MAX_TENSOR_BYTES} bytes), in {typ}"
    return None


def width_problem(what: str, width: int | None, widths: Sequence[int], typ: object) -> str | None:
    """Why `what`, of `typ`, does not have elements of one of `widths` bits."""
    if width in widths:
        return None
    return f"{what} must have {widths_text(widths)} elements, got {typ}"
