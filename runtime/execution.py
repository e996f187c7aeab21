"""
The golden executor: runs a task graph (as plain data, `stc.runtime.blocks`) block by
block with exact integer semantics. It is the reference every pass is checked against.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from stc.compiler.diagnostics import StcError
from stc.runtime import kernels
from stc.runtime.blocks import Block, Graph
from stc.runtime.data import DataStore
from stc.runtime.inputs import Arrays, check_int8_inputs


class GoldenExecutor:
    """Evaluates each block once, in order, and frees every value after its last use."""

    def __init__(self, data: DataStore):
        self.data = data

    def run(self, graph: Graph, inputs: Mapping[str, np.ndarray]) -> Arrays:
        check_int8_inputs(f"graph @{graph.name}", graph.input_shapes(), inputs)
        last_use = {operand: index for index, block in enumerate(graph.blocks) for operand in block.operands}
        values: dict[int, np.ndarray] = {}
        outputs: Arrays = {}
        for index, block in enumerate(graph.blocks):
            args = [values[v] for v in block.operands]
            try:
                if block.name == "task.output":
                    outputs[block.label] = np.ascontiguousarray(args[0].transpose(0, 3, 1, 2))
                elif block.name == "task.input":
                    nhwc = inputs[block.label].transpose(0, 2, 3, 1)
                    values[index] = np.ascontiguousarray(nhwc, dtype=np.int8)
                else:
                    values[index] = self.evaluate(block, args)
            except MemoryError as e:
                raise StcError(f"{block.name} {block.id}: out of memory ({e})") from None
            for operand in set(block.operands):
                if last_use[operand] == index:
                    del values[operand]
        return outputs

    def evaluate(self, block: Block, args: list[np.ndarray]) -> np.ndarray:
        """The value of a buffer, data block or compute block, given its operands' values."""
        if block.name == "task.buffer":
            return assemble(block, args)
        if block.data[0]:
            return self.data.block(block)
        return finish(block, accumulate(block, args))


def assemble(block: Block, args: list[np.ndarray]) -> np.ndarray:
    """A buffer from the boxes of its sources (which tile it, as verified)."""
    result = np.empty(block.shape, dtype=args[0].dtype)
    for source, (box, offset) in zip(args, block.pieces, strict=True):
        dst = tuple(slice(o, o + hi - lo) for o, (lo, hi) in zip(offset, box, strict=True))
        result[dst] = source[tuple(slice(lo, hi) for lo, hi in box)]
    return result


def accumulate(block: Block, args: list[np.ndarray]) -> np.ndarray:
    """What a compute block produces before its output stage: int64, bias included."""
    if block.has_bias:
        *args, bias_value = args
    acc = ACCUMULATORS[block.name](block, args)
    if block.has_bias:
        acc += bias_value
    return acc


def finish(block: Block, acc: np.ndarray) -> np.ndarray:
    """The output stage: shift, then saturate to the result's element type."""
    return kernels.saturate_shift(acc, block.clauses.get("shift", 0), block.width)  # pyright: ignore[reportArgumentType]


def conv(block: Block, args: list[np.ndarray]) -> np.ndarray:
    return kernels.conv2d(args[0], args[1], block.ints("stride"), block.ints("pad"), block.ints("dilation"))


def avgpool(block: Block, args: list[np.ndarray]) -> np.ndarray:
    return kernels.window_sum(args[0], block.ints("window"), block.ints("stride"), block.ints("pad"))


def maxpool(block: Block, args: list[np.ndarray]) -> np.ndarray:
    best = kernels.window_max(args[0], block.ints("window"), block.ints("stride"), block.ints("pad"))
    return kernels.at_least(best, block.int("cmp"))


ACCUMULATORS: dict[str, Callable[[Block, list[np.ndarray]], np.ndarray]] = {
    "task.conv": conv,
    "task.fc": lambda block, args: kernels.fully_connected(args[0], args[1]),
    "task.avgpool": avgpool,
    "task.maxpool": maxpool,
    "task.relu": lambda block, args: kernels.at_least(args[0], block.int("cmp")),
    "task.lut": lambda block, args: kernels.lookup(args[0], args[1]),
    "task.add": lambda block, args: kernels.branch_sum(args),
    "task.mul": lambda block, args: kernels.product(args[0], args[1]),
}
"""Per compute block: its raw result from its activation and data operands (no bias)."""
