"""
Hand-made `isa` programs, each with the task graph that computes the same thing (its
twin); they pin the machine's semantics independently of `isa-lower`:

- `conv_rows`: a conv split by output rows over a row of cores, which swap halo rows
  over the NoC;
- `layout_conv`: a conv on an NC1HWC0 target that converts its NCHW input and output
  with `vec_trans_scatter` sequences;
- `layout_round_trip`: NCHW → NC1HWC0 → NCHW, the identity;
- `every_op`: two cores that use every compute instruction and exchange a tile.

tests/lit/isa holds their text (`write_lit_files`); the machine benchmark runs
`conv_rows` at ResNet-18 size.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from pathlib import Path

import attrs
from numpy.typing import DTypeLike
from xdsl.dialects.builtin import IntegerType, ModuleOp, TensorType, i8, i32
from xdsl.ir import Operation

from stc.compiler.ir_files import module_text
from stc.compiler.lowering.layout import vec_trans_scatter_ops
from stc.compiler.targets.hardware import Coord, HardwareTarget, load_target
from stc.dialects import isa
from stc.dialects.isa import GlobalLayout, TileAttr
from stc.dialects.task import RandomDataAttr
from stc.runtime.kernels.layout import (
    Buffer,
    Nc1hwc0Geometry,
    layout_calls,
)

GLOBAL_ALIGNMENT = 64
"""Where global regions start: no target requires it, it only keeps addresses round."""


@attrs.frozen
class Example:
    """An isa program, the task graph it must agree with, and what it shows."""

    name: str
    description: str
    module: ModuleOp
    """A module holding the isa.program."""
    twin: str
    """The text of a task graph that computes the same outputs from the same inputs."""


@attrs.define
class Allocator:
    """Hands out addresses from 0 upwards, each a multiple of `alignment`."""

    alignment: int
    next_address: int = 0

    def take(self, nbytes: int) -> int:
        address = self.next_address
        self.next_address = -(-(address + nbytes) // self.alignment) * self.alignment
        return address


def local_allocator(target: HardwareTarget) -> Allocator:
    """An allocator whose addresses suit every storage kind and vec_trans_scatter."""
    alignment = target.local_memory.alignment_bytes
    return Allocator(
        max(
            alignment.activation,
            alignment.partial_sum,
            alignment.weight,
            alignment.bias,
            isa.BLOCK_BYTES,
        )
    )


def tile(address: int, element: IntegerType, shape: Sequence[int]) -> TileAttr:
    return TileAttr(address, TensorType(element, shape))


def shape_text(shape: Sequence[int], element: str = "i8") -> str:
    return f"tensor<{'x'.join(str(n) for n in shape)}x{element}>"


@attrs.frozen
class ConvAddresses:
    """Where a conv example keeps its input, output, weight and bias in global memory."""

    x: int
    y: int
    weight: int
    bias: int


@attrs.frozen
class ConvLayer:
    """
    What the conv examples compute: a `kernel`×`kernel` int8 conv with zero padding
    `kernel // 2` and a bias, its weight drawn from `#task.random<seed>` and its bias from
    `#task.random<seed + 1>`.
    """

    height: int
    width: int
    channels: int
    filters: int
    kernel: int
    shift: int
    seed: int

    @property
    def weight_shape(self) -> tuple[int, int, int, int]:
        return (self.filters, self.kernel, self.kernel, self.channels)

    def declarations(self, layout: GlobalLayout) -> tuple[ConvAddresses, list[Operation]]:
        """The global addresses of the conv's tensors, and the ops declaring them."""
        memory = Allocator(GLOBAL_ALIGNMENT)
        pixels = self.height * self.width
        addresses = ConvAddresses(
            memory.take(pixels * self.channels),
            memory.take(pixels * self.filters),
            memory.take(math.prod(self.weight_shape)),
            memory.take(self.filters * 4),
        )
        x_type = TensorType(i8, (1, self.channels, self.height, self.width))
        y_type = TensorType(i8, (1, self.filters, self.height, self.width))
        ops: list[Operation] = [
            isa.InputOp("x", x_type, addresses.x, layout),
            isa.OutputOp("y", y_type, addresses.y, layout),
            isa.DataOp(RandomDataAttr(self.seed), TensorType(i8, self.weight_shape), addresses.weight),
            isa.DataOp(RandomDataAttr(self.seed + 1), TensorType(i32, (self.filters,)), addresses.bias),
        ]
        return addresses, ops

    def twin(self, name: str) -> str:
        """The task graph of the conv."""
        in_type = shape_text((1, self.height, self.width, self.channels))
        out_type = shape_text((1, self.height, self.width, self.filters))
        return f"""task.graph @{name} {{
  %x = task.input 0 "x" : {in_type}
  %in = task.buffer 1 sic %x : {in_type}
  %w = task.weight 2 #task.random<{self.seed}> : {shape_text(self.weight_shape)}
  %b = task.bias 3 #task.random<{self.seed + 1}> : {shape_text((self.filters,), "i32")}
  %c = task.conv 4 %in, %w bias %b pad {[self.kernel // 2] * 4} shift {self.shift} : {out_type}
  %out = task.buffer 5 so %c : {out_type}
  task.output 6 "y" %out
}}
"""


