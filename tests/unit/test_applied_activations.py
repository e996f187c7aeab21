"""The relus and luts a conv applies on the way out of the array (`MemoryPlan.applier`),
and those it must not: tiny searched on set-8x8."""

import pytest

from stc.compiler.memory.plan import MemoryPlan
from stc.compiler.targets.hardware import load_target
from stc.compiler.zoo import build_network
from stc.dialects import task
from stc.dialects.integers import i64_attr
from stc.dialects.st import ADDRESS
from stc.passes.st_lmem_alloc import StLmemAllocPass
from stc.passes.st_route import StRoutePass
from stc.passes.st_search import StSearchPass
from stc.runtime.golden import find_graph
from stc.tools.search_machine import compile_with

TARGET = load_target("set-8x8")


@pytest.fixture(scope="module")
def mapped() -> task.GraphOp:
    """tiny's graph searched (one chain of 20 rounds), routed and allocated on set-8x8."""
    module = build_network("tiny")
    compile_with([StSearchPass(target="set-8x8", rounds=20, chains=1), StRoutePass(), StLmemAllocPass()], module)
    return find_graph(module)


def unary_blocks(graph: task.GraphOp) -> dict[bool, list[task.ReluOp | task.LutOp]]:
    """The relu and lut pieces, by whether a conv's result feeds them (False: an add's)."""
    kinds: dict[bool, list[task.ReluOp | task.LutOp]] = {}
    for op in graph.tasks():
        if isinstance(op, task.ReluOp | task.LutOp):
            buffer = op.operands[0].owner
            assert isinstance(buffer, task.BufferOp)
            producer = buffer.pieces[0][0].owner
            kinds.setdefault(isinstance(producer, task.ConvOp), []).append(op)
    return kinds


def test_every_relu_and_lut_after_a_conv_is_applied_by_it_and_none_after_an_add(mapped):
    applied = MemoryPlan(mapped, TARGET, "test").applied
    by_conv, by_add = unary_blocks(mapped)[True], unary_blocks(mapped)[False]
    assert {op.task_id for op in applied.values()} == {op.task_id for op in by_conv}
    assert any(isinstance(op, task.LutOp) for op in by_conv)
    assert any(isinstance(op, task.ReluOp) for op in by_conv)
    assert by_add
    assert not {op.task_id for op in by_add} & {op.task_id for op in applied.values()}


def test_a_relu_that_shifts_is_left_to_the_vector_unit(mapped):
    """A relu with a shift requantizes: the conv does not apply it (the others still are)."""
    graph = mapped.clone()
    relus = [op for op in unary_blocks(graph)[True] if isinstance(op, task.ReluOp)]
    relus[0].properties["shift"] = i64_attr(1)
    applied = {op.task_id for op in MemoryPlan(graph, TARGET, "test").applied.values()}
    assert relus[0].task_id not in applied
    assert {op.task_id for op in relus[1:]} <= applied


def test_a_relu_on_another_phase_than_its_conv_is_left_to_the_vector_unit(mapped, monkeypatch):
    graph = mapped.clone()
    relu = next(op for op in unary_blocks(graph)[True] if isinstance(op, task.ReluOp))
    first = MemoryPlan.first
    monkeypatch.setattr(MemoryPlan, "first", lambda plan, task_id: first(plan, task_id) + (task_id == relu.task_id))
    applied = {op.task_id for op in MemoryPlan(graph, TARGET, "test").applied.values()}
    assert relu.task_id not in applied
    assert applied


def test_a_relu_on_another_core_than_its_conv_is_left_to_the_vector_unit(mapped, monkeypatch):
    graph = mapped.clone()
    relu = next(op for op in unary_blocks(graph)[True] if isinstance(op, task.ReluOp))
    core = MemoryPlan.core

    def moved(plan: MemoryPlan, task_id: int) -> tuple[int, int]:
        return (7, 7) if task_id == relu.task_id else core(plan, task_id)

    monkeypatch.setattr(MemoryPlan, "core", moved)
    applied = {op.task_id for op in MemoryPlan(graph, TARGET, "test").applied.values()}
    assert relu.task_id not in applied
    assert applied


def test_the_buffer_between_a_conv_and_its_applied_activation_holds_no_bytes(mapped):
    """st-lmem-alloc gives the conv the activation's address and the buffer between them,
    never written, no region and no address."""
    plan = MemoryPlan(mapped, TARGET, "test")
    held = {region.key[0] for region in plan.regions}
    assert plan.applied
    for conv, activation in plan.applied.items():
        buffer = activation.operands[0].owner
        assert isinstance(buffer, task.BufferOp)
        assert buffer.task_id not in held
        assert ADDRESS not in buffer.attributes
        assert plan.blocks[conv].attributes[ADDRESS] == activation.attributes[ADDRESS]
