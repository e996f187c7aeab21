"""
Activations a conv or fc applies on its outputs' way out of the array, on a target with
`compute.fused_activation`: isa-lower writes the conv's instruction with the relu's cmp or
the lut's table and the relu's or lut's output tile, and no instruction for the relu or lut.

A relu or lut piece that a conv could apply (`task.compute.applied_on_the_way_out`) is
applied by the conv or fc piece that feeds it when nothing else can tell: its input buffer
holds that piece's whole result alone, written in place on the same core in the same
phase, and the relu or lut is the buffer's only reader and the result's only destination.
The cost model prices every such layer so (`cost/network.py`, `Layer.activated`).

    %4 = task.conv 4 %1, %2 bias %3 ... : tensor<1x8x8x32xi8>
    %6 = task.buffer 6 si %4 : tensor<1x8x8x32xi8>
    %7 = task.lut 7 %6, %5 : tensor<1x8x8x32xi8>
    // -> isa.conv ... -> TILE_OF_7 ... lut TILE_OF_5
"""

from __future__ import annotations

from stc.compiler.memory.plan import MemoryPlan
from stc.dialects import task
from stc.dialects.task.compute import applied_on_the_way_out


def applied_activations(graph: task.GraphOp, plan: MemoryPlan) -> dict[int, task.ReluOp | task.LutOp]:
    """Per conv or fc block, the relu or lut block it applies (module docstring)."""
    applied: dict[int, task.ReluOp | task.LutOp] = {}
    for op in graph.tasks():
        if isinstance(op, task.ReluOp | task.LutOp) and (producer := applier(op, plan)) is not None:
            applied[producer.task_id] = op
    return applied


def applier(op: task.ReluOp | task.LutOp, plan: MemoryPlan) -> task.ConvOp | task.FcOp | None:
    """The conv or fc that can apply `op`, if one can."""
    if not applied_on_the_way_out(op):
        return None
    buffer = op.operands[0].owner
    if not isinstance(buffer, task.BufferOp) or len(plan.sources[buffer.task_id]) != 1:
        return None
    producer = plan.sources[buffer.task_id][0][0].owner
    if not isinstance(producer, task.ConvOp | task.FcOp) or producer.result.type != buffer.result.type:
        return None
    alone = [use.operation for use in producer.result.uses] == [buffer]
    only_reader = [use.operation for use in buffer.result.uses] == [op]
    in_place = plan.in_place.get(producer.task_id, (None,))[0] is buffer
    same_core = plan.core(producer.task_id) == plan.core(op.task_id)
    same_phase = plan.first(producer.task_id) == plan.first(op.task_id)
    return producer if alone and only_reader and in_place and same_core and same_phase else None
