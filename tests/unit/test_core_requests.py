"""CoreRequests: one core's allocator requests, kept up to date as buffers give up phases,
equal `core_requests` on a plan built again, and `moved` names every core that changed."""

import pytest
from xdsl.context import Context

from stc.compiler.memory.core_requests import CoreRequests
from stc.compiler.memory.lmem import core_requests
from stc.compiler.memory.plan import MemoryPlan
from stc.compiler.targets.hardware import load_target
from stc.compiler.zoo import build_network
from stc.dialects import task
from stc.dialects.st import COORD, CoordAttr
from stc.passes.stc_pipeline import StcPipelinePass
from stc.runtime.golden import find_graph


@pytest.mark.parametrize(("network", "target"), [("tiny", "tianjicx"), ("lenet", "tianjicx"), ("tiny", "set-8x8")])
def test_requests_follow_buffers_that_give_up_phases(network: str, target: str):
    """Every buffer held over several phases gives up all but its last, one by one; after
    each, every core's requests equal a fresh plan's, and the cores whose requests changed
    are among those `moved` names."""
    module = build_network(network)
    pipeline = StcPipelinePass(target=target, iterations=200)
    for stage in pipeline.passes()[:-2]:  # split, group, place, route: mapped, not yet allocated
        stage.apply(Context(), module)
    graph, hardware = find_graph(module), load_target(target)
    requests = CoreRequests(MemoryPlan(graph, hardware, "test"))
    before = core_requests(MemoryPlan(graph, hardware, "test"))
    held = [op for op in graph.tasks() if isinstance(op, task.BufferOp) and held_over_phases(op.attributes[COORD])]
    assert held, "the grouped pipeline holds some buffer over several phases"
    for buffer in reversed(held):
        coord = buffer.attributes[COORD]
        buffer.attributes[COORD] = CoordAttr(coord.space, coord.step, coord.last_phase, coord.stage, coord.last_phase)
        changed = requests.moved(buffer.task_id)
        after = core_requests(MemoryPlan(graph, hardware, "test"))
        assert {core for core in before.keys() | after.keys() if before.get(core) != after.get(core)} <= changed
        for core, expected in after.items():
            assert requests.requests(core) == expected
        before = after


def held_over_phases(coord: CoordAttr) -> bool:
    return coord.last_phase > coord.phase
