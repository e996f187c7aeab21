"""
`NetworkBuilder`: writes a network as a task graph, layer by layer, the way a front end
would: every compute block gets its own input buffer (a buffer feeds one block) and data
blocks reference deterministic random data. Each block is executed as it is added, on a
random calibration input, so that every shift is chosen from the real spread of its
accumulations and activations stay int8-friendly; or, given the shifts of an earlier
build, it reuses them and executes nothing.

    b = NetworkBuilder("net")
    x = b.input("image", channels=3, height=32, width=32)
    y = b.conv(x, 16, 3, pad=1, relu=True)
    b.output("features", y)
    module = b.finish()
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs
import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, TensorType, i8, i32
from xdsl.ir import Operation, SSAValue

from stc.dialects import task
from stc.dialects.integers import i64_array, i64_attr
from stc.runtime.data import DataStore
from stc.runtime.execution import GoldenExecutor, accumulate, finish
from stc.runtime.from_ops import plain_block

TARGET_RMS = 24.0
"""The spread aimed for at the output of a scaling block: 127 sits at about five of them."""
SCALED_BLOCKS = (task.ConvOp, task.FcOp, task.AvgPoolOp, task.AddOp, task.MulOp)
"""The blocks whose shift is calibrated; the others keep shift 0."""
Operands = list[SSAValue | list[SSAValue]]


@attrs.frozen
class Activation:
    """A tensor flowing between layers: the producer results it is made of, each at a
    channel offset (more than one part after a concat)."""

    parts: tuple[tuple[SSAValue, int], ...]
    shape: tuple[int, int, int, int]

    @property
    def channels(self) -> int:
        return self.shape[3]


def pair(value: int | Sequence[int]) -> tuple[int, int]:
    return (value, value) if isinstance(value, int) else (value[0], value[1])


def pads(value: int | Sequence[int]) -> tuple[int, int, int, int]:
    if isinstance(value, int):
        return (value,) * 4
    top, bottom, left, right = value
    return top, bottom, left, right


def calibrated_shift(acc: np.ndarray) -> int:
    """The shift that brings accumulations of this spread to about TARGET_RMS."""
    rms = math.sqrt(float(np.mean(np.square(acc, dtype=np.float64))))
    return max(0, round(math.log2(max(rms, 1.0) / TARGET_RMS)))


class NetworkBuilder:
    """Builds one `task.graph`; see the module docstring."""

    def __init__(self, name: str, batch: int = 1, seed: int = 0, shifts: Sequence[int] | None = None):
        self.graph = task.GraphOp(name)
        self.batch = batch
        self.rng = np.random.default_rng(seed)
        self.given_shifts = None if shifts is None else iter(shifts)
        self.executor = GoldenExecutor(DataStore())
        self.values: dict[SSAValue, np.ndarray] = {}
        self.ids = self.graph.fresh_ids()
        self._next_seed = 1

    def fresh_seed(self) -> int:
        self._next_seed += 1
        return self._next_seed - 1

    def add(self, op: Operation) -> SSAValue:
        """Append a block and compute its calibration value."""
        self.graph.block.add_op(op)
        result = op.results[0]
        if self.given_shifts is None and not isinstance(op, task.InputOp):
            self.values[result] = self.executor.evaluate(plain_block(op), [self.values[v] for v in op.operands])
        return result

    def input(self, name: str, channels: int, height: int, width: int) -> Activation:
        shape = (self.batch, height, width, channels)
        value = self.add(task.InputOp(next(self.ids), name, TensorType(i8, shape)))
        if self.given_shifts is None:
            self.values[value] = self.rng.integers(-128, 128, size=shape, dtype=np.int8)
        return Activation(((value, 0),), shape)

    def output(self, name: str, x: Activation) -> None:
        buffer = self.buffer(x, task.StorageKind.SO)
        self.graph.block.add_op(task.OutputOp(next(self.ids), name, buffer))

    def buffer(self, x: Activation, kind: task.StorageKind, channels: tuple[int, int] | None = None) -> SSAValue:
        """A buffer assembling `x` (or its channels `lo:hi`) from its parts."""
        lo, hi = channels or (0, x.channels)
        sources = []
        for value, offset in x.parts:
            typ = value.type
            assert isinstance(typ, TensorType)
            shape = typ.get_shape()
            start, stop = max(lo, offset), min(hi, offset + shape[3])
            if start < stop:
                box = task.BoxAttr((*((0, size) for size in shape[:3]), (start - offset, stop - offset)))
                sources.append((value, box, (0, 0, 0, start - lo)))
        return self.add(task.BufferOp(next(self.ids), kind, sources, TensorType(i8, (*x.shape[:3], hi - lo))))

    def data(
        self, kind: type[task.DataOp], shape: Sequence[int], reference: task.DataReference | None = None
    ) -> SSAValue:
        """A data block holding `reference`, or fresh deterministic random data."""
        typ = TensorType(i32 if kind is task.BiasOp else i8, shape)
        reference = task.RandomDataAttr(self.fresh_seed()) if reference is None else reference
        return self.add(kind(next(self.ids), reference, typ))

    def compute(
        self,
        kind: type[task.ComputeBlock],
        operands: Operands,
        shape: Sequence[int],
        shift: int | None = None,
        **clauses: Sequence[int] | int,
    ) -> Activation:
        """Append a compute block with the given shift, or the next of the given shifts,
        or one chosen from its calibration accumulations."""
        properties = {"id": i64_attr(next(self.ids))}
        for name, value in clauses.items():
            properties[name] = i64_attr(value) if isinstance(value, int) else i64_array(value)
        op = kind.build(operands=operands, properties=properties, result_types=[TensorType(i8, shape)])
        self.graph.block.add_op(op)
        if shift is not None:
            op.properties["shift"] = i64_attr(shift)
        if self.given_shifts is not None:
            if isinstance(op, SCALED_BLOCKS) and shift is None:
                op.properties["shift"] = i64_attr(next(self.given_shifts))
            return Activation(((op.result, 0),), tuple(shape))  # pyright: ignore[reportArgumentType]
        acc = accumulate(plain_block(op), [self.values[v] for v in op.operands])
        if isinstance(op, SCALED_BLOCKS) and shift is None:
            op.properties["shift"] = i64_attr(calibrated_shift(acc))
        self.values[op.result] = finish(plain_block(op), acc)
        return Activation(((op.result, 0),), tuple(shape))  # pyright: ignore[reportArgumentType]

    def conv(
        self,
        x: Activation,
        filters: int,
        kernel: int | Sequence[int],
        stride: int | Sequence[int] = 1,
        pad: int | Sequence[int] = 0,
        dilation: int | Sequence[int] = 1,
        relu: bool = False,
    ) -> Activation:
        (ky, kx), (sy, sx), (dy, dx), padding = pair(kernel), pair(stride), pair(dilation), pads(pad)
        n, h, w, c = x.shape
        out_h = task.window_output_size(h, ky, sy, padding[0], padding[1], dy)
        out_w = task.window_output_size(w, kx, sx, padding[2], padding[3], dx)
        operands: Operands = [
            self.buffer(x, task.StorageKind.SIC),
            self.data(task.WeightOp, (filters, ky, kx, c)),
            [self.data(task.BiasOp, (filters,))],
        ]
        y = self.compute(
            task.ConvOp, operands, (n, out_h, out_w, filters), stride=(sy, sx), pad=padding, dilation=(dy, dx)
        )
        return self.relu(y) if relu else y

    def fc(self, x: Activation, features: int, relu: bool = False) -> Activation:
        n, h, w, c = x.shape
        operands: Operands = [
            self.buffer(x, task.StorageKind.SIFC),
            self.data(task.WeightOp, (features, h, w, c)),
            [self.data(task.BiasOp, (features,))],
        ]
        y = self.compute(task.FcOp, operands, (n, 1, 1, features))
        return self.relu(y) if relu else y

    def relu(self, x: Activation) -> Activation:
        return self.compute(task.ReluOp, [self.buffer(x, task.StorageKind.SI)], x.shape)

    def leaky_relu(self, x: Activation) -> Activation:
        """Leaky ReLU with slope 1/8, as a 256-entry lookup table."""
        values = np.arange(256, dtype=np.uint8).view(np.int8).astype(np.int64)
        data = DenseIntOrFPElementsAttr.from_list(
            TensorType(i8, (256,)), np.where(values >= 0, values, values >> 3).tolist()
        )
        table = self.add(task.TableOp(next(self.ids), data, data.type))
        return self.compute(task.LutOp, [self.buffer(x, task.StorageKind.SI), table], x.shape)

    def multiply(self, a: Activation, b: Activation) -> Activation:
        """Elementwise product (a gate)."""
        buffers: Operands = [self.buffer(a, task.StorageKind.SI), self.buffer(b, task.StorageKind.SI), []]
        return self.compute(task.MulOp, buffers, a.shape)

    def add_branches(self, branches: Sequence[Activation], relu: bool = False) -> Activation:
        buffers = [self.buffer(b, task.StorageKind.SI) for b in branches]
        y = self.compute(task.AddOp, [buffers, []], branches[0].shape)
        return self.relu(y) if relu else y

    def maxpool(self, x: Activation, kernel: int, stride: int, pad: int | Sequence[int] = 0) -> Activation:
        return self.pool(task.MaxPoolOp, x, (kernel, kernel), stride, pads(pad))

    def avgpool(self, x: Activation, kernel: int, stride: int, pad: int | Sequence[int] = 0) -> Activation:
        return self.pool(task.AvgPoolOp, x, (kernel, kernel), stride, pads(pad))

    def global_avgpool(self, x: Activation) -> Activation:
        return self.pool(task.AvgPoolOp, x, x.shape[1:3], 1, (0, 0, 0, 0))

    def pool(
        self, kind: type[task.WindowBlock], x: Activation, window: Sequence[int], stride: int, padding: Sequence[int]
    ) -> Activation:
        n, h, w, c = x.shape
        out_h = task.window_output_size(h, window[0], stride, padding[0], padding[1])
        out_w = task.window_output_size(w, window[1], stride, padding[2], padding[3])
        operands: Operands = [self.buffer(x, task.StorageKind.SI)]
        if kind is task.AvgPoolOp:
            operands.append([])
        return self.compute(kind, operands, (n, out_h, out_w, c), window=window, stride=(stride, stride), pad=padding)

    def concat(self, branches: Sequence[Activation]) -> Activation:
        """Channel concatenation: no block, just a tensor made of parts."""
        parts: list[tuple[SSAValue, int]] = []
        offset = 0
        for branch in branches:
            parts.extend((value, offset + channel) for value, channel in branch.parts)
            offset += branch.channels
        n, h, w, _ = branches[0].shape
        return Activation(tuple(parts), (n, h, w, offset))

    def shifts(self) -> list[int]:
        """The shifts of the scaling blocks, in order."""
        return [op.int("shift") for op in self.graph.block.ops if isinstance(op, SCALED_BLOCKS)]

    def finish(self) -> ModuleOp:
        self.values.clear()
        module = ModuleOp([self.graph])
        module.verify()
        return module