def split_rows(height: int, pieces: int) -> list[tuple[int, int]]:
    """[start, stop) of each piece, as even as possible, larger pieces first."""
    base, extra = divmod(height, pieces)
    bounds = [0]
    for piece in range(pieces):
        bounds.append(bounds[-1] + base + (piece < extra))
    return list(itertools.pairwise(bounds))


def snake(target: HardwareTarget, count: int) -> list[Coord]:
    """`count` computing cores along a snake over the mesh: row 0 left to right, the next
    computing row right to left, and so on, so consecutive cores are neighbours whenever
    consecutive rows both compute."""
    path = [
        (y, x)
        for y in range(target.mesh.cores_y)
        for x in (range(target.mesh.cores_x) if y % 2 == 0 else reversed(range(target.mesh.cores_x)))
        if target.core_exists(y, x) and target.tile_type_at(y, x).computes
    ]
    if count > len(path):
        raise ValueError(f"{count} cores are more than the {len(path)} computing cores of {target.name}")
    return path[:count]


def conv_rows(
    target_name: str = "tianjicx",
    height: int = 16,
    width: int = 16,
    channels: int = 16,
    filters: int = 32,
    cores: int = 4,
    kernel: int = 3,
    shift: int = 9,
    name: str = "conv_rows",
) -> Example:
    """
    A `kernel`×`kernel` conv with zero padding `kernel // 2`, its output rows split over
    `cores` cores along a snake over the mesh (`snake`; (0, 0) … (0, cores − 1) when one
    row holds them). Phase 0 loads each core's own input rows, the weight
    and the bias; phase 1 swaps `kernel // 2` halo rows with each neighbour; phase 2
    convolves and stores the output rows. Input and output are NHWC in global memory.
    """
    target = load_target(target_name)
    halo = kernel // 2
    pieces = split_rows(height, cores)
    if min(stop - start for start, stop in pieces) < halo:
        raise ValueError(f"{height} rows over {cores} cores leave a piece thinner than the {halo}-row halo")
    row_in, row_out = width * channels, width * filters
    layer = ConvLayer(height, width, channels, filters, kernel, shift, seed=1)
    weight_shape = layer.weight_shape
    addresses, ops = layer.declarations(GlobalLayout.NHWC)
    coords = snake(target, cores)
    for index, (start, stop) in enumerate(pieces):
        own = stop - start
        top = halo if index > 0 else 0
        bottom = halo if index < cores - 1 else 0
        local = local_allocator(target)
        source = local.take((top + own + bottom) * row_in)
        weight = local.take(filters * kernel * kernel * channels)
        bias = local.take(filters * 4)
        result = local.take(own * row_out)
        first_own = source + top * row_in
        exchange: list[Operation] = []
        if top:
            exchange.append(isa.SendOp(halo * row_in, first_own, coords[index - 1], 2 * index - 1))
            exchange.append(isa.RecvOp(halo * row_in, source, coords[index - 1], 2 * index - 2))
        if bottom:
            exchange.append(isa.SendOp(halo * row_in, first_own + (own - halo) * row_in, coords[index + 1], 2 * index))
            exchange.append(isa.RecvOp(halo * row_in, first_own + own * row_in, coords[index + 1], 2 * index + 1))
        conv = isa.ConvOp(
            [
                tile(source, i8, (1, top + own + bottom, width, channels)),
                tile(weight, i8, weight_shape),
            ],
            tile(result, i8, (1, own, width, filters)),
            tile(bias, i32, (filters,)),
            pad=(halo - top, halo - bottom, halo, halo),
            shift=shift,
        )
        program = [
            isa.DmaLoadOp([own * row_in], addresses.x + start * row_in, first_own),
            isa.DmaLoadOp([filters * kernel * kernel * channels], addresses.weight, weight),
            isa.DmaLoadOp([filters * 4], addresses.bias, bias),
            isa.SyncOp(0),
            *exchange,
            isa.SyncOp(1),
            conv,
            isa.DmaStoreOp([own * row_out], addresses.y + start * row_out, result),
            isa.SyncOp(2),
        ]
        ops.append(isa.CoreOp(coords[index], program))
    description = (
        f"A {kernel}x{kernel} conv of a {height}x{width}x{channels} input to {filters} channels on "
        f"{target_name}, split by rows over {cores} cores along a snake over the mesh. Each core loads its own rows, "
        f"swaps {halo} halo row(s) with each neighbour over the NoC, convolves and stores its rows."
    )
    module = ModuleOp([isa.ProgramOp(name, target_name, ops)])
    return Example(name, description, module, layer.twin(name))


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


