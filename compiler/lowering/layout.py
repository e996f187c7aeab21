"""
NCHW <-> NHWC through NC1HWC0 on targets whose activation layout is NC1HWC0 (`tpu-like`):
a network input is loaded plane by plane into an NCHW staging area, turned into NC1HWC0
by `vec_trans_scatter` (seed 001's instruction) and gathered by `isa.copy` into the NHWC
tile compute instructions read; an output goes the other way.

```mlir
isa.dma_load sizes [1, 3, 16, 16] from global 0 strides [768, 256, 16, 1] to local 8192 strides [8192, 256, 16, 1]
isa.vec_trans_scatter dst 16384 [...] src 8192 [...] repeat 8 strides [32, 1] : i8
isa.copy sizes [1, 16, 16, 3] from 16384 strides [8192, 512, 32, 1] to 0
```
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.ir import Operation

from stc.compiler.lowering.boxes import Box
from stc.dialects import isa
from stc.runtime.kernels.layout import Buffer, Nc1hwc0Geometry, VecTransScatterCall, layout_calls


def vec_trans_scatter_ops(calls: Sequence[VecTransScatterCall], bases: dict[Buffer, int]) -> list[Operation]:
    """The instructions of a layout transform between staging areas at `bases`, on the
    calls' element type."""
    return [
        isa.VecTransScatterOp(
            isa.element_type_of(call.dtype),
            bases[call.dst_buffer],
            call.dst_list,
            bases[call.src_buffer],
            call.src_list,
            call.repeat_times,
            call.dst_rep_stride,
            call.src_rep_stride,
            call.dst_high_half,
            call.src_high_half,
        )
        for call in calls
    ]


def staging_bases(geometry: Nc1hwc0Geometry, staging: int) -> dict[Buffer, int]:
    """The NCHW area at `staging`, the NC1HWC0 area after it on a 32-byte boundary."""
    return {Buffer.NCHW: staging, Buffer.NC1HWC0: staging + -(-geometry.staging_bytes // 32) * 32}


def geometry_of(extent_nhwc: Sequence[int]) -> Nc1hwc0Geometry:
    n, h, w, c = extent_nhwc
    return Nc1hwc0Geometry.from_nchw((n, c, h, w), np.int8)


def nchw_staging_strides(geometry: Nc1hwc0Geometry, extent_nhwc: Sequence[int]) -> tuple[int, ...]:
    """Byte strides of the NCHW staging area, listed in NHWC order."""
    _, _, w, _ = extent_nhwc
    return (geometry.c1 * geometry.c0 * geometry.padded_pixels, w, 1, geometry.padded_pixels)


def group_copies(geometry: Nc1hwc0Geometry, staged: int, tile: Box, to_tile: bool) -> list[Operation]:
    """Copies between the NC1HWC0 area at `staged` and an NHWC int8 tile box: whole channel
    groups in one copy, the last, partial group in another."""
    n, h, w, c = tile.sizes
    c0 = geometry.c0
    group = geometry.padded_pixels * c0
    batch = geometry.c1 * group
    tile_n, tile_h, tile_w, _ = tile.strides
    whole, rest = divmod(c, c0)
    moves: list[tuple[tuple[int, ...], int, tuple[int, ...], int, tuple[int, ...]]] = []
    if whole:
        sizes = (n, whole, h, w, c0)
        moves.append((sizes, staged, (batch, group, w * c0, c0, 1), tile.address, (tile_n, c0, tile_h, tile_w, 1)))
    if rest:
        sizes = (n, h, w, rest)
        moves.append((sizes, staged + whole * group, (batch, w * c0, c0, 1), tile.address + whole * c0, tile.strides))
    ops: list[Operation] = []
    for sizes, staged_at, staged_strides, tile_at, tile_strides in moves:
        if to_tile:
            ops.append(isa.CopyOp(sizes, staged_at, tile_at, staged_strides, tile_strides))
        else:
            ops.append(isa.CopyOp(sizes, tile_at, staged_at, tile_strides, staged_strides))
    return ops


def load_through_nc1hwc0(source: Box, staging: int, tile: Box) -> list[Operation]:
    """Load an NCHW box of global memory into an NHWC tile box through the staging areas."""
    geometry = geometry_of(tile.sizes)
    bases = staging_bases(geometry, staging)
    return [
        isa.DmaLoadOp(
            tile.sizes, source.address, bases[Buffer.NCHW], source.strides, nchw_staging_strides(geometry, tile.sizes)
        ),
        *vec_trans_scatter_ops(layout_calls(geometry, Buffer.NC1HWC0), bases),
        *group_copies(geometry, bases[Buffer.NC1HWC0], tile, to_tile=True),
    ]


def store_through_nc1hwc0(tile: Box, staging: int, destination: Box) -> list[Operation]:
    """Store an NHWC tile box into an NCHW box of global memory through the staging areas."""
    geometry = geometry_of(tile.sizes)
    bases = staging_bases(geometry, staging)
    return [
        *group_copies(geometry, bases[Buffer.NC1HWC0], tile, to_tile=False),
        *vec_trans_scatter_ops(layout_calls(geometry, Buffer.NCHW), bases),
        isa.DmaStoreOp(
            tile.sizes,
            destination.address,
            bases[Buffer.NCHW],
            destination.strides,
            nchw_staging_strides(geometry, tile.sizes),
        ),
    ]
