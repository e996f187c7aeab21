"""
Examples on an NC1HWC0 target: `layout_conv`, a conv whose NCHW input and output are
converted with `vec_trans_scatter` sequences, and `layout_round_trip`, NCHW → NC1HWC0 →
NCHW, the identity.

    example = layout_round_trip(shape=(1, 40, 5, 7))
"""

from __future__ import annotations

import math

from numpy.typing import DTypeLike
from xdsl.dialects.builtin import ModuleOp, TensorType, i8, i32
from xdsl.ir import Operation

from stc.compiler.lowering.layout import vec_trans_scatter_ops
from stc.compiler.targets.hardware import load_target
from stc.dialects import isa
from stc.dialects.isa import GlobalLayout
from stc.runtime.kernels.layout import (
    Buffer,
    Nc1hwc0Geometry,
    layout_calls,
)
from stc.tools.isa_examples.conv import ConvLayer
from stc.tools.isa_examples.example import GLOBAL_ALIGNMENT, Allocator, Example, local_allocator, shape_text, tile


def staging_buffers(local: Allocator, geometry: Nc1hwc0Geometry) -> dict[Buffer, int]:
    """Zero-initialised NCHW and NC1HWC0 staging buffers for one tensor."""
    nchw = local.take(geometry.staging_bytes)
    nc1hwc0 = local.take(geometry.staging_bytes)
    return {Buffer.NCHW: nchw, Buffer.NC1HWC0: nc1hwc0}


def layout_conv(
    target_name: str = "tpu-like",
    height: int = 7,
    width: int = 7,
    channels: int = 20,
    filters: int = 24,
    kernel: int = 3,
    shift: int = 8,
    name: str = "layout_conv",
) -> Example:
    """
    A conv on one core that stores activations as NC1HWC0 with a single channel group
    (so each pixel's C0 channels are contiguous, as NHWC with C padded to C0). The NCHW
    input is loaded plane by plane, converted with vec_trans_scatter, convolved with the
    weight and bias padded to C0 by strided DMA (local memory starts zeroed), converted
    back and stored as NCHW planes.
    """
    target = load_target(target_name)
    into = Nc1hwc0Geometry.from_nchw((1, channels, height, width), "int8")
    back = Nc1hwc0Geometry.from_nchw((1, filters, height, width), "int8")
    c0 = into.c0
    if into.c1 != 1 or back.c1 != 1:
        raise ValueError(f"{channels} and {filters} channels must each fit one group of {c0}")
    pixels = height * width
    pad = kernel // 2
    layer = ConvLayer(height, width, channels, filters, kernel, shift, seed=3)
    addresses, declarations = layer.declarations(GlobalLayout.NCHW)
    local = local_allocator(target)
    source = staging_buffers(local, into)
    weight = local.take(c0 * kernel * kernel * c0)
    bias = local.take(c0 * 4)
    result = staging_buffers(local, back)
    planes = into.padded_pixels
    program: list[Operation] = [
        isa.DmaLoadOp([channels, pixels], addresses.x, source[Buffer.NCHW], local_strides=[planes, 1]),
        isa.DmaLoadOp([filters * kernel * kernel, channels], addresses.weight, weight, local_strides=[c0, 1]),
        isa.DmaLoadOp([filters * 4], addresses.bias, bias),
        isa.SyncOp(0),
        *vec_trans_scatter_ops(layout_calls(into, Buffer.NC1HWC0), source),
        isa.ConvOp(
            [
                tile(source[Buffer.NC1HWC0], i8, (1, height, width, c0)),
                tile(weight, i8, (c0, kernel, kernel, c0)),
            ],
            tile(result[Buffer.NC1HWC0], i8, (1, height, width, c0)),
            tile(bias, i32, (c0,)),
            pad=(pad, pad, pad, pad),
            shift=shift,
        ),
        *vec_trans_scatter_ops(layout_calls(back, Buffer.NCHW), result),
        isa.DmaStoreOp([filters, pixels], addresses.y, result[Buffer.NCHW], local_strides=[planes, 1]),
        isa.SyncOp(1),
    ]
    ops = [*declarations, isa.CoreOp((0, 0), program)]
    description = (
        f"A {kernel}x{kernel} conv of an NCHW 1x{channels}x{height}x{width} input to "
        f"{filters} channels "
        f"on {target_name}, computed in NC1HWC0 (C0 = {c0}): vec_trans_scatter converts the input "
        f"planes, the conv runs on the padded channel group, vec_trans_scatter converts back."
    )
    module = ModuleOp([isa.ProgramOp(name, target_name, ops)])
    return Example(name, description, module, layer.twin(name))


