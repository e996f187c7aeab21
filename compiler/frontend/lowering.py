"""
ONNX nodes as int8 task blocks. Each tensor is held as int8 codes with one scale (the real
number one step stands for); weights are scaled by their input's scale and quantised to
a power of two, so a conv or fc accumulates at a power-of-two step and its `shift` picks
the output scale the calibration asks for. Biases are int32 in accumulator steps, plus
half a step of the shift so that it rounds to nearest.

    lowering = NodeLowering(model, max_abs, "net.npz")
    module = lowering.run()            # lowering.arrays holds the npz contents

For a model `x → Conv(3×3) → Relu → y` this writes:

```mlir
%x = task.input 0 "x" : tensor<1x8x8x3xi8> {scale = 3.125e-02 : f64}
%0 = task.buffer 1 sic %x : tensor<1x8x8x3xi8>
%1 = task.weight 2 #task.npz<"net.npz", "conv.weight"> : tensor<16x3x3x3xi8>
%2 = task.bias 3 #task.npz<"net.npz", "conv.bias"> : tensor<16xi32>
%3 = task.conv 4 %0, %1 bias %2 pad [1, 1, 1, 1] shift 7 : tensor<1x8x8x16xi8>
%4 = task.buffer 5 si %3 : tensor<1x8x8x16xi8>
%5 = task.relu 6 %4 : tensor<1x8x8x16xi8>
```
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping

import attrs
import numpy as np
from xdsl.dialects.builtin import FloatAttr, ModuleOp, f64
from xdsl.ir import Operation, SSAValue

from stc.compiler.diagnostics import StcError
from stc.compiler.frontend import pointwise
from stc.compiler.frontend.onnx_model import Model, Node
from stc.compiler.frontend.scales import (
    MAX_SHIFT,
    is_pow2,
    log2_exact,
    pow2_scale,
    rounded_bias,
    shift_for,
    table,
    weight_codes,
)
from stc.compiler.zoo.builder import Activation, NetworkBuilder, Operands, pads
from stc.dialects import task
from stc.dialects.integers import i64_attr

PASS_THROUGH = ("Relu", "Clip", "MaxPool")
"""Ops whose output keeps its input's scale: a producer read only by one of them takes
that op's output range as its own."""


@attrs.define
class Value:
    """An ONNX tensor in the graph: its int8 parts (NHWC) and the real value of one step."""

    act: Activation
    scale: float
    shape: tuple[int, ...]
    """The ONNX shape: NCHW, or N×features."""
    flat: tuple[int, int, int] | None = None
    """(C, H, W) of a 4-D tensor flattened to N×(C·H·W) in ONNX's order."""


@attrs.define
class Scaled:
    """A block whose shift the lowering may still raise, and its bias in accumulator steps."""

    op: task.ComputeBlock
    bias_key: str | None
    bias: np.ndarray | None