def every_op(target_name: str = "tianjicx", name: str = "every_op") -> Example:
    """
    Two cores that between them run every compute instruction on one 8×8×16 input.
    Core (0, 0): relu, 2×2 maxpool and a lookup, sent to core (0, 1); a 1×1 conv to
    int32 partial sums, requantized by relu to the output "z". Core (0, 1): a 2×2
    avgpool with bias, its product with the lookup, the sum of the three with bias, and
    an fc to the output "y".
    """
    target = load_target(target_name)
    image, pooled, conv_out = (1, 8, 8, 16), (1, 4, 4, 16), (1, 8, 8, 8)
    fc_weight, conv_weight = (10, 4, 4, 16), (8, 1, 1, 16)
    memory = Allocator(GLOBAL_ALIGNMENT)
    x_address = memory.take(1024)
    y_address = memory.take(10)
    z_address = memory.take(512)
    table_address = memory.take(256)
    pool_bias_address = memory.take(16 * 4)
    fc_weight_address = memory.take(10 * 256)
    fc_bias_address = memory.take(10 * 4)
    conv_weight_address = memory.take(8 * 16)

    first = local_allocator(target)
    x0, table = first.take(1024), first.take(256)
    conv_w, relu_out, max_out, lut_out = (
        first.take(128),
        first.take(1024),
        first.take(256),
        first.take(256),
    )
    partial, z_out = first.take(2048), first.take(512)
    core0 = [
        isa.DmaLoadOp([1024], x_address, x0),
        isa.DmaLoadOp([256], table_address, table),
        isa.DmaLoadOp([128], conv_weight_address, conv_w),
        isa.SyncOp(0),
        isa.ReluOp([tile(x0, i8, image)], tile(relu_out, i8, image)),
        isa.MaxPoolOp([tile(relu_out, i8, image)], tile(max_out, i8, pooled), window=(2, 2), stride=(2, 2)),
        isa.LutOp([tile(max_out, i8, pooled), tile(table, i8, (256,))], tile(lut_out, i8, pooled)),
        isa.SendOp(256, lut_out, (0, 1), 0),
        isa.ConvOp([tile(x0, i8, image), tile(conv_w, i8, conv_weight)], tile(partial, i32, conv_out)),
        isa.ReluOp([tile(partial, i32, conv_out)], tile(z_out, i8, conv_out), shift=8),
        isa.DmaStoreOp([512], z_address, z_out),
        isa.SyncOp(1),
    ]
    second = local_allocator(target)
    x1, pool_bias, fc_w, fc_b = (
        second.take(1024),
        second.take(64),
        second.take(2560),
        second.take(40),
    )
    avg_out, lut_in, product, total, y_out = (second.take(256) for _ in range(5))
    core1 = [
        isa.DmaLoadOp([1024], x_address, x1),
        isa.DmaLoadOp([64], pool_bias_address, pool_bias),
        isa.DmaLoadOp([2560], fc_weight_address, fc_w),
        isa.DmaLoadOp([40], fc_bias_address, fc_b),
        isa.SyncOp(0),
        isa.AvgPoolOp(
            [tile(x1, i8, image)],
            tile(avg_out, i8, pooled),
            tile(pool_bias, i32, (16,)),
            window=(2, 2),
            stride=(2, 2),
            shift=2,
        ),
        isa.RecvOp(256, lut_in, (0, 0), 0),
        isa.MulOp(
            [tile(avg_out, i8, pooled), tile(lut_in, i8, pooled)],
            tile(product, i8, pooled),
            shift=6,
        ),
        isa.AddOp(
            [tile(avg_out, i8, pooled), tile(product, i8, pooled), tile(lut_in, i8, pooled)],
            tile(total, i8, pooled),
            tile(pool_bias, i32, (16,)),
            shift=1,
        ),
        isa.FcOp(
            [tile(total, i8, pooled), tile(fc_w, i8, fc_weight)],
            tile(y_out, i8, (1, 1, 1, 10)),
            tile(fc_b, i32, (10,)),
            shift=9,
        ),
        isa.DmaStoreOp([10], y_address, y_out),
        isa.SyncOp(1),
    ]
    ops: list[Operation] = [
        isa.InputOp("x", TensorType(i8, (1, 16, 8, 8)), x_address, GlobalLayout.NHWC),
        isa.OutputOp("y", TensorType(i8, (1, 10, 1, 1)), y_address, GlobalLayout.NHWC),
        isa.OutputOp("z", TensorType(i8, (1, 8, 8, 8)), z_address, GlobalLayout.NHWC),
        isa.DataOp(RandomDataAttr(11), TensorType(i8, (256,)), table_address),
        isa.DataOp(RandomDataAttr(12), TensorType(i32, (16,)), pool_bias_address),
        isa.DataOp(RandomDataAttr(13), TensorType(i8, fc_weight), fc_weight_address),
        isa.DataOp(RandomDataAttr(14), TensorType(i32, (10,)), fc_bias_address),
        isa.DataOp(RandomDataAttr(15), TensorType(i8, conv_weight), conv_weight_address),
        isa.CoreOp((0, 0), core0),
        isa.CoreOp((0, 1), core1),
    ]
    pooled_type = shape_text(pooled)
    twin = f"""task.graph @{name} {{
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %relu_in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %relu = task.relu 2 %relu_in : tensor<1x8x8x16xi8>
  %max_in = task.buffer 3 si %relu : tensor<1x8x8x16xi8>
  %max = task.maxpool 4 %max_in window [2, 2] stride [2, 2] : tensor<1x4x4x16xi8>
  %lut_in = task.buffer 5 si %max : tensor<1x4x4x16xi8>
  %table = task.table 6 #task.random<11> : tensor<256xi8>
  %lut = task.lut 7 %lut_in, %table : tensor<1x4x4x16xi8>
  %avg_in = task.buffer 8 si %x : tensor<1x8x8x16xi8>
  %avg_bias = task.bias 9 #task.random<12> : tensor<16xi32>
  %avg = task.avgpool 10 %avg_in bias %avg_bias window [2, 2] stride [2, 2] shift 2 : {pooled_type}
  %mul_lhs = task.buffer 11 si %avg : tensor<1x4x4x16xi8>
  %mul_rhs = task.buffer 12 si %lut : tensor<1x4x4x16xi8>
  %mul = task.mul 13 %mul_lhs, %mul_rhs shift 6 : tensor<1x4x4x16xi8>
  %add_avg = task.buffer 14 si %avg : tensor<1x4x4x16xi8>
  %add_mul = task.buffer 15 si %mul : tensor<1x4x4x16xi8>
  %add_lut = task.buffer 16 si %lut : tensor<1x4x4x16xi8>
  %add_bias = task.bias 17 #task.random<12> : tensor<16xi32>
  %add = task.add 18 %add_avg, %add_mul, %add_lut bias %add_bias shift 1 : tensor<1x4x4x16xi8>
  %fc_in = task.buffer 19 sifc %add : tensor<1x4x4x16xi8>
  %fc_w = task.weight 20 #task.random<13> : tensor<10x4x4x16xi8>
  %fc_b = task.bias 21 #task.random<14> : tensor<10xi32>
  %fc = task.fc 22 %fc_in, %fc_w bias %fc_b shift 9 : tensor<1x1x1x10xi8>
  %y = task.buffer 23 so %fc : tensor<1x1x1x10xi8>
  task.output 24 "y" %y
  %conv_in = task.buffer 25 sic %x : tensor<1x8x8x16xi8>
  %conv_w = task.weight 26 #task.random<15> : tensor<8x1x1x16xi8>
  %conv = task.conv 27 %conv_in, %conv_w : tensor<1x8x8x8xi32>
  %z_in = task.buffer 28 si %conv : tensor<1x8x8x8xi32>
  %z_relu = task.relu 29 %z_in shift 8 : tensor<1x8x8x8xi8>
  %z = task.buffer 30 so %z_relu : tensor<1x8x8x8xi8>
  task.output 31 "z" %z
}}
"""
    description = (
        f"Two {target_name} cores that together run every compute instruction (relu, maxpool, lut, "
        "conv to int32, avgpool, mul, add, fc) on one 8x8x16 input and exchange a 4x4x16 tile."
    )
    return Example(name, description, ModuleOp([isa.ProgramOp(name, target_name, ops)]), twin)


