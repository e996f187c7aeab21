"""
The int8 task graph an import writes, tensor by tensor: each ONNX tensor is int8 codes in
NHWC with one scale (the real value of one step); data goes to an npz archive; a block that
shifts keeps its bias in accumulator steps until the end, so that its shift can still be
raised when an Add or Concat needs its inputs at one scale.

    graph = Int8Graph(model, max_abs, "net.npz")
    y = graph.scaled_block(node, task.ConvOp, operands, shape, acc_scale, bias, stride=(1, 1))
    graph.finish_biases()      # graph.arrays: the npz contents
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping

import attrs
import numpy as np
from xdsl.dialects.builtin import FloatAttr, f64
from xdsl.ir import Operation, SSAValue

from stc.compiler.diagnostics import StcError
from stc.compiler.frontend.onnx_model import Model, Node
from stc.compiler.frontend.scales import (
    MAX_SHIFT,
    is_pow2,
    log2_exact,
    pow2_scale,
    rounded_bias,
    shift_for,
    table,
)
from stc.compiler.zoo.builder import Activation, NetworkBuilder, Operands
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


class Int8Graph:
    """The graph being written, its tensors' values and scales, and its npz arrays."""

    def __init__(self, model: Model, max_abs: Mapping[str, float], npz_name: str):
        self.model = model
        self.max_abs = max_abs
        self.npz_name = npz_name
        batch = next(iter(model.inputs.values()))[0]
        self.builder = NetworkBuilder(model.name, batch, shifts=())
        self.values: dict[str, Value] = {}
        self.arrays: dict[str, np.ndarray] = {}
        self.scaled: dict[str, list[Scaled]] = {}
        """Per tensor, the blocks that shift to it (one per group of a grouped conv)."""
        self.passes_through: dict[str, str] = {}
        self.uses = model.uses()
        self.readers: dict[str, list[Node]] = {}
        for node in model.nodes:
            for name in node.inputs:
                self.readers.setdefault(name, []).append(node)
        self.imported: Counter[str] = Counter()
        self.requantised = 0

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

    def reference(self, key: str, array: np.ndarray) -> task.NpzDataAttr:
        """`array` stored in the npz under a fresh key."""
        key = self.fresh_key(key)
        self.arrays[key] = array
        return task.NpzDataAttr((self.npz_name, key))

    def data(self, kind: type[task.DataOp], key: str, array: np.ndarray) -> SSAValue:
        """A data block holding `array`."""
        return self.builder.data(kind, array.shape, self.reference(key, array))

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
        self.scaled.setdefault(node.outputs[0], []).append(Scaled(op, bias_key, steps))
        return Value(act, acc_scale * 2**shift, ())

    def finish_biases(self) -> None:
        for name, records in self.scaled.items():
            for scaled in records:
                self.finish_bias(name, scaled)

    def finish_bias(self, name: str, scaled: Scaled) -> None:
        if scaled.bias_key is None:
            return
        steps = np.zeros(scaled.op.result.type.get_shape()[3]) if scaled.bias is None else scaled.bias
        bias = rounded_bias(steps, scaled.op.int("shift"))
        if bias.size and np.abs(bias).max() >= 2**31:
            raise StcError(f"tensor {name!r}: its bias needs {int(np.abs(bias).max())} accumulator steps, beyond int32")
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
        else:
            records = self.scaled.get(name, [])
            if not records or any(r.bias_key is None or r.op.int("shift") + steps > MAX_SHIFT for r in records):
                return False
            for record in records:
                record.op.properties["shift"] = i64_attr(record.op.int("shift") + steps)
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