class NodeLowering:
    """Walks a normalised model's nodes and appends their blocks to a `NetworkBuilder`."""

    def __init__(self, model: Model, max_abs: Mapping[str, float], npz_name: str):
        self.model = model
        self.max_abs = max_abs
        self.npz_name = npz_name
        batch = next(iter(model.inputs.values()))[0]
        self.builder = NetworkBuilder(model.name, batch, shifts=())
        self.values: dict[str, Value] = {}
        self.arrays: dict[str, np.ndarray] = {}
        self.scaled: dict[str, Scaled] = {}
        self.passes_through: dict[str, str] = {}
        self.uses = model.uses()
        self.readers: dict[str, list[Node]] = {}
        for node in model.nodes:
            for name in node.inputs:
                self.readers.setdefault(name, []).append(node)
        self.imported: Counter[str] = Counter()
        self.requantised = 0

    def run(self) -> ModuleOp:
        for name, shape in self.model.inputs.items():
            self.graph_input(name, shape)
        for node in self.model.nodes:
            lower = getattr(self, f"lower_{node.op_type}", None)
            if lower is None:
                raise StcError(f"{node.describe()} is not supported; stc-import supports {', '.join(supported_ops())}")
            lower(node)
            self.imported[node.op_type] += 1
            for name in node.outputs[:1]:
                if (forced := self.model.scales.get(name)) is not None and self.values[name].scale != forced:
                    self.values[name] = self.requantised_to(self.values[name], forced, node)
        for name, tensor in self.model.outputs.items():
            self.graph_output(name, tensor)
        self.finish_biases()
        return self.builder.finish()

    # -- tensors -------------------------------------------------------------------------

    def graph_input(self, name: str, shape: tuple[int, ...]) -> None:
        n, c, h, w = shape if len(shape) == 4 else (shape[0], shape[1], 1, 1)
        scale = self.model.scales.get(name) or pow2_scale(self.max_abs.get(name, 0.0))
        act = self.builder.input(name, channels=c, height=h, width=w)
        self.last_op().attributes["scale"] = FloatAttr(scale, f64)
        self.values[name] = Value(act, scale, shape)

    def graph_output(self, name: str, tensor: str) -> None:
        if tensor not in self.values:
            raise StcError(f"output {name!r} is not computed by any node stc-import lowers (is it a constant?)")
        value = self.values[tensor]
        self.builder.output(name, value.act)
        self.last_op().attributes["scale"] = FloatAttr(value.scale, f64)

    def last_op(self) -> Operation:
        op = self.builder.graph.block.last_op
        assert op is not None
        return op

    def value(self, node: Node, index: int = 0) -> Value:
        name = node.inputs[index]
        if name in self.model.constants:
            raise StcError(
                f"{node.describe()}: input {name!r} is a constant; stc-import takes activations here "
                "(constants only as weights, biases and shapes)"
            )
        value = self.values[name]
        if value.flat is not None and node.op_type not in ("Gemm", "MatMul", "Flatten", "Reshape"):
            raise StcError(
                f"{node.describe()}: reads {name!r}, a {value.flat} tensor flattened in NCHW order; "
                "only Gemm and MatMul may read a flattened feature map"
            )
        return value

    def constant(self, node: Node, index: int) -> np.ndarray:
        name = node.inputs[index]
        if name not in self.model.constants:
            raise StcError(f"{node.describe()}: input {name!r} must be a constant (an initializer)")
        return self.model.constants[name].astype(np.float64)

    def has_input(self, node: Node, index: int) -> bool:
        return len(node.inputs) > index and bool(node.inputs[index])

    def range_of(self, name: str) -> float:
        """The calibrated magnitude a tensor's scale must hold: that of its one reader's output
        when the reader keeps the scale (a ReLU cuts what it does not pass)."""
        readers = self.readers.get(name, [])
        if self.uses[name] == 1 and len(readers) == 1 and readers[0].op_type in PASS_THROUGH:
            return self.range_of(readers[0].outputs[0])
        return self.max_abs.get(name, 0.0)

    def output_shift(self, node: Node, acc_scale: float) -> int:
        """The shift giving the node's output its forced scale, or the calibrated one."""
        name = node.outputs[0]
        forced = self.forced_scale(name)
        if forced is None:
            return shift_for(acc_scale, self.range_of(name))
        ratio = forced / acc_scale
        if not is_pow2(ratio) or not 0 <= log2_exact(ratio) <= MAX_SHIFT:
            raise StcError(
                f"{node.describe()}: its output scale {forced:g} is not the accumulator's step {acc_scale:g} "
                f"times 2^0..2^{MAX_SHIFT}; a shift cannot reach it"
            )
        return log2_exact(ratio)

    def forced_scale(self, name: str) -> float | None:
        if name in self.model.scales:
            return self.model.scales[name]
        readers = self.readers.get(name, [])
        if self.uses[name] == 1 and len(readers) == 1 and readers[0].op_type in PASS_THROUGH:
            return self.forced_scale(readers[0].outputs[0])
        return None

    # -- blocks ---------------------------------------------------------------------------

    def fresh_key(self, key: str) -> str:
        """`key` as an npz member name (letters, digits, `_` and `.`), unused so far."""
        key = re.sub(r"[^\w.]+", "_", key).strip("_") or "tensor"
        while key in self.arrays or key == "file":
            key += "_"
        return key

    def data(self, kind: type[task.DataOp], key: str, array: np.ndarray) -> SSAValue:
        """A data block referencing `array`, stored in the npz under a fresh key."""
        key = self.fresh_key(key)
        self.arrays[key] = array
        return self.builder.data(kind, array.shape, task.NpzDataAttr((self.npz_name, key)))

    def scaled_block(
        self,
        node: Node,
        kind: type[task.ComputeBlock],
        operands: Operands,
        shape: tuple[int, ...],
        acc_scale: float,
        bias: np.ndarray | None,
        **clauses,
    ) -> Value:
        """A block that accumulates at `acc_scale` and shifts to its output's scale. `bias`
        is in real units (None: none, beyond the rounding half step)."""
        shift = self.output_shift(node, acc_scale)
        channels = shape[3]
        bias_key = None
        if bias is not None or shift > 0:
            bias_key = self.fresh_key(f"{node.name}.bias")
            operands = [*operands, [self.data(task.BiasOp, bias_key, np.zeros(channels, dtype=np.int32))]]
        elif kind.has_bias():
            operands = [*operands, []]
        act = self.builder.compute(kind, operands, shape, shift=shift, **clauses)
        op = act.parts[0][0].owner
        assert isinstance(op, task.ComputeBlock)
        steps = None if bias is None else np.broadcast_to(bias / acc_scale, (channels,))
        self.scaled[node.outputs[0]] = Scaled(op, bias_key, steps)
        return Value(act, acc_scale * 2**shift, ())

    def finish_biases(self) -> None:
        for name, scaled in self.scaled.items():
            if scaled.bias_key is None:
                continue
            steps = np.zeros(scaled.op.result.type.get_shape()[3]) if scaled.bias is None else scaled.bias
            bias = rounded_bias(steps, scaled.op.int("shift"))
            if bias.size and np.abs(bias).max() >= 2**31:
                raise StcError(
                    f"tensor {name!r}: its bias needs {int(np.abs(bias).max())} accumulator steps, beyond int32"
                )
            self.arrays[scaled.bias_key] = bias.astype(np.int32)

    def requantised_to(self, value: Value, scale: float, node: Node) -> Value:
        """`value` brought to `scale`: by a 1×1 average pool that shifts, or a lookup table."""
        self.requantised += 1
        shape = value.act.shape
        ratio = scale / value.scale
        if is_pow2(ratio) and 0 < log2_exact(ratio) <= MAX_SHIFT:
            shift = log2_exact(ratio)
            bias = self.data(task.BiasOp, f"{node.name}.requant.bias", rounded_bias(np.zeros(shape[3]), shift))
            operands: Operands = [self.builder.buffer(value.act, task.StorageKind.SI), [bias]]
            act = self.builder.compute(
                task.AvgPoolOp, operands, shape, shift=shift, window=(1, 1), stride=(1, 1), pad=(0, 0, 0, 0)
            )
            return attrs.evolve(value, act=act, scale=scale)
        return attrs.evolve(value, act=self.lookup(value, lambda x: x, scale, f"{node.name}.requant"), scale=scale)

    def lookup(self, value: Value, function, out_scale: float, key: str) -> Activation:
        codes = table(function, value.scale, out_scale)
        entries = self.data(task.TableOp, f"{key}.table", codes)
        return self.builder.compute(
            task.LutOp, [self.builder.buffer(value.act, task.StorageKind.SI), entries], value.act.shape
        )

    def raise_shift(self, name: str, steps: int) -> bool:
        """Coarsen a tensor read only by one node by raising its producer's shift (through
        the ReLUs and max pools in between); False when that is not possible."""
        if self.uses[name] != 1:
            return False
        if name in self.passes_through:
            if not self.raise_shift(self.passes_through[name], steps):
                return False
        elif (scaled := self.scaled.get(name)) is None or scaled.bias_key is None:
            return False
        elif scaled.op.int("shift") + steps > MAX_SHIFT:
            return False
        else:
            scaled.op.properties["shift"] = i64_attr(scaled.op.int("shift") + steps)
        self.values[name].scale *= 2**steps
        return True

    def aligned(self, node: Node, names: list[str]) -> list[Value]:
        """The inputs of an Add or Concat at one common scale, the coarsest of theirs."""
        common = max(self.value(node, i).scale for i in range(len(names)))
        result = []
        for name in names:
            value = self.values[name]
            ratio = common / value.scale
            if ratio != 1:
                if is_pow2(ratio) and self.raise_shift(name, log2_exact(ratio)):
                    value = self.values[name]
                else:
                    value = self.requantised_to(value, common, node)
            result.append(value)
        return result

    def set(self, node: Node, value: Value, shape: tuple[int, ...], source: str | None = None) -> None:
        self.values[node.outputs[0]] = attrs.evolve(value, shape=shape)
        if source is not None:
            self.passes_through[node.outputs[0]] = source

    # -- ops (each `lower_<OpType>`) ------------------------------------------------------

    def lower_Conv(self, node: Node) -> None:
        x = self.value(node)
        weight = self.constant(node, 1)
        if len(x.shape) != 4 or weight.ndim != 4:
            raise StcError(f"{node.describe()}: stc-import takes 2-D convolutions of NCHW tensors")
        if node.attr("group", 1) != 1:
            raise StcError(
                f"{node.describe()}: group {node.attr('group')} > 1 (grouped or depthwise convolution) is not "
                f"supported: task.conv reduces over all {x.shape[1]} input channels"
            )
        n, _, h, w = x.shape
        filters, _, ky, kx = weight.shape
        stride = tuple(node.attr("strides", [1, 1]))
        dilation = tuple(node.attr("dilations", [1, 1]))
        padding = self.padding(node, (h, w), (ky, kx), stride, dilation)
        codes, acc_scale = weight_codes(weight * x.scale)
        bias = self.constant(node, 2) if self.has_input(node, 2) else np.zeros(filters)
        out_h = task.window_output_size(h, ky, stride[0], padding[0], padding[1], dilation[0])
        out_w = task.window_output_size(w, kx, stride[1], padding[2], padding[3], dilation[1])
        operands: Operands = [
            self.builder.buffer(x.act, task.StorageKind.SIC),
            self.data(task.WeightOp, f"{node.name}.weight", codes.transpose(0, 2, 3, 1)),
        ]
        y = self.scaled_block(
            node, task.ConvOp, operands, (n, out_h, out_w, filters), acc_scale, bias,
            stride=stride, pad=padding, dilation=dilation,
        )  # fmt: skip
        self.set(node, y, (n, filters, out_h, out_w))

    def padding(self, node: Node, size, kernel, stride, dilation) -> tuple[int, int, int, int]:
        """ONNX pads `[top, left, bottom, right]` (or auto_pad) as task's `[top, bottom, left, right]`."""
        auto = node.attr("auto_pad", "NOTSET")
        if auto in ("NOTSET", "VALID"):
            top, left, bottom, right = node.attr("pads", [0, 0, 0, 0]) if auto == "NOTSET" else (0, 0, 0, 0)
            return pads((top, bottom, left, right))
        if auto not in ("SAME_UPPER", "SAME_LOWER"):
            raise StcError(f"{node.describe()}: auto_pad {auto!r} is not an ONNX padding mode")
        total = [
            max(0, (math.ceil(n / s) - 1) * s + (k - 1) * d + 1 - n)
            for n, k, s, d in zip(size, kernel, stride, dilation, strict=True)
        ]
        low = [t // 2 if auto == "SAME_UPPER" else t - t // 2 for t in total]
        return low[0], total[0] - low[0], low[1], total[1] - low[1]

    def lower_Gemm(self, node: Node) -> None:
        if node.attr("transA", 0):
            raise StcError(f"{node.describe()}: transA=1 is not supported (the activation must be N×K)")
        weight = self.constant(node, 1) * node.attr("alpha", 1.0)
        weight = weight if node.attr("transB", 0) else weight.T
        bias = self.constant(node, 2) * node.attr("beta", 1.0) if self.has_input(node, 2) else None
        self.fully_connected(node, weight, bias)

    def lower_MatMul(self, node: Node) -> None:
        self.fully_connected(node, self.constant(node, 1).T, None)

    def fully_connected(self, node: Node, weight: np.ndarray, bias: np.ndarray | None) -> None:
        """Y = X·Wᵀ + b with W of F×K; a flattened feature map's weight is reordered to F×H×W×C."""
        x = self.value(node)
        if len(x.shape) != 2 or weight.ndim != 2 or weight.shape[1] != x.shape[1]:
            raise StcError(
                f"{node.describe()}: takes an N×K activation and a K×F constant, got {list(x.shape)} and "
                f"{list(weight.T.shape)}"
            )
        n, h, w, c = x.act.shape
        features = weight.shape[0]
        if x.flat is not None:
            weight = weight.reshape(features, *x.flat).transpose(0, 2, 3, 1)
        codes, acc_scale = weight_codes(weight.reshape(features, h, w, c) * x.scale)
        bias = np.zeros(features) if bias is None else np.broadcast_to(bias, (features,))
        operands: Operands = [
            self.builder.buffer(x.act, task.StorageKind.SIFC),
            self.data(task.WeightOp, f"{node.name}.weight", codes),
        ]
        y = self.scaled_block(node, task.FcOp, operands, (n, 1, 1, features), acc_scale, bias)
        self.set(node, y, (n, features))

    def lower_Relu(self, node: Node) -> None:
        x = self.value(node)
        act = self.builder.compute(task.ReluOp, [self.builder.buffer(x.act, task.StorageKind.SI)], x.act.shape)
        self.set(node, attrs.evolve(x, act=act), x.shape, node.inputs[0])

    def lower_Clip(self, node: Node) -> None:
        x = self.value(node)
        low = self.clip_bound(node, 1, "min", -np.inf)
        high = self.clip_bound(node, 2, "max", np.inf)
        low_code, high_code = math.ceil(low / x.scale - 1e-9), math.floor(high / x.scale + 1e-9)
        if low_code <= -128 and high_code >= 127:
            self.set(node, x, x.shape, node.inputs[0])
        elif low_code == 0 and high_code >= 127:
            self.lower_Relu(node)
        else:
            act = self.lookup(x, lambda v: np.clip(v, low, high), x.scale, node.name)
            self.set(node, attrs.evolve(x, act=act), x.shape)

    def clip_bound(self, node: Node, index: int, name: str, default: float) -> float:
        if self.has_input(node, index):
            return float(self.constant(node, index).reshape(()))
        return float(node.attr(name, default))

    def lower_MaxPool(self, node: Node) -> None:
        x = self.value(node)
        self.check_pool(node, allow_padding=True)
        self.pool(node, task.MaxPoolOp, x, tuple(node.attr("kernel_shape")), cmp=-128)
        self.passes_through[node.outputs[0]] = node.inputs[0]

    def lower_AveragePool(self, node: Node) -> None:
        self.check_pool(node, allow_padding=bool(node.attr("count_include_pad", 0)))
        self.pool(node, task.AvgPoolOp, self.value(node), tuple(node.attr("kernel_shape")))

    def lower_GlobalAveragePool(self, node: Node) -> None:
        x = self.value(node)
        self.pool(node, task.AvgPoolOp, x, x.shape[2:])

    def check_pool(self, node: Node, allow_padding: bool) -> None:
        if node.attr("ceil_mode", 0):
            raise StcError(f"{node.describe()}: ceil_mode=1 is not supported (task pools round output sizes down)")
        if any(d != 1 for d in node.attr("dilations", [1, 1])):
            raise StcError(f"{node.describe()}: dilated pooling is not supported")
        if not allow_padding and any(node.attr("pads", [0, 0, 0, 0])):
            raise StcError(
                f"{node.describe()}: padding with count_include_pad=0 divides border windows by fewer "
                "elements; task.avgpool divides every window by one shift (export with count_include_pad=1)"
            )

    def pool(self, node: Node, kind, x: Value, window: tuple[int, ...], **clauses) -> None:
        n, h, w, c = x.act.shape
        stride = tuple(node.attr("strides", [1, 1]))
        padding = self.padding(node, (h, w), window, stride, (1, 1))
        out_h = task.window_output_size(h, window[0], stride[0], padding[0], padding[1])
        out_w = task.window_output_size(w, window[1], stride[1], padding[2], padding[3])
        shape = (n, out_h, out_w, c)
        operands: Operands = [self.builder.buffer(x.act, task.StorageKind.SI)]
        if kind is task.MaxPoolOp:
            act = self.builder.compute(kind, operands, shape, window=window, stride=stride, pad=padding, **clauses)
            y = attrs.evolve(x, act=act)
        else:
            acc_scale = x.scale / (window[0] * window[1])
            y = self.scaled_block(
                node, kind, operands, shape, acc_scale, None, window=window, stride=stride, pad=padding
            )
        self.set(node, y, (n, c, out_h, out_w))

    def lower_Add(self, node: Node) -> None:
        self.branch_sum(node)

    def lower_Sum(self, node: Node) -> None:
        self.branch_sum(node)

    def branch_sum(self, node: Node) -> None:
        names = list(node.inputs)
        shapes = {self.value(node, i).shape for i in range(len(names))}
        if len(shapes) != 1:
            raise StcError(f"{node.describe()}: adds tensors of shapes {sorted(shapes)}; broadcasting is not supported")
        branches = self.aligned(node, names)
        buffers: Operands = [[self.builder.buffer(b.act, task.StorageKind.SI) for b in branches]]
        y = self.scaled_block(node, task.AddOp, buffers, branches[0].act.shape, branches[0].scale, None)
        self.set(node, y, branches[0].shape)

    def lower_Mul(self, node: Node) -> None:
        a, b = self.value(node, 0), self.value(node, 1)
        if a.shape != b.shape:
            raise StcError(
                f"{node.describe()}: multiplies shapes {list(a.shape)} and {list(b.shape)}; "
                "broadcasting is not supported"
            )
        operands: Operands = [self.builder.buffer(v.act, task.StorageKind.SI) for v in (a, b)]
        y = self.scaled_block(node, task.MulOp, operands, a.act.shape, a.scale * b.scale, None)
        self.set(node, y, a.shape)

    def lower_Concat(self, node: Node) -> None:
        values = [self.value(node, i) for i in range(len(node.inputs))]
        rank = len(values[0].shape)
        if node.attr("axis") not in (1, 1 - rank):
            raise StcError(f"{node.describe()}: concatenates along axis {node.attr('axis')}; only channels (1)")
        parts = self.aligned(node, list(node.inputs))
        act = self.builder.concat([p.act for p in parts])
        self.set(node, Value(act, parts[0].scale, ()), (values[0].shape[0], act.channels, *values[0].shape[2:]))

    def lower_Flatten(self, node: Node) -> None:
        x = self.value(node)
        if node.attr("axis", 1) != 1:
            raise StcError(f"{node.describe()}: axis {node.attr('axis')}; stc-import flattens from axis 1 only")
        self.reshaped(node, x, (x.shape[0], math.prod(x.shape[1:])))

    def lower_Reshape(self, node: Node) -> None:
        x = self.value(node)
        target = [int(d) for d in self.constant(node, 1).astype(np.int64)]
        target = [x.shape[i] if d == 0 and not node.attr("allowzero", 0) else d for i, d in enumerate(target)]
        if -1 in target:
            known = math.prod(d for d in target if d != -1)
            target[target.index(-1)] = math.prod(x.shape) // max(known, 1)
        self.reshaped(node, x, tuple(target))

    def reshaped(self, node: Node, x: Value, target: tuple[int, ...]) -> None:
        """A reshape that moves no data in NHWC: a feature map flattened for a Gemm, or
        N×C ↔ N×C×1×1."""
        shape = x.shape if x.flat is None else (x.shape[0], *x.flat)
        n = shape[0]
        if target == tuple(x.shape):
            self.set(node, x, target, node.inputs[0])
        elif len(shape) == 4 and target == (n, math.prod(shape[1:])):
            flat = None if shape[2:] == (1, 1) else tuple(shape[1:])
            self.set(node, attrs.evolve(x, flat=flat), target)
        elif x.flat is None and math.prod(x.act.shape[1:3]) == 1 and target in ((n, shape[1]), (n, shape[1], 1, 1)):
            self.set(node, x, target)
        else:
            raise StcError(
                f"{node.describe()}: reshaping {list(x.shape)} to {list(target)} moves data in NHWC; "
                "stc-import takes reshapes that flatten a feature map for a Gemm or add or drop 1×1 dimensions"
            )

    def lower_pointwise(self, node: Node) -> None:
        x = self.value(node)
        function = pointwise.function(node)
        forced = self.forced_scale(node.outputs[0])
        scale = forced or pow2_scale(self.max_abs.get(node.outputs[0], 0.0))
        act = self.lookup(x, function, scale, node.name)
        self.set(node, Value(act, scale, ()), x.shape)


for _op in pointwise.FUNCTIONS:
    setattr(NodeLowering, f"lower_{_op}", NodeLowering.lower_pointwise)


def supported_ops() -> list[str]:
    folded = [
        "BatchNormalization",
        "Constant",
        "DequantizeLinear",
        "Dropout",
        "Identity",
        "QLinearConv",
        "QuantizeLinear",
    ]
    lowered = [name.removeprefix("lower_") for name in dir(NodeLowering) if name.startswith("lower_")]
    return sorted(set(folded) | set(lowered) - {"pointwise"})