def layout_round_trip(
    target_name: str = "tpu-like",
    shape: tuple[int, int, int, int] = (1, 40, 5, 7),
    dtype: DTypeLike = "int8",
    name: str = "layout_round_trip",
) -> Example:
    """NCHW → NC1HWC0 → NCHW of a tensor of any type vec_trans_scatter moves: the
    identity, as its twin computes it (a relu with cmp −128). Network tensors are int8,
    so input and output hold the tensor's raw bytes: N×C×H×(W · element bytes)."""
    target = load_target(target_name)
    geometry = Nc1hwc0Geometry.from_nchw(shape, dtype)
    batch, channels, height, width = shape
    itemsize = geometry.itemsize
    raw_shape = (batch, channels, height, width * itemsize)
    plane_bytes = height * width * itemsize
    memory = Allocator(GLOBAL_ALIGNMENT)
    x_address = memory.take(math.prod(raw_shape))
    y_address = memory.take(math.prod(raw_shape))
    local = local_allocator(target)
    forward = staging_buffers(local, geometry)
    nchw_back = local.take(geometry.staging_bytes)
    backward = {Buffer.NC1HWC0: forward[Buffer.NC1HWC0], Buffer.NCHW: nchw_back}
    planes = geometry.padded_pixels * itemsize
    group = geometry.c1 * geometry.c0 * planes
    program: list[Operation] = [
        isa.DmaLoadOp(
            [batch, channels, plane_bytes],
            x_address,
            forward[Buffer.NCHW],
            local_strides=[group, planes, 1],
        ),
        isa.SyncOp(0),
        *vec_trans_scatter_ops(layout_calls(geometry, Buffer.NC1HWC0), forward),
        *vec_trans_scatter_ops(layout_calls(geometry, Buffer.NCHW), backward),
        isa.DmaStoreOp(
            [batch, channels, plane_bytes],
            y_address,
            backward[Buffer.NCHW],
            local_strides=[group, planes, 1],
        ),
        isa.SyncOp(1),
    ]
    ops: list[Operation] = [
        isa.InputOp("x", TensorType(i8, raw_shape), x_address, GlobalLayout.NCHW),
        isa.OutputOp("y", TensorType(i8, raw_shape), y_address, GlobalLayout.NCHW),
        isa.CoreOp((0, 0), program),
    ]
    nhwc = shape_text((batch, height, width * itemsize, channels))
    twin = f"""task.graph @{name} {{
  %x = task.input 0 "x" : {nhwc}
  %in = task.buffer 1 si %x : {nhwc}
  %same = task.relu 2 %in cmp -128 : {nhwc}
  %out = task.buffer 3 so %same : {nhwc}
  task.output 4 "y" %out
}}
"""
    description = (
        f"NCHW -> NC1HWC0 -> NCHW of a {'x'.join(map(str, shape))} {geometry.dtype} tensor on "
        f"{target_name} with "
        f"vec_trans_scatter (C0 = {geometry.c0}, C1 = {geometry.c1}): the output equals the input."
    )
    return Example(name, description, ModuleOp([isa.ProgramOp(name, target_name, ops)]), twin)
