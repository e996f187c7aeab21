"""STMatrix bookkeeping stays linear: an area group's nodes are found once, not once per
placed block, a split sizes only the blocks it creates, and a put that obeys the rules
builds neither an attribute nor a message."""

import pytest
from conftest import parse
from seed_graphs import SEED_GROUP
from test_st_place import relu_chain
from xdsl.utils.exceptions import PassFailedException, VerifyException

from stc.compiler.mapping import matrix as st_matrix
from stc.compiler.mapping import place as st_place
from stc.compiler.mapping.actions import ActionExecutor
from stc.compiler.mapping.area_groups import AreaGroup, Rect
from stc.compiler.mapping.coord_annotations import annotate
from stc.compiler.mapping.matrix import STMatrix
from stc.compiler.mapping.place import Place
from stc.compiler.mapping.placement import place
from stc.compiler.targets.hardware import load_target
from stc.compiler.tiling.split import split_task
from stc.dialects import task
from stc.dialects.st import CoordAttr, Stage


def counting(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    """Count the calls of one function from the matrix and its places, wherever they call it."""
    calls: list[int] = []
    for module in (st_matrix, st_place):
        if not hasattr(module, name):
            continue
        original = getattr(module, name)

        def counted(*args, original=original, **kwargs):
            calls.append(1)
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)
    return calls


def test_declaring_an_area_group_reads_each_member_once(monkeypatch: pytest.MonkeyPatch):
    graph = next(op for op in parse(relu_chain(40)).ops if isinstance(op, task.GraphOp))
    matrix = STMatrix(graph, load_target("tianjicx"))
    place(matrix, iterations=0)
    members = {op.task_id for op in graph.tasks() if isinstance(op, task.ComputeBlock)}
    calls = counting(monkeypatch, "input_storage")
    matrix.add_group("test", AreaGroup("all", members, [Rect("core", (0, 9), (0, 15))]))
    assert len(matrix.places) == 83
    assert len(calls) == len(members)
    assert len(matrix.nodes(matrix.groups[0])) == 80
    assert len(calls) == len(members)


def test_exchange_after_a_split_sizes_only_the_new_blocks(monkeypatch: pytest.MonkeyPatch):
    graph = next(op for op in parse(SEED_GROUP).ops if isinstance(op, task.GraphOp))
    matrix = STMatrix(graph, load_target("tianjicx"))
    before = dict(matrix.sizes)
    created = split_task(graph, 5, [1, 1, 2, 2])
    erased = set(before) - {op.task_id for op in graph.tasks()}
    calls = counting(monkeypatch, "storage_bytes")
    matrix.exchange(sorted(erased), [op for op in graph.tasks() if op.task_id in created])
    new_storage = [i for i in created if isinstance(matrix.blocks[i], task.StorageOp)]
    assert len(calls) == len(new_storage) > 0
    assert all(matrix.sizes[i] == size for i, size in before.items() if i in matrix.blocks)
    assert matrix.sizes == STMatrix(graph, load_target("tianjicx")).sizes


SHARED_CONV = """
task.graph @conv {
  %x = task.input 0 "x" : tensor<2x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<2x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %b = task.bias 3 #task.random<8> : tensor<32xi32>
  %c = task.conv 4 %in, %w bias %b pad [1, 1, 1, 1] shift 9 : tensor<2x8x8x32xi8>
  %out = task.buffer 5 so %c : tensor<2x8x8x32xi8>
  task.output 6 "y" %out
}
"""


def test_a_share_of_data_updates_the_matrix_without_reading_the_graph(monkeypatch: pytest.MonkeyPatch):
    """st.share_data erases the data blocks it replaces from the matrix alone: re-reading
    the whole graph per share made a searched schedule's lowering quadratic (tiny b8 on
    tianjicx, one segment per layer: 641 shares, 82 of 98 profiled seconds)."""
    graph = next(op for op in parse(SHARED_CONV).ops if isinstance(op, task.GraphOp))
    executor = ActionExecutor(graph, load_target("set-8x8"))
    executor.split("test", [4], [[2, 1, 1, 1, 1]])
    reads: list[int] = []
    tasks = task.GraphOp.tasks
    monkeypatch.setattr(task.GraphOp, "tasks", lambda self: reads.append(1) or tasks(self))
    executor.share_data("test", [10, 14])
    assert reads == []
    monkeypatch.undo()
    fresh = STMatrix(graph, load_target("set-8x8"))
    assert executor.matrix.blocks == fresh.blocks
    assert executor.matrix.sizes == fresh.sizes
    assert {12, 13} & set(executor.matrix.blocks) == set()


def test_puts_that_obey_the_rules_build_no_attribute_and_no_message(monkeypatch: pytest.MonkeyPatch):
    graph = next(op for op in parse(relu_chain(10)).ops if isinstance(op, task.GraphOp))
    matrix = STMatrix(graph, load_target("tianjicx"))
    coords, texts = counting(monkeypatch, "CoordAttr"), counting(monkeypatch, "format_coord")
    place(matrix, iterations=0)
    assert len(matrix.places) == 23
    assert coords == texts == []
    annotate(matrix)
    assert len(coords) == len(set(matrix.places.values()))
    assert all(op.attributes["st.coord"] == matrix.places[op.task_id].coord() for op in graph.tasks())


def test_a_span_of_phases_off_the_memory_stage_breaks_the_rule_its_coordinate_would():
    graph = next(op for op in parse(relu_chain(2)).ops if isinstance(op, task.GraphOp))
    matrix = STMatrix(graph, load_target("tianjicx"))
    with pytest.raises(VerifyException) as from_coord:
        CoordAttr((0, 0, 0, 0), 0, 0, Stage.AXON, 2)
    with pytest.raises(PassFailedException) as from_put:
        matrix.put("test", [(matrix.blocks[1], Place.at((0, 0, 0, 0), 0, 0, Stage.AXON, 2))])
    rule = str(from_coord.value).split(": ", 1)[1]
    assert str(from_put.value) == f"test: block 1 (task.buffer) at (0, 0, 0, 0), (0, 0 to 2, axon): {rule}"
    assert rule == "only the memory stage spans phases"
