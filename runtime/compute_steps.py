"""
What each compute instruction of an isa program does on its core, and what it costs: it
reads its input tiles from the core's local memory, computes with the kernels
(`runtime/kernels`), adds the bias, shifts, saturates and stores into its output tile.

    cycles, work = COMPUTE_STEPS[type(op)](target, core, op, site)

A tile outside the core's local memory is an error at `site` (`isa.where`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from stc.compiler.targets.core_dataflow import core_buffer_work
from stc.compiler.targets.cost_units import Work, conv_macs, fc_macs, mac_cycles, vector_cycles
from stc.compiler.targets.hardware import HardwareTarget
from stc.dialects import isa
from stc.runtime import kernels
from stc.runtime.core import Core
from stc.runtime.views import tile

Step = tuple[int, Work]
"""What one instruction costs: the cycles it occupies its core, and its work."""


def inputs(core: Core, site: str, op: isa.ComputeInstruction) -> list[np.ndarray]:
    return [tile(core, site, role, t) for role, t in zip(op.input_roles(), op.inputs, strict=True)]


def finish(core: Core, site: str, op: isa.ComputeInstruction, acc: np.ndarray) -> None:
    """Add the bias, shift, saturate, apply a fused activation and store into the output tile."""
    if op.bias is not None:
        acc += tile(core, site, "bias", op.bias)
    result = kernels.saturate_shift(acc, op.shift_amount, op.output.element_bits)
    if op.relu is not None:
        result = kernels.saturate_shift(kernels.at_least(result, op.relu.value.data), 0, op.output.element_bits)
    elif op.table is not None:
        result = kernels.lookup(result, tile(core, site, "table", op.table))
    tile(core, site, "output", op.output)[...] = result


def conv(target: HardwareTarget, core: Core, op: isa.ConvOp, site: str) -> Step:
    x, w = inputs(core, site, op)
    acc = kernels.conv2d(x, w, op.clause_ints("stride"), op.clause_ints("pad"), op.clause_ints("dilation"))
    finish(core, site, op, acc)
    macs = conv_macs(acc.size, *w.shape[1:])
    return mac_cycles(target, macs), mac_work(target, op, macs)


def fc(target: HardwareTarget, core: Core, op: isa.FcOp, site: str) -> Step:
    x, w = inputs(core, site, op)
    finish(core, site, op, kernels.fully_connected(x, w))
    macs = fc_macs(x.shape[0], w.shape[0], w[0].size)
    return mac_cycles(target, macs), mac_work(target, op, macs)


def mac_work(target: HardwareTarget, op: isa.ComputeInstruction, macs: int) -> Work:
    """A conv's or fc's work: its MACs, its tiles read and written once in local memory, and
    the accesses to the buffers inside the core along the instruction's dataflow."""
    buffers = core_buffer_work(target.core_buffers, *op.core_work_shape(), op.chosen_dataflow())
    return Work(macs, operand_bytes(op), op.output.nbytes, 0, 0, 0, *buffers)


def avgpool(target: HardwareTarget, core: Core, op: isa.AvgPoolOp, site: str) -> Step:
    (x,) = inputs(core, site, op)
    acc = kernels.window_sum(x, op.window_shape(), op.clause_ints("stride"), op.clause_ints("pad"))
    finish(core, site, op, acc)
    return vector_step(target, op, windowed_read_bytes(op, acc.size))


def maxpool(target: HardwareTarget, core: Core, op: isa.MaxPoolOp, site: str) -> Step:
    (x,) = inputs(core, site, op)
    best = kernels.window_max(x, op.window_shape(), op.clause_ints("stride"), op.clause_ints("pad"))
    finish(core, site, op, kernels.at_least(best, op.clause_int("cmp")))
    return vector_step(target, op, windowed_read_bytes(op, best.size))


def relu(target: HardwareTarget, core: Core, op: isa.ReluOp, site: str) -> Step:
    (x,) = inputs(core, site, op)
    finish(core, site, op, kernels.at_least(x, op.clause_int("cmp")))
    return vector_step(target, op, operand_bytes(op))


def lut(target: HardwareTarget, core: Core, op: isa.LutOp, site: str) -> Step:
    x, table = inputs(core, site, op)
    tile(core, site, "output", op.output)[...] = kernels.lookup(x, table)
    return vector_step(target, op, operand_bytes(op))


def add(target: HardwareTarget, core: Core, op: isa.AddOp, site: str) -> Step:
    branches = inputs(core, site, op)
    finish(core, site, op, kernels.branch_sum(branches))
    return vector_step(target, op, operand_bytes(op))


def mul(target: HardwareTarget, core: Core, op: isa.MulOp, site: str) -> Step:
    lhs, rhs = inputs(core, site, op)
    finish(core, site, op, kernels.product(lhs, rhs))
    return vector_step(target, op, operand_bytes(op))


def vector_step(target: HardwareTarget, op: isa.ComputeInstruction, read_bytes: int) -> Step:
    written = op.output.nbytes
    return vector_cycles(target, read_bytes + written), Work(local_read_bytes=read_bytes, local_write_bytes=written)


def operand_bytes(op: isa.ComputeInstruction) -> int:
    """Bytes of every input tile, the bias and a fused lut's table, each read once."""
    extra = [t.nbytes for t in (op.bias, op.table) if t is not None]
    return sum(t.nbytes for t in op.inputs) + sum(extra)


def windowed_read_bytes(op: isa.WindowInstruction, output_elements: int) -> int:
    """Bytes a window instruction reads: every output element reads its whole window."""
    ky, kx = op.window_shape()
    source = op.inputs.data[0]
    bias = op.bias.nbytes if op.bias is not None else 0
    return output_elements * ky * kx * source.element_bits // 8 + bias


COMPUTE_STEPS: dict[type[isa.ComputeInstruction], Callable[[HardwareTarget, Core, Any, str], Step]] = {
    isa.ConvOp: conv,
    isa.FcOp: fc,
    isa.AvgPoolOp: avgpool,
    isa.MaxPoolOp: maxpool,
    isa.ReluOp: relu,
    isa.LutOp: lut,
    isa.AddOp: add,
    isa.MulOp: mul,
}
"""The step of each compute instruction."""
