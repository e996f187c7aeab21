"""CoreRequests: one core's allocator requests, kept up to date as buffers give up phases,
equal `core_requests` on a plan built again, and `moved` names every core that changed; the
live bytes it keeps equal `peak_live_bytes` of those requests."""

import pytest
from xdsl.context import Context

from stc.compiler.memory.core_requests import CoreRequests
from stc.compiler.memory.lmem import core_requests
from stc.compiler.memory.plan import MemoryPlan
from stc.compiler.memory.rectangles import peak_live_bytes
from stc.compiler.targets.hardware import HardwareTarget, load_target
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
    graph, hardware = mapped_graph(network, target)
    requests = CoreRequests(MemoryPlan(graph, hardware, "test"))
    before = core_requests(MemoryPlan(graph, hardware, "test"))
    for buffer in held_buffers(graph):
        changed = requests.moved(give_up_earlier_phases(buffer))
        after = core_requests(MemoryPlan(graph, hardware, "test"))
        assert {core for core in before.keys() | after.keys() if before.get(core) != after.get(core)} <= changed
        for core, expected in after.items():
            assert requests.requests(core) == expected
        before = after


@pytest.mark.parametrize(
    ("network", "target", "changes"),
    [("tiny", "tianjicx", True), ("lenet", "tianjicx", False), ("tiny", "set-8x8", True)],
)
def test_live_bytes_follow_buffers_that_give_up_phases(network: str, target: str, changes: bool):
    """Each core's live bytes over time, and their peak, asked after every other buffer gave
    up its earlier phases (so changes pile up between questions), equal those of a fresh
    plan's requests; and the buffers' changes change some core's live bytes (not on LeNet,
    whose held buffers each take one producer's whole result: given up, that result takes
    the same bytes in its own tile)."""
    graph, hardware = mapped_graph(network, target)
    requests = CoreRequests(MemoryPlan(graph, hardware, "test"))
    first = {core: (requests.peak(core), dict(requests.live[core])) for core in requests.on_core}
    for index, buffer in enumerate(held_buffers(graph)):
        requests.moved(give_up_earlier_phases(buffer))
        if index % 2:
            assert live_bytes(requests) == fresh_live_bytes(graph, hardware)
    last = live_bytes(requests)
    assert last == fresh_live_bytes(graph, hardware)
    assert (last != first) == changes


def live_bytes(requests: CoreRequests) -> dict:
    return {core: (requests.peak(core), dict(requests.live[core])) for core in requests.on_core}


def fresh_live_bytes(graph: task.GraphOp, hardware: HardwareTarget) -> dict:
    """Each core's peak and its live bytes' changes over time (none that come to nothing)."""
    by_core = core_requests(MemoryPlan(graph, hardware, "test"))
    live = {}
    for core, requests in by_core.items():
        changes: dict[int, int] = {}
        for request in requests:
            changes[request.start] = changes.get(request.start, 0) + request.size
            changes[request.end + 1] = changes.get(request.end + 1, 0) - request.size
        live[core] = (peak_live_bytes(requests), {time: change for time, change in changes.items() if change})
    return live


def mapped_graph(network: str, target: str) -> tuple[task.GraphOp, HardwareTarget]:
    """A zoo network split, grouped, placed and routed: mapped, not yet allocated."""
    module = build_network(network)
    pipeline = StcPipelinePass(target=target, iterations=200, search=False)
    for stage in pipeline.passes()[:-2]:
        stage.apply(Context(), module)
    return find_graph(module), load_target(target)


def held_buffers(graph: task.GraphOp) -> list[task.BufferOp]:
    """The buffers held over several phases, last first."""
    held = [op for op in graph.tasks() if isinstance(op, task.BufferOp) and held_over_phases(op.attributes[COORD])]
    assert held, "the grouped pipeline holds some buffer over several phases"
    return held[::-1]


def give_up_earlier_phases(buffer: task.BufferOp) -> int:
    """Keep a buffer in its last phase only; its id."""
    coord = buffer.attributes[COORD]
    buffer.attributes[COORD] = CoordAttr(coord.space, coord.step, coord.last_phase, coord.stage, coord.last_phase)
    return buffer.task_id


def held_over_phases(coord: CoordAttr) -> bool:
    return coord.last_phase > coord.phase
