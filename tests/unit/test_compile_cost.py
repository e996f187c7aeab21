"""The fast paths of compile cost give what the plain computations give: the holds indexed
by core, the allocator's yes/no, the memory plan's coordinates and pieces decoded once,
the st matrix's stages by op class and its places read once per shared coordinate, and
a many-core group listed without reading the layers."""

import random

import pytest
from xdsl.context import Context

from stc.compiler.grouping.choice import spatial_group
from stc.compiler.grouping.hold import HeldByCore
from stc.compiler.grouping.layers import LayerGraph
from stc.compiler.mapping.actions import applied_matrix, mapped_graphs, mapping_target
from stc.compiler.mapping.block_stages import SOMA_BLOCKS, allowed_stages, is_memory_block
from stc.compiler.mapping.place import Place
from stc.compiler.memory.allocation import allocate, fits
from stc.compiler.memory.plan import MemoryPlan
from stc.compiler.memory.rectangles import AllocationError, Memory, Request
from stc.compiler.targets.hardware import load_target
from stc.compiler.zoo import build_network
from stc.dialects import task
from stc.dialects.st import COORD, Stage
from stc.passes.stc_pipeline import StcPipelinePass
from stc.runtime.golden import find_graph


def mapped(network: str, target: str):
    """The module after split, group, place and route (mapped, not yet allocated)."""
    module = build_network(network)
    for stage in StcPipelinePass(target=target, iterations=200).passes()[:-2]:
        stage.apply(Context(), module)
    return module


@pytest.fixture(scope="module")
def lenet_tianjicx():
    return mapped("lenet", "tianjicx")


@pytest.mark.parametrize("seed", range(6))
def test_held_by_core_gives_up_what_a_scan_of_every_hold_would(seed: int):
    """Crowds that shrink as holds are given up, as `hold_group_buffers` asks: each answer
    is the highest id held on the crowd's cores, found by a scan of every hold."""
    rng = random.Random(seed)
    held, plain = HeldByCore(), {}
    for task_id in rng.sample(range(1000), 300):
        place = Place.at((0, 0, rng.randrange(4), rng.randrange(3)), 0, 0, Stage.MEMORY, 2)
        held.add(task_id, place)
        plain[task_id] = place
    crowded = {(y, x) for y in range(4) for x in range(3)}
    while crowded:
        mine = [i for i, place in plain.items() if place.space[2:] in crowded]
        assert held.last_on(crowded) == (max(mine) if mine else None)
        assert held.cores() == {place.space[2:] for place in plain.values()}
        if not mine:
            break
        assert held.pop(max(mine)) == plain.pop(max(mine))
        if rng.random() < 0.1:
            crowded = set(rng.sample(sorted(crowded), rng.randrange(len(crowded))))


def test_held_by_core_refuses_a_wider_crowd_and_late_holds():
    held = HeldByCore()
    held.add(3, Place.at((0, 0, 0, 0), 0, 0, Stage.MEMORY, 2))
    held.add(5, Place.at((0, 0, 0, 1), 0, 0, Stage.MEMORY, 2))
    assert held.last_on({(0, 0)}) == 3
    with pytest.raises(ValueError, match=r"cores \[\(0, 1\)\] were not among"):
        held.last_on({(0, 0), (0, 1)})
    with pytest.raises(ValueError, match="buffer 7 is held after holds began to be given up"):
        held.add(7, Place.at((0, 0, 0, 0), 0, 0, Stage.MEMORY, 2))


def allocates(requests: list[Request], memory: Memory) -> bool:
    try:
        allocate(requests, memory)
    except AllocationError:
        return False
    return True


@pytest.mark.parametrize("banks", [(), (96, 96, 64)])
def test_fits_answers_as_allocate_does(banks: tuple[int, ...]):
    """Random requests that fit, overflow, or fit in bytes but not in addresses."""
    rng = random.Random(2)
    answers = set()
    for case in range(150):
        requests = [
            Request(
                i,
                rng.randrange(8, 120),
                rng.choice((1, 16, 64)),
                start := rng.randrange(6),
                start + rng.randrange(3),
                f"r{i}",
                frozenset(rng.sample(range(8), rng.randrange(2))),
            )
            for i in range(rng.randrange(1, 8))
        ]
        memory = Memory(256, banks) if banks else Memory(256)
        answer = fits(requests, memory)
        assert answer == allocates(requests, memory), f"case {case}"
        answers.add(answer)
    assert answers == {True, False}


def test_memory_plan_reads_each_coordinate_and_piece_once(lenet_tianjicx):
    graph, target = find_graph(lenet_tianjicx), load_target("tianjicx")
    plan = MemoryPlan(graph, target, "test")
    span = target.max_phases
    for op in graph.tasks():
        coord = op.attributes[COORD]
        assert plan.core(op.task_id) == coord.space[2:]
        assert plan.first(op.task_id) == coord.step * span + coord.phase
        assert plan.last(op.task_id) == coord.step * span + coord.last_phase
        if isinstance(op, task.BufferOp):
            assert plan.sources[op.task_id] == op.pieces


def test_st_matrix_stages_by_class_are_the_rules_by_instance(lenet_tianjicx):
    for op in find_graph(lenet_tianjicx).tasks():
        if isinstance(op, task.InputOp):
            expected = (Stage.ROUTER_RECV,)
        elif isinstance(op, task.OutputOp):
            expected = (Stage.ROUTER_SEND,)
        elif isinstance(op, task.StorageOp):
            expected = (Stage.MEMORY,)
        elif isinstance(op, SOMA_BLOCKS):
            expected = (Stage.SOMA1, Stage.SOMA2)
        else:
            expected = (Stage.AXON,)
        assert allowed_stages(op) == expected
        assert is_memory_block(op) == (
            isinstance(op, task.StorageOp) and not isinstance(op, task.InputOp | task.OutputOp)
        )


def test_annotations_read_once_per_coordinate_place_every_block_where_it_says(lenet_tianjicx):
    (mapping, graph), *_ = mapped_graphs(lenet_tianjicx, "test")
    matrix = applied_matrix(mapping, graph, mapping_target(mapping))
    for op in graph.tasks():
        coord = op.attributes[COORD]
        assert matrix.places[op.task_id] == Place.at(
            coord.space, coord.step, coord.phase, coord.stage, coord.last_phase
        )


@pytest.mark.parametrize("network", ["lenet", "resnet18"])
def test_a_many_core_group_lists_the_layers_layer_graph_reads(network: str):
    graph, target = find_graph(build_network(network)), load_target("tianjicx")
    assert spatial_group(graph, target, (), ()) == [layer.task_id for layer in LayerGraph(graph, target).ops]
