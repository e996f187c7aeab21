"""
An ONNX model read into the plain form the importer walks: nodes in graph order with their
attributes as Python values, constants (initializers, Constant nodes, weights behind a
DequantizeLinear) as float arrays, and the rewrites that need no int8 block done already:
Identity and Dropout removed, BatchNormalization folded into the Conv before it, a Q/DQ pair
turned into the power-of-two scale its tensor must have.

    model = read_model(Path("net.onnx"))
    for node in model.nodes: ...

The `onnx` package is imported here, inside functions only: it is a dependency of
`stc-import`, not of the compiler.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from stc.compiler.diagnostics import StcError
from stc.compiler.frontend.scales import is_pow2


@attrs.frozen
class Node:
    name: str
    op_type: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    attributes: dict[str, Any]

    def attr(self, name: str, default: Any = None) -> Any:
        return self.attributes.get(name, default)

    def describe(self) -> str:
        return f"node {self.name!r} ({self.op_type})"


@attrs.define
class Model:
    name: str
    inputs: dict[str, tuple[int, ...]]
    """Graph inputs and their shapes, the batch fixed."""
    outputs: dict[str, str]
    """Graph output name → the tensor it reads, after Identity and Q/DQ pairs are removed."""
    nodes: list[Node]
    constants: dict[str, np.ndarray]
    scales: dict[str, float]
    """Tensors whose scale a QuantizeLinear/DequantizeLinear pair (or a QLinear op) fixes."""
    folded: Counter[str] = attrs.field(factory=Counter)
    """Op type → how many nodes were removed or folded away."""

    def uses(self) -> Counter[str]:
        """How many nodes and graph outputs read each tensor."""
        count = Counter(name for node in self.nodes for name in node.inputs if name)
        count.update(self.outputs.values())
        return count


def read_model(path: Path, batch: int = 1) -> Model:
    """The model at `path`, normalised; a dynamic batch dimension becomes `batch`."""
    import onnx
    from onnx import numpy_helper

    if not path.is_file():
        raise StcError(f"no such ONNX file {str(path)!r}")
    try:
        proto = onnx.load(str(path))
    except Exception as error:  # noqa: BLE001 - protobuf raises several kinds
        raise StcError(f"{str(path)!r} is not an ONNX model ({error})") from None
    graph = proto.graph
    constants = {init.name: numpy_helper.to_array(init) for init in graph.initializer}
    inputs = {info.name: input_shape(info, batch) for info in graph.input if info.name not in constants}
    if not inputs:
        raise StcError(f"{str(path)!r} has no inputs besides its initializers; stc-import needs one")
    model = Model(proto.graph.name or path.stem, inputs, {o.name: o.name for o in graph.output}, [], constants, {})
    Normaliser(model).run([converted(node) for node in graph.node])
    return model


def input_shape(info: Any, batch: int) -> tuple[int, ...]:
    dims = info.type.tensor_type.shape.dim
    shape = [d.dim_value if d.HasField("dim_value") else 0 for d in dims]
    if shape and shape[0] == 0:
        shape[0] = batch
    if len(shape) not in (2, 4) or min(shape) < 1:
        raise StcError(
            f"input {info.name!r} has shape {[d.dim_param or d.dim_value for d in dims]}; "
            "stc-import takes static NCHW (or N×features) inputs"
        )
    return tuple(shape)


def converted(node: Any) -> Node:
    from onnx import helper, numpy_helper

    if node.domain not in ("", "ai.onnx"):
        name = node.name or node.output[0]
        raise StcError(
            f"node {name!r} ({node.domain}.{node.op_type}) is from a custom domain; stc-import reads ai.onnx"
        )
    attributes = {}
    for attribute in node.attribute:
        value = helper.get_attribute_value(attribute)
        if attribute.type == attribute.TENSOR:
            value = numpy_helper.to_array(value)
        attributes[attribute.name] = value.decode() if isinstance(value, bytes) else value
    name = node.name or f"{node.op_type}:{node.output[0]}"
    return Node(name, node.op_type, tuple(node.input), tuple(node.output), attributes)


class Normaliser:
    """Walks the nodes once, in order, removing and folding what needs no block of its own."""

    def __init__(self, model: Model):
        self.model = model
        self.alias: dict[str, str] = {}
        self.producer: dict[str, int] = {}
        self.raw_uses: Counter[str] = Counter()

    def canonical(self, name: str) -> str:
        while name in self.alias:
            name = self.alias[name]
        return name

    def run(self, nodes: list[Node]) -> None:
        self.raw_uses = Counter(name for node in nodes for name in node.inputs if name)
        self.raw_uses.update(self.model.outputs.values())
        for node in nodes:
            node = attrs.evolve(node, inputs=tuple(self.canonical(name) for name in node.inputs))
            handler = getattr(self, f"fold_{node.op_type}", None)
            if handler is None or not handler(node):
                self.keep(node)
        self.model.outputs = {name: self.canonical(name) for name in self.model.outputs}

    def keep(self, node: Node) -> None:
        for name in node.outputs:
            self.producer[name] = len(self.model.nodes)
        self.model.nodes.append(node)

    def folded(self, node: Node) -> bool:
        self.model.folded[node.op_type] += 1
        return True

    def fold_Identity(self, node: Node) -> bool:
        self.alias[node.outputs[0]] = node.inputs[0]
        return self.folded(node)

    def fold_Dropout(self, node: Node) -> bool:
        if len(node.outputs) > 1 and node.outputs[1] and self.raw_uses[node.outputs[1]]:
            raise StcError(f"{node.describe()}: its mask output is read; stc-import removes Dropout (inference)")
        return self.fold_Identity(node)

    def fold_Constant(self, node: Node) -> bool:
        if "value" not in node.attributes:
            raise StcError(f"{node.describe()}: only Constant nodes with a tensor `value` are supported")
        self.model.constants[node.outputs[0]] = np.asarray(node.attributes["value"])
        return self.folded(node)

    def fold_BatchNormalization(self, node: Node) -> bool:
        source = node.inputs[0]
        index = self.producer.get(source)
        conv = None if index is None else self.model.nodes[index]
        if conv is None or conv.op_type != "Conv" or self.raw_uses[source] != 1:
            raise StcError(
                f"{node.describe()}: BatchNormalization is folded into the Conv before it, "
                f"but {source!r} is not the output of a Conv read only by this node"
            )
        gamma, beta, mean, var = (self.constant(node, i) for i in range(1, 5))
        factor = gamma / np.sqrt(var + node.attr("epsilon", 1e-5))
        weight = self.constant(conv, 1) * factor[:, None, None, None]
        bias = self.constant(conv, 2) if len(conv.inputs) > 2 and conv.inputs[2] else np.zeros_like(mean)
        constants = self.model.constants
        constants[f"{node.outputs[0]}:weight"] = weight
        constants[f"{node.outputs[0]}:bias"] = (bias - mean) * factor + beta
        inputs = (conv.inputs[0], f"{node.outputs[0]}:weight", f"{node.outputs[0]}:bias")
        self.model.nodes[index] = attrs.evolve(conv, inputs=inputs, outputs=(node.outputs[0],))
        self.producer[node.outputs[0]] = index
        return self.folded(node)

    def fold_Add(self, node: Node) -> bool:
        """A constant added to the output of a Conv, Gemm or MatMul (read only here) joins its bias."""
        constant = [name for name in node.inputs if name in self.model.constants]
        sources = [name for name in node.inputs if name not in self.model.constants]
        index = self.producer.get(sources[0]) if len(constant) == len(sources) == 1 else None
        layer = None if index is None else self.model.nodes[index]
        if layer is None or layer.op_type not in ("Conv", "Gemm", "MatMul") or self.raw_uses[sources[0]] != 1:
            return False
        features = self.constant(layer, 1).shape[0 if layer.op_type == "Conv" or layer.attr("transB", 0) else 1]
        added = self.constant_named(node, constant[0]).astype(np.float64)
        rank = 4 if layer.op_type == "Conv" else 2
        per_channel = tuple(features if axis == 1 else 1 for axis in range(rank))
        if added.ndim > rank or (1,) * (rank - added.ndim) + added.shape not in ((1,) * rank, per_channel):
            return False
        bias = self.constant(layer, 2) * layer.attr("beta", 1.0) if len(layer.inputs) > 2 and layer.inputs[2] else 0
        self.model.constants[f"{node.outputs[0]}:bias"] = np.broadcast_to(bias + added.reshape(-1), (features,))
        inputs = (*layer.inputs[:2], f"{node.outputs[0]}:bias")
        attributes = layer.attributes | ({"beta": 1.0} if layer.op_type == "Gemm" else {})
        self.model.nodes[index] = attrs.evolve(layer, inputs=inputs, outputs=(node.outputs[0],), attributes=attributes)
        self.producer[node.outputs[0]] = index
        return self.folded(node)

    def fold_QuantizeLinear(self, node: Node) -> bool:
        scale = self.pow2_scale_of(node)
        if node.inputs[0] in self.model.constants:
            codes = np.clip(np.rint(self.constant(node, 0) / scale), -128, 127).astype(np.int8)
            self.model.constants[node.outputs[0]] = codes
            return self.folded(node)
        self.model.scales[node.inputs[0]] = scale
        self.alias[node.outputs[0]] = node.inputs[0]
        return self.folded(node)

    def fold_DequantizeLinear(self, node: Node) -> bool:
        scale = self.pow2_scale_of(node)
        source = node.inputs[0]
        if source in self.model.constants:
            self.model.constants[node.outputs[0]] = self.model.constants[source].astype(np.float64) * scale
            return self.folded(node)
        given = self.model.scales.get(source)
        if given is not None and given != scale:
            raise StcError(
                f"{node.describe()}: dequantises {source!r} at scale {scale:g}, but it was quantised at {given:g}"
            )
        self.model.scales[source] = scale
        self.alias[node.outputs[0]] = source
        return self.folded(node)

    def fold_QLinearConv(self, node: Node) -> bool:
        """A QLinearConv is a Conv whose input, weight and output scales are given."""
        x, x_scale, _, w, w_scale, _, y_scale, _, *bias = node.inputs
        scales = [self.scalar_scale(node, name, zero) for name, zero in ((x_scale, 2), (w_scale, 5), (y_scale, 7))]
        self.model.scales[x] = scales[0]
        self.model.scales[node.outputs[0]] = scales[2]
        constants = self.model.constants
        constants[f"{node.outputs[0]}:weight"] = self.constant(node, 3).astype(np.float64) * scales[1]
        inputs = [x, f"{node.outputs[0]}:weight"]
        if bias and bias[0]:
            constants[f"{node.outputs[0]}:bias"] = self.constant(node, 8).astype(np.float64) * scales[0] * scales[1]
            inputs.append(f"{node.outputs[0]}:bias")
        self.keep(attrs.evolve(node, op_type="Conv", inputs=tuple(inputs)))
        self.model.folded["QLinearConv (as Conv)"] += 1
        return True

    def pow2_scale_of(self, node: Node) -> float:
        """The scale of a QuantizeLinear or DequantizeLinear: one power of two, zero point 0, int8."""
        return self.scalar_scale(node, node.inputs[1], 2)

    def scalar_scale(self, node: Node, scale_name: str, zero_index: int) -> float:
        scale = self.constant_named(node, scale_name)
        if scale.size != 1:
            raise StcError(
                f"{node.describe()}: scale {scale_name!r} has {scale.size} values (per-axis); "
                "stc-import takes one power-of-two scale per tensor"
            )
        value = float(scale.reshape(()))
        if not is_pow2(value):
            raise StcError(
                f"{node.describe()}: scale {value:g} of {scale_name!r} is not a power of two; "
                "stc-import requantises only by shifts (quantise with power-of-two scales, or import the float model)"
            )
        if len(node.inputs) > zero_index and node.inputs[zero_index]:
            zero = self.constant_named(node, node.inputs[zero_index])
            if zero.dtype != np.int8 or zero.any():
                raise StcError(
                    f"{node.describe()}: zero point {node.inputs[zero_index]!r} is {zero.dtype} "
                    f"{zero.ravel()[:4].tolist()}; stc-import takes symmetric int8 (zero point 0)"
                )
        return value

    def constant(self, node: Node, index: int) -> np.ndarray:
        return self.constant_named(node, node.inputs[index]).astype(np.float64)

    def constant_named(self, node: Node, name: str) -> np.ndarray:
        if name not in self.model.constants:
            raise StcError(f"{node.describe()}: input {name!r} must be a constant (an initializer)")
        return self.model.constants[name]
