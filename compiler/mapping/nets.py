"""
The producer→consumer edges of a task graph that may cross the mesh, with their bytes:
a compute block or a network input writing into a buffer, and a buffer read by a network
output. A compute block reads its input storage on its own core, so those edges never
leave it. The cost st-place minimises is Σ bytes × hops over these nets.
"""

from __future__ import annotations

import math

from attrs import frozen
from xdsl.dialects.builtin import TensorType

from stc.compiler.mapping.mesh import MeshGeometry
from stc.dialects import task
from stc.dialects.task.base import element_width


@frozen
class Net:
    """Data sent from one block to another."""

    source: int
    destination: int
    nbytes: int


def element_bytes(typ: TensorType) -> int:
    width = element_width(typ)
    assert width is not None
    return width // 8


def graph_nets(graph: task.GraphOp) -> list[Net]:
    """Every edge into a buffer and out to a network output, in graph order; the boxes a
    buffer takes from one producer are one net."""
    nets: list[Net] = []
    for op in graph.block.ops:
        if isinstance(op, task.BufferOp):
            sent: dict[int, int] = {}
            for value, box in zip(op.sources, op.boxes, strict=True):
                producer = value.owner
                assert isinstance(producer, task.TaskOp)
                assert isinstance(value.type, TensorType)
                sent[producer.task_id] = sent.get(producer.task_id, 0) + math.prod(box.shape) * element_bytes(
                    value.type
                )
            nets += [Net(source, op.task_id, nbytes) for source, nbytes in sent.items()]
        elif isinstance(op, task.OutputOp):
            buffer = op.source.owner
            assert isinstance(buffer, task.BufferOp)
            nbytes = math.prod(buffer.result.type.get_shape()) * element_bytes(buffer.result.type)
            nets.append(Net(buffer.task_id, op.task_id, nbytes))
    return nets


def hop_bytes(nets: list[Net], spaces: dict[int, tuple[int, int, int, int]], mesh: MeshGeometry) -> int:
    """Σ bytes × hops over the nets whose both ends have a core in `spaces`."""
    return sum(
        net.nbytes * mesh.hops(spaces[net.source], spaces[net.destination])
        for net in nets
        if net.source in spaces and net.destination in spaces
    )
