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

import attrs
import numpy as np
from xdsl.dialects.builtin import ModuleOp, TensorType, i8

from stc.compiler.diagnostics import StcError
from stc.compiler.frontend import pointwise
from stc.compiler.frontend.int8_graph import Int8Graph, Value
from stc.compiler.frontend.onnx_model import Node
from stc.compiler.frontend.scales import (
    pow2_scale,
    weight_codes,
)
from stc.compiler.zoo.builder import Operands, pads
from stc.dialects import task


class NodeLowering(Int8Graph):
    """Walks a normalised model's nodes and appends their blocks to the graph."""

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

    # -- ops (each `lower_<OpType>`) ------------------------------------------------------

    def lower_Conv(self, node: Node) -> None:
        """A convolution; a grouped one is one `task.conv` per group, each reading its
        group's channels, their results side by side (the weights one npz array, boxed)."""
        x = self.value(node)
        weight = self.constant(node, 1)
        if len(x.shape) != 4 or weight.ndim != 4:
            raise StcError(f"{node.describe()}: stc-import takes 2-D convolutions of NCHW tensors")
        n, _, h, w = x.shape
        filters, group_channels, ky, kx = weight.shape
        groups = node.attr("group", 1)  # onnxruntime has checked that it divides channels and filters
        stride = tuple(node.attr("strides", [1, 1]))
        dilation = tuple(node.attr("dilations", [1, 1]))
        padding = self.padding(node, (h, w), (ky, kx), stride, dilation)
        codes, acc_scale = weight_codes(weight * x.scale)
        bias = self.constant(node, 2) if self.has_input(node, 2) else np.zeros(filters)
        out_h = task.window_output_size(h, ky, stride[0], padding[0], padding[1], dilation[0])
        out_w = task.window_output_size(w, kx, stride[1], padding[2], padding[3], dilation[1])
        full = codes.transpose(0, 2, 3, 1)
        reference = self.reference(f"{node.name}.weight", full)
        per_group = filters // groups
        pieces = []
        for group in range(groups):
            f0, c0 = group * per_group, group * group_channels
            box = task.BoxAttr(((f0, f0 + per_group), (0, ky), (0, kx), (0, group_channels))) if groups > 1 else None
            weight_block = self.builder.add(
                task.WeightOp(next(self.builder.ids), reference, TensorType(i8, full.shape), box)
            )
            operands: Operands = [
                self.builder.buffer(x.act, task.StorageKind.SIC, (c0, c0 + group_channels)),
                weight_block,
            ]
            piece = self.scaled_block(
                node, task.ConvOp, operands, (n, out_h, out_w, per_group), acc_scale, bias[f0 : f0 + per_group],
                stride=stride, pad=padding, dilation=dilation,
            )  # fmt: skip
            pieces.append(piece.act)
        y = Value(self.builder.concat(pieces), piece.scale, ())
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
        bias = self.constant(node, 2) if self.has_input(node, 2) else None
        self.fully_connected(node, self.constant(node, 1).T, bias)

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
        if any(name in self.model.constants for name in node.inputs):
            self.rescaled(node, lambda factor: factor)
            return
        a, b = self.value(node, 0), self.value(node, 1)
        if a.shape != b.shape:
            raise StcError(
                f"{node.describe()}: multiplies shapes {list(a.shape)} and {list(b.shape)}; "
                "broadcasting is not supported"
            )
        operands: Operands = [self.builder.buffer(v.act, task.StorageKind.SI) for v in (a, b)]
        y = self.scaled_block(node, task.MulOp, operands, a.act.shape, a.scale * b.scale, None)
        self.set(node, y, a.shape)

    def lower_Div(self, node: Node) -> None:
        self.rescaled(node, lambda divisor: 1 / divisor)

    def rescaled(self, node: Node, factor_of) -> None:
        """A product with (or quotient by) a positive scalar constant: the same codes, at a
        scale that much larger; no block."""
        index = 1 if node.inputs[1] in self.model.constants else 0
        constant = self.constant(node, index)
        if constant.size != 1 or not constant.reshape(()) > 0 or (node.op_type == "Div" and index == 0):
            raise StcError(
                f"{node.describe()}: takes an activation and a positive scalar constant here, got "
                f"{node.inputs[index]!r} of shape {list(constant.shape)}"
            )
        x = self.value(node, 1 - index)
        self.set(node, attrs.evolve(x, scale=x.scale * factor_of(float(constant.reshape(())))), x.shape)

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

    def lower_Squeeze(self, node: Node) -> None:
        x = self.value(node)
        axes = {a % len(x.shape) for a in self.axes(node)} or {i for i, d in enumerate(x.shape) if d == 1}
        self.reshaped(node, x, tuple(d for i, d in enumerate(x.shape) if i not in axes or d != 1))

    def lower_Unsqueeze(self, node: Node) -> None:
        x = self.value(node)
        rank = len(x.shape) + len(self.axes(node))
        axes = {a % rank for a in self.axes(node)}
        sizes = iter(x.shape)
        self.reshaped(node, x, tuple(1 if i in axes else next(sizes) for i in range(rank)))

    def axes(self, node: Node) -> list[int]:
        """The `axes` of a Squeeze or Unsqueeze: an input from opset 13, an attribute before."""
        if self.has_input(node, 1):
            return [int(a) for a in self.constant(node, 1).astype(np.int64).ravel()]
        return list(node.attr("axes", []))

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