LIT_EXAMPLES = {
    "conv-4core": lambda: conv_rows(name="conv_4core"),
    "layout-conv": layout_conv,
    "layout-round-trip": layout_round_trip,
    "every-op": every_op,
}
"""The examples checked in under tests/lit/isa, by file stem."""


def lit_files(stem: str, example: Example) -> dict[str, str]:
    """The lit test of an example, and its task twin (which runs the comparison back)."""
    header = "".join(f"// {line}\n" for line in wrap(example.description))
    header += "// Generated by stc.tools.isa_examples; regenerate with write_lit_files.\n"
    twin_name = f"{stem}.task.mlir"
    files = {
        f"{stem}.mlir": header
        + f"// RUN: stc-run %s --compare %S/{twin_name}\n"
        + f"// RUN: stc-run %s --seed 7 --compare %S/{twin_name}\n\n"
        + module_text(example.module),
        twin_name: f"// The task graph {stem}.mlir must agree with.\n"
        + f"// RUN: stc-run %s --seed 3 --compare %S/{stem}.mlir\n\n"
        + example.twin,
    }
    return files


def wrap(text: str, width: int = 96) -> list[str]:
    lines = [""]
    for word in text.split():
        if lines[-1] and len(lines[-1]) + 1 + len(word) > width:
            lines.append("")
        lines[-1] = f"{lines[-1]} {word}".strip()
    return lines


def write_lit_files(directory: Path) -> list[Path]:
    """Write every example's lit files into `directory` (tests/lit/isa)."""
    written: list[Path] = []
    for stem, make in LIT_EXAMPLES.items():
        for file_name, text in lit_files(stem, make()).items():
            path = directory / file_name
            path.write_text(text)
            written.append(path)
    return written
