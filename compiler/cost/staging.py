"""
What loading a network input (or storing an output) through the NC1HWC0 staging areas
costs a core, on targets whose activation layout is NC1HWC0 (`tpu-like`): isa-lower loads
the NCHW box into a staging area, turns it into NC1HWC0 with `vec_trans_scatter` calls and
gathers it with `isa.copy` into the NHWC tile (`compiler/lowering/layout.py`); a store goes
the other way. Each instruction streams its bytes read and written at the local-memory
bandwidth, as the machine prices it.

    staging_cycles(512.0, (1, 16, 16, 3), load=True)    # cycles of the transform and copies
    unread_tail_cycles(512.0, (1, 8, 8, 16))            # 4: the last two calls write padding
"""

from __future__ import annotations

import functools
import math

import numpy as np

from stc.dialects.isa.vec_trans_scatter_rules import LANES, lane_bytes
from stc.runtime.kernels.layout import Buffer, Nc1hwc0Geometry, layout_calls


@functools.lru_cache(maxsize=1 << 12)
def staging_cycles(bandwidth: float, extent_nhwc: tuple[int, int, int, int], load: bool) -> tuple[int, int]:
    """Cycles and bytes streamed (read, and as many written) of staging one int8 NHWC box."""
    n, h, w, c = extent_nhwc
    if min(extent_nhwc) < 1:
        return 0, 0
    geometry = Nc1hwc0Geometry.from_nchw((n, c, h, w), np.int8)
    moved = [
        call.repeat_times * LANES * lane_bytes(1)
        for call in layout_calls(geometry, Buffer.NC1HWC0 if load else Buffer.NCHW)
    ]
    whole, rest = divmod(c, geometry.c0)
    copied = [bytes_ for bytes_ in (n * whole * h * w * geometry.c0, n * h * w * rest) if bytes_]
    streamed = moved + copied
    return sum(math.ceil(2 * each / bandwidth) for each in streamed), sum(streamed)


@functools.lru_cache(maxsize=1 << 12)
def unread_tail_cycles(bandwidth: float, extent_nhwc: tuple[int, int, int, int]) -> int:
    """Cycles of the last `vec_trans_scatter` calls of an output's staging that write only
    past the bytes its store reads (the padding channels of the last C0 group): a machine
    whose DMA overlaps compute starts the store before they run."""
    n, h, w, c = extent_nhwc
    if min(extent_nhwc) < 1:
        return 0
    geometry = Nc1hwc0Geometry.from_nchw((n, c, h, w), np.int8)
    read_end = geometry.plane(n - 1, c - 1) + h * w
    tail = 0
    for call in reversed(layout_calls(geometry, Buffer.NCHW)):
        itemsize = call.dtype.itemsize
        if min(call.dst_list) * itemsize < read_end:
            break
        tail += math.ceil(2 * call.repeat_times * LANES * lane_bytes(itemsize) / bandwidth)
    return tail
