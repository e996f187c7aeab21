"""
The golden executor: runs a `task` graph block by block with exact integer semantics.
It is the reference every pass is checked against.

    outputs = run_module(module, {"image": x_nchw})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue

from stc.compiler.diagnostics import StcError
from stc.dialects import task
from stc.dialects.task.base import element_width, task_id_of
from stc.runtime import kernels
from stc.runtime.data import DataStore
from stc.runtime.inputs import Arrays, check_int8_inputs, completed_inputs, random_int8_inputs


def find_graph(module: ModuleOp) -> task.GraphOp:
    graphs = [op for op in module.ops if isinstance(op, task.GraphOp)]
    if len(graphs) != 1:
        raise StcError(f"expected one task.graph in the module, found {len(graphs)}")
    return graphs[0]


def nchw_shape(typ: TensorType) -> tuple[int, ...]:
    n, h, w, c = typ.get_shape()
    return n, c, h, w


def input_shapes(graph: task.GraphOp) -> dict[str, tuple[int, ...]]:
    """The NCHW shape of each input, in input order."""
    return {op.input_name.data: nchw_shape(op.result.type) for op in graph.inputs()}


def random_inputs(graph: task.GraphOp, seed: int) -> Arrays:
    """Uniform int8 inputs in NCHW, drawn in input order from one generator."""
    return random_int8_inputs(input_shapes(graph), seed)


def run_module(
    module: ModuleOp,
    inputs: Mapping[str, np.ndarray] | None = None,
    seed: int = 0,
    base_dir: Path | None = None,
    data_dirs: Sequence[Path] = (),
) -> Arrays:
    """Run the module's task graph; inputs and outputs are NCHW arrays by name. Inputs
    not given are drawn from `seed`."""
    graph = find_graph(module)
    feeds = completed_inputs(input_shapes(graph), inputs or {}, seed)
    return GoldenExecutor(DataStore(base_dir, data_dirs)).run(graph, feeds)


class GoldenExecutor:
    """Evaluates each block once, in order, and frees every value after its last use."""

    def __init__(self, data: DataStore):
        self.data = data

    def run(self, graph: task.GraphOp, inputs: Mapping[str, np.ndarray]) -> Arrays:
        check_inputs(graph, inputs)
        last_use = {operand: index for index, op in enumerate(graph.block.ops) for operand in op.operands}
        values: dict[SSAValue, np.ndarray] = {}
        outputs: Arrays = {}
        for index, op in enumerate(graph.block.ops):
            args = [values[v] for v in op.operands]
            try:
                if isinstance(op, task.OutputOp):
                    outputs[op.output_name.data] = np.ascontiguousarray(args[0].transpose(0, 3, 1, 2))
                elif isinstance(op, task.InputOp):
                    nhwc = inputs[op.input_name.data].transpose(0, 2, 3, 1)
                    values[op.result] = np.ascontiguousarray(nhwc, dtype=np.int8)
                else:
                    values[op.results[0]] = self.evaluate(op, args)
            except MemoryError as e:
                raise StcError(f"{op.name} {task_id_of(op)}: out of memory ({e})") from None
            for operand in set(op.operands):
                if last_use[operand] == index:
                    del values[operand]
        return outputs

    def evaluate(self, op: Operation, args: list[np.ndarray]) -> np.ndarray:
        """The value of a buffer, data block or compute block, given its operands' values."""
        if isinstance(op, task.BufferOp):
            return assemble(op, args)
        if isinstance(op, task.DataOp):
            return self.data.block(op)
        assert isinstance(op, task.ComputeBlock)
        return finish(op, accumulate(op, args))


def assemble(op: task.BufferOp, args: list[np.ndarray]) -> np.ndarray:
    """A buffer from the boxes of its sources (which tile it, as verified)."""
    result = np.empty(op.result.type.get_shape(), dtype=args[0].dtype)
    for source, (_, box, offset) in zip(args, op.pieces, strict=True):
        dst = tuple(slice(o, o + n) for o, n in zip(offset, box.shape, strict=True))
        result[dst] = source[tuple(slice(lo, hi) for lo, hi in box.data)]
    return result


def accumulate(op: task.ComputeBlock, args: list[np.ndarray]) -> np.ndarray:
    """What a compute block produces before its output stage: int64, bias included."""
    bias = op.optional_bias
    if bias is not None:
        *args, bias_value = args
    acc = ACCUMULATORS[type(op)](op, args)
    if bias is not None:
        acc += bias_value
    return acc


def finish(op: task.ComputeBlock, acc: np.ndarray) -> np.ndarray:
    """The output stage: shift, then saturate to the result's element type."""
    shift = op.int("shift") if "shift" in op.CLAUSES else 0
    bits = element_width(op.result.type)
    assert bits is not None
    return kernels.saturate_shift(acc, shift, bits)


def conv(op: task.ConvOp, args: list[np.ndarray]) -> np.ndarray:
    return kernels.conv2d(args[0], args[1], op.ints("stride"), op.ints("pad"), op.ints("dilation"))


def avgpool(op: task.AvgPoolOp, args: list[np.ndarray]) -> np.ndarray:
    return kernels.window_sum(args[0], op.window(), op.ints("stride"), op.ints("pad"))


def maxpool(op: task.MaxPoolOp, args: list[np.ndarray]) -> np.ndarray:
    best = kernels.window_max(args[0], op.window(), op.ints("stride"), op.ints("pad"))
    return kernels.at_least(best, op.int("cmp"))


ACCUMULATORS: dict[type[Operation], Callable[..., np.ndarray]] = {
    task.ConvOp: conv,
    task.FcOp: lambda op, args: kernels.fully_connected(args[0], args[1]),
    task.AvgPoolOp: avgpool,
    task.MaxPoolOp: maxpool,
    task.ReluOp: lambda op, args: kernels.at_least(args[0], op.int("cmp")),
    task.LutOp: lambda op, args: kernels.lookup(args[0], args[1]),
    task.AddOp: lambda op, args: kernels.branch_sum(args),
    task.MulOp: lambda op, args: kernels.product(args[0], args[1]),
}
"""Per compute block: its raw result from its activation and data operands (no bias)."""


def check_inputs(graph: task.GraphOp, inputs: Mapping[str, np.ndarray]) -> None:
    check_int8_inputs(f"graph @{graph.graph_name}", input_shapes(graph), inputs)
