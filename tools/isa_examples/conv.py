"""
The conv examples' layer (its global tensors and task twin) and `conv_rows`: a conv split
by output rows over a row of cores along a snake over the mesh, which swap halo rows over
the NoC (the machine benchmark runs it at ResNet-18 size).

    example = conv_rows("tianjicx", height=16, cores=4)   # isa.program + its task twin
"""

from __future__ import annotations

import itertools
import math

import attrs
from xdsl.dialects.builtin import ModuleOp, TensorType, i8, i32
from xdsl.ir import Operation

from stc.compiler.targets.hardware import Coord, HardwareTarget, load_target
from stc.dialects import isa
from stc.dialects.isa import GlobalLayout
from stc.dialects.task import RandomDataAttr
from stc.tools.isa_examples.example import GLOBAL_ALIGNMENT, Allocator, Example, local_allocator, shape_text, tile


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
    """[start, stop) of each piece, as even as possible, the `height % pieces` pieces one row
    longer first (10 → 4, 3, 3; 6 in four → 2, 2, 1, 1). The examples' own cut, not
    task-split's Average split, which ends piece k at ⌈k·height/pieces⌉ (2, 1, 2, 1)."""
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
