"""
The `task-split` pass: the seed's tables measured on split graphs, the Python API, and
differential execution (original against split, bit-identical) on the seed examples,
on hypothesis-generated blocks and on zoo networks.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from seed_graphs import SEED_AVGPOOL, SEED_CONV, SEED_FC, SEED_GROUP, SEED_LUT
from xdsl.context import Context
from xdsl.dialects.builtin import I64, DenseArrayBase, ModuleOp, ShapedType
from xdsl.ir import SSAValue
from xdsl.parser import Parser
from xdsl.utils.exceptions import PassFailedException
from xdsl.utils.hints import isa

from stc.compiler.ir_files import stc_context
from stc.compiler.tiling import copies
from stc.compiler.tiling import split as task_split
from stc.compiler.tiling.pieces import MAX_PARTIAL_TERMS, BoxIndex, average_split, axis_lengths, window_pieces
from stc.compiler.tiling.split import named_twice_at, split_group, split_task
from stc.dialects import task
from stc.passes.task_split import TaskSplitPass
from stc.runtime.golden import run_module

AXIS_VECTORS = {"y": (2, 1, 1, 1), "x": (1, 2, 1, 1), "f": (1, 1, 2, 1), "r": (1, 1, 1, 2)}


def parse(text: str) -> ModuleOp:
    module = Parser(stc_context(), text).parse_module()
    module.verify()
    return module


def shape_of(value: SSAValue) -> tuple[int, ...]:
    assert isinstance(value.type, ShapedType)
    return value.type.get_shape()


def graph_of(module: ModuleOp) -> task.GraphOp:
    (graph,) = [op for op in module.ops if isinstance(op, task.GraphOp)]
    return graph


def block(graph: task.GraphOp, task_id: int) -> task.TaskOp:
    (op,) = [op for op in graph.tasks() if op.task_id == task_id]
    return op


def assert_same_outputs(original: ModuleOp, split: ModuleOp, seed: int = 0) -> None:
    split.verify()
    expected, actual = run_module(original, seed=seed), run_module(split, seed=seed)
    assert expected.keys() == actual.keys()
    for name in expected:
        np.testing.assert_array_equal(actual[name], expected[name], err_msg=name)


# ---------------------------------------------------------------------------------------
# Average split and halo


@pytest.mark.parametrize(
    ("length", "count", "expected"),
    [
        (10, 3, [(0, 4), (4, 7), (7, 10)]),
        (6, 4, [(0, 2), (2, 3), (3, 5), (5, 6)]),
        (7, 2, [(0, 4), (4, 7)]),
        (8, 2, [(0, 4), (4, 8)]),
        (5, 5, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]),
        (3, 1, [(0, 3)]),
    ],
)
def test_average_split_ends_piece_k_at_ceil_k_n_over_parts(length: int, count: int, expected: list[tuple[int, int]]):
    assert average_split(length, count) == expected


def test_seed_halo_gives_two_five_row_blocks_with_outer_pads():
    pieces = window_pieces(average_split(8, 2), size=8, kernel=3, stride=1, dilation=1, pad=(1, 1))
    assert [(p.out, p.read, p.pad) for p in pieces] == [
        ((0, 4), (0, 5), (1, 0)),
        ((4, 8), (3, 8), (0, 1)),
    ]


def test_inner_pieces_keep_the_pad_their_windows_still_reach():
    # 7 rows, 3x3 kernel, pad 2: output row 1 reads rows [-1, 2), one padded row above.
    pieces = window_pieces(average_split(9, 9), size=7, kernel=3, stride=1, dilation=1, pad=(2, 2))
    assert [(p.read, p.pad) for p in pieces[:3]] == [((0, 1), (2, 0)), ((0, 2), (1, 0)), ((0, 3), (0, 0))]
    assert [(p.read, p.pad) for p in pieces[-3:]] == [((4, 7), (0, 0)), ((5, 7), (0, 1)), ((6, 7), (0, 2))]


def test_inner_pieces_get_the_pads_their_windows_still_need():
    # 1 input row, 3x3 kernel, pad 2 on both sides: every window reaches both pads.
    pieces = window_pieces(average_split(3, 3), size=1, kernel=3, stride=1, dilation=1, pad=(2, 2))
    assert [(p.read, p.pad) for p in pieces] == [
        ((0, 1), (2, 0)),
        ((0, 1), (1, 1)),
        ((0, 1), (0, 2)),
    ]


# ---------------------------------------------------------------------------------------
# The seed's four tables, measured: each piece of a split by 2 along one dimension,
# relative to the original block.

RATIOS: dict[str, Callable[[float], bool]] = {
    "half": lambda ratio: ratio == 0.5,
    "about half": lambda ratio: 0.5 <= ratio < 0.75,  # halo rows or columns on top
    "same": lambda ratio: ratio == 1,
}

SEEDS = {
    "conv": (SEED_CONV, 3),
    "avgpool": (SEED_AVGPOOL, 2),
    "fc": (SEED_FC, 3),
    "lut": (SEED_LUT, 2),
}

SEED_TABLES = [
    # block, dimension: input, weight or table (None: the block has none), output, compute,
    # the new task
    ("conv", "y", "about half", "same", "half", "half", None),
    ("conv", "x", "about half", "same", "half", "half", None),
    ("conv", "f", "same", "half", "half", "half", None),
    ("conv", "r", "half", "half", "same", "half", "task.add"),
    ("avgpool", "y", "about half", None, "half", "half", None),
    ("avgpool", "x", "about half", None, "half", "half", None),
    ("avgpool", "f", "half", None, "half", "half", None),
    ("fc", "f", "same", "half", "half", "half", None),
    ("fc", "r", "half", "half", "same", "half", "task.add"),
    ("lut", "y", "half", "same", "half", "half", None),
    ("lut", "x", "half", "same", "half", "half", None),
    ("lut", "f", "half", "same", "half", "half", None),
]


def elements(value: SSAValue) -> int:
    assert isinstance(value.type, ShapedType)
    return math.prod(value.type.get_shape())


def work(op: task.ComputeBlock) -> int:
    """Multiply-accumulates, window reads or lookups of a block."""
    out = elements(op.result)
    if isinstance(op, task.ConvOp | task.FcOp):
        return out * elements(op.weight) // shape_of(op.weight)[0]
    if isinstance(op, task.WindowBlock):
        return out * math.prod(op.window())
    return out


def measure(op: task.ComputeBlock) -> dict[str, int]:
    data = [v for v in op.operands if isinstance(v.owner, task.WeightOp | task.TableOp)]
    return {
        "input": sum(elements(v) for v in op.data_inputs),
        "weight": sum(elements(v) for v in data),
        "output": elements(op.result),
        "compute": work(op),
    }


@pytest.mark.parametrize(("kind", "axis", "inputs", "weight", "outputs", "compute", "new_task"), SEED_TABLES)
def test_seed_table(
    kind: str,
    axis: str,
    inputs: str,
    weight: str | None,
    outputs: str,
    compute: str,
    new_task: str | None,
):
    text, task_id = SEEDS[kind]
    module = parse(text)
    graph = graph_of(module)
    original = block(graph, task_id)
    assert isinstance(original, task.ComputeBlock)
    before = measure(original)
    created = [block(graph, i) for i in split_task(graph, task_id, AXIS_VECTORS[axis])]
    pieces = [op for op in created if type(op) is type(original)]
    assert len(pieces) == 2
    expected = {"input": inputs, "weight": weight, "output": outputs, "compute": compute}
    for piece in pieces:
        after = measure(piece)
        for quantity, ratio_name in expected.items():
            if ratio_name is None:
                continue
            ratio = after[quantity] / before[quantity]
            assert RATIOS[ratio_name](ratio), f"{kind} split {axis}: {quantity} ratio {ratio}"
    assert [op.name for op in created if isinstance(op, task.AddOp)] == ([new_task] if new_task else [])
    assert_same_outputs(parse(text), module)


# ---------------------------------------------------------------------------------------
# Cost: a split touches only the sources each piece actually meets


@st.composite
def guillotine_tiling(draw: st.DrawFn, shape: tuple[int, ...]) -> list[tuple[tuple[int, int], ...]]:
    """Boxes tiling `shape`, made by cutting random boxes in two along random axes."""
    boxes = [tuple((0, n) for n in shape)]
    for _ in range(draw(st.integers(0, 12))):
        index = draw(st.integers(0, len(boxes) - 1))
        box = boxes[index]
        axes = [axis for axis, (lo, hi) in enumerate(box) if hi - lo > 1]
        if not axes:
            continue
        axis = draw(st.sampled_from(axes))
        lo, hi = box[axis]
        cut = draw(st.integers(lo + 1, hi - 1))
        halves = [box[:axis] + (interval,) + box[axis + 1 :] for interval in ((lo, cut), (cut, hi))]
        boxes[index : index + 1] = halves
    return boxes


@st.composite
def region_in(draw: st.DrawFn, shape: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    corners = [sorted(draw(st.lists(st.integers(0, n), min_size=2, max_size=2, unique=True))) for n in shape]
    return tuple((lo, hi) for lo, hi in corners)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_box_index_finds_exactly_the_boxes_a_region_meets(data: st.DataObject):
    shape = tuple(data.draw(st.integers(1, 6)) for _ in range(4))
    boxes = data.draw(guillotine_tiling(shape))
    region = data.draw(region_in(shape))
    meets = [
        i
        for i, box in enumerate(boxes)
        if all(max(a, c) < min(b, d) for (a, b), (c, d) in zip(box, region, strict=True))
    ]
    assert BoxIndex(boxes).meeting(region) == meets


@pytest.mark.parametrize("height", [64, 256])
def test_chained_splits_intersect_each_piece_only_with_what_it_meets(height: int, monkeypatch: pytest.MonkeyPatch):
    from stc.tools.bench_task_split import relu_chain

    calls = 0
    intersection = task_split.intersection

    def counted(a: task_split.Box, b: task_split.Box) -> task_split.Box:
        nonlocal calls
        calls += 1
        return intersection(a, b)

    monkeypatch.setattr(task_split, "intersection", counted)  # where a piece's result is routed
    monkeypatch.setattr(copies, "intersection", counted)  # where a piece's input buffer is carved
    module = relu_chain(height)
    split_group(graph_of(module), [2, 4], (height, 1, 1, 1))
    # Per relu: each piece reads one source, and the buffer it feeds reads each piece once.
    assert calls == 4 * height
    assert_same_outputs(relu_chain(height), module)


# ---------------------------------------------------------------------------------------
# Seed examples through the Python API, executed


SEED_EXAMPLES = [
    (SEED_CONV, 3, (2, 1, 1, 1, 1, 1)),
    (SEED_CONV, 3, (1, 2, 1, 1, 1, 1)),
    (SEED_CONV, 3, (1, 1, 2, 1, 1, 1)),
    (SEED_CONV, 3, (1, 1, 1, 2, 1, 1)),
    (SEED_CONV, 3, (2, 1, 2, 2, 1, 1)),
    (SEED_AVGPOOL, 2, (2, 1, 1, 1)),
    (SEED_AVGPOOL, 2, (1, 2, 1, 1)),
    (SEED_AVGPOOL, 2, (1, 1, 2, 1)),
    (SEED_AVGPOOL, 2, (2, 2, 2, 1)),
    (SEED_FC, 3, (1, 1, 2, 1)),
    (SEED_FC, 3, (1, 1, 1, 2)),
    (SEED_FC, 3, (1, 1, 2, 2)),
    (SEED_LUT, 2, (2, 1, 1, 1)),
    (SEED_LUT, 2, (1, 2, 1, 1)),
    (SEED_LUT, 2, (1, 1, 2, 1)),
    (SEED_LUT, 2, (2, 2, 2, 1)),
]


@pytest.mark.parametrize(("text", "task_id", "vector"), SEED_EXAMPLES)
def test_seed_split_task_examples_compute_the_same(text: str, task_id: int, vector: tuple[int, ...]):
    module = parse(text)
    graph = graph_of(module)
    created = split_task(graph, task_id, vector)
    computes = [i for i in created if isinstance(block(graph, i), task.ComputeBlock)]
    partial_sum_adds = 1 if vector[3] > 1 else 0
    assert len(computes) == math.prod(vector) + partial_sum_adds
    assert task_id not in {op.task_id for op in graph.tasks()}
    assert_same_outputs(parse(text), module)


def test_seed_conv_yfr_gives_eight_convs_two_partial_buffers_and_one_add():
    module = parse(SEED_CONV)
    graph = graph_of(module)
    created = [block(graph, i) for i in split_task(graph, 3, (2, 1, 2, 2, 1, 1))]
    convs = [op for op in created if isinstance(op, task.ConvOp)]
    (add,) = [op for op in created if isinstance(op, task.AddOp)]
    assert len(convs) == 8
    assert all(op.optional_bias is None and op.int("shift") == 0 for op in convs)
    assert add.optional_bias is not None
    assert block(graph, 2) is add.optional_bias.owner
    assert add.int("shift") == 12
    assert len(add.inputs) == 2
    partial = [v.owner for v in add.inputs]
    assert all(isinstance(b, task.BufferOp) and len(b.sources) == 4 for b in partial)


def test_seed_split_group_f_f():
    module = parse(SEED_GROUP)
    graph = graph_of(module)
    created = [block(graph, i) for i in split_group(graph, [1, 7], (1, 1, 2, 1, 1, 1))]
    assert len([op for op in created if isinstance(op, task.MaxPoolOp)]) == 4
    conv = block(graph, 5)
    assert isinstance(conv, task.ConvOp)
    assert isinstance(buffer := conv.input.owner, task.BufferOp)
    assert len(buffer.sources) == 2
    assert_same_outputs(parse(SEED_GROUP), module)


def test_seed_split_group_f_r_f_lines_producer_halves_up_with_conv_slices():
    module = parse(SEED_GROUP)
    graph = graph_of(module)
    vectors = [(1, 1, 2, 1, 1, 1), (1, 1, 1, 2, 1, 1), (1, 1, 2, 1, 1, 1)]
    created = [block(graph, i) for i in split_group(graph, [1, 5, 7], vectors)]
    convs = [op for op in created if isinstance(op, task.ConvOp)]
    pools = [op for op in created if isinstance(op, task.MaxPoolOp)]
    assert len(convs) == 2
    assert len(pools) == 4
    for conv, pool in zip(convs, pools[:2], strict=True):
        buffer = conv.input.owner
        assert isinstance(buffer, task.BufferOp)
        assert [source for source, _, _ in buffer.pieces] == [pool.result]
    assert len([op for op in created if isinstance(op, task.AddOp)]) == 1
    assert_same_outputs(parse(SEED_GROUP), module)


def test_split_group_needs_one_vector_per_task_or_one_for_all():
    graph = graph_of(parse(SEED_GROUP))
    with pytest.raises(PassFailedException, match="split_group: 2 vectors for 3 tasks"):
        split_group(graph, [1, 5, 7], [(1, 1, 2, 1), (1, 1, 1, 2)])


@pytest.mark.parametrize(
    "vectors",
    [np.array([1, 1, 2, 1]), [np.int64(1), np.int32(1), np.int8(2), 1], np.array([[1, 1, 2, 1], [1, 1, 2, 1]])],
)
def test_split_group_takes_numpy_vectors(vectors: object):
    module = parse(SEED_GROUP)
    created = split_group(graph_of(module), [1, 7], vectors)  # pyright: ignore[reportArgumentType]
    assert len([i for i in created if isinstance(block(graph_of(module), i), task.MaxPoolOp)]) == 4
    assert_same_outputs(parse(SEED_GROUP), module)


@pytest.mark.parametrize(
    ("vectors", "message"),
    [
        ((1, 1, True, 1), r"a split vector is a sequence of integer counts, got \(1, 1, True, 1\)"),
        ([(1, 1, 2, 1), (1, 1, 2.0, 1)], r"a split vector is a sequence of integer counts, got \(1, 1, 2.0, 1\)"),
        ([2, (1, 1, 2, 1)], "a split vector is a sequence of integer counts, got 2"),
    ],
)
def test_split_group_refuses_counts_that_are_not_integers(vectors: object, message: str):
    with pytest.raises(PassFailedException, match=f"split_group: {message}"):
        split_group(graph_of(parse(SEED_GROUP)), [1, 7], vectors)  # pyright: ignore[reportArgumentType]


@pytest.mark.parametrize(("task_ids", "at"), [([1, 7, 1], 2), ([1, 7, 7, 1], 2), ([1, 7], None), ([], None)])
def test_named_twice_at_is_the_position_of_the_first_repeat(task_ids: list[int], at: int | None):
    assert named_twice_at(task_ids) == at


def test_split_group_refuses_an_id_named_twice():
    with pytest.raises(PassFailedException, match="split_group: block 1 is named twice"):
        split_group(graph_of(parse(SEED_GROUP)), [1, 7, 1], (1, 1, 2, 1))


def test_split_group_splits_a_block_an_earlier_split_created():
    module = parse(SEED_CONV)
    graph = graph_of(module)
    # Splitting conv 3 by 2,1,1,1 creates input, weight, bias and conv 7-10, then 11-14.
    created = split_group(graph, [3, 14], [(2, 1, 1, 1), (1, 1, 2, 1)])
    convs = [block(graph, i) for i in created if isinstance(block(graph, i), task.ConvOp)]
    assert [shape_of(op.result) for op in convs] == [(1, 4, 8, 32), (1, 4, 8, 16), (1, 4, 8, 16)]
    assert 14 not in created
    assert_same_outputs(parse(SEED_CONV), module)


def test_unknown_id_names_the_graph():
    graph = graph_of(parse(SEED_CONV))
    with pytest.raises(PassFailedException, match="task.graph @conv has no block with id 42"):
        split_task(graph, 42, (2, 1, 1, 1))


def test_splitting_a_created_piece_again_narrows_its_boxes():
    module = parse(SEED_CONV)
    graph = graph_of(module)
    first = split_task(graph, 3, (1, 1, 2, 1))
    piece = next(i for i in first if isinstance(block(graph, i), task.ConvOp))
    second = [block(graph, i) for i in split_task(graph, piece, (2, 1, 2, 2))]
    weights = [op for op in second if isinstance(op, task.WeightOp)]
    assert {op.region.data[0] for op in weights} == {(0, 8), (8, 16)}
    assert_same_outputs(parse(SEED_CONV), module)


def test_pass_reports_created_ids_and_applies_hints_in_graph_order():
    text = SEED_GROUP.replace(
        ": tensor<1x8x8x32xi8>\n  %c_in",
        ": tensor<1x8x8x32xi8> {split = array<i64: 1, 1, 2, 1>}\n  %c_in",
    ).replace(
        "shift 12 : tensor<1x8x8x32xi8>",
        "shift 12 : tensor<1x8x8x32xi8> {split = array<i64: 1, 1, 1, 2>}",
    )
    module = parse(text)
    TaskSplitPass().apply(stc_context(), module)
    graph = graph_of(module)
    created = graph.attributes["split_created"]
    assert isa(created, DenseArrayBase[I64])
    ids = list(created.get_values())
    assert ids == sorted(ids)
    assert all(block(graph, i) for i in ids)
    assert not any("split" in op.attributes for op in graph.tasks())
    assert len([i for i in ids if isinstance(block(graph, i), task.AddOp)]) == 1
    assert_same_outputs(parse(SEED_GROUP), module)


def test_each_run_adds_its_created_ids_to_those_of_earlier_runs_still_in_the_graph():
    module = parse(SEED_CONV)
    TaskSplitPass(task=3, vector=(2, 1, 1, 1)).apply(stc_context(), module)
    graph = graph_of(module)
    first = graph.attributes["split_created"]
    assert isa(first, DenseArrayBase[I64])
    assert list(first.get_values()) == list(range(7, 15))
    TaskSplitPass(task=14, vector=(1, 1, 2, 1)).apply(stc_context(), module)
    second = graph.attributes["split_created"]
    assert isa(second, DenseArrayBase[I64])
    ids = list(second.get_values())
    assert ids == [7, 8, 9, 10, *range(15, 23)]
    assert {op.task_id for op in graph.tasks()} >= set(ids)
    assert_same_outputs(parse(SEED_CONV), module)


def test_a_split_created_that_is_not_an_i64_array_is_refused():
    module = parse(SEED_CONV.replace("task.graph @conv {", "task.graph @conv attributes {split_created = [7]} {"))
    with pytest.raises(
        PassFailedException, match=r"task.graph @conv: split_created is array<i64: ...>, got \[7 : i64\]"
    ):
        TaskSplitPass(task=3, vector=(2, 1, 1, 1)).apply(stc_context(), module)


def test_a_split_of_a_one_row_block_names_one_row():
    text = SEED_GROUP.replace("tensor<1x4x4x32xi8>", "tensor<1x1x1x32xi8>").replace(
        "window [2, 2] stride [2, 2] : tensor<1x1x1x32xi8>", "window [8, 8] : tensor<1x1x1x32xi8>"
    )
    with pytest.raises(PassFailedException, match=r"task.maxpool 7: cannot split y \(1 row\) into 2 pieces"):
        split_task(graph_of(parse(text)), 7, (2, 1, 1, 1))


def test_st_split_group_gives_an_area_group_the_pieces_of_its_own_members():
    from stc.compiler.mapping.env import Shape, STEnv

    env = STEnv(parse(SEED_GROUP), target="tianjicx")
    env.area_group("conv", [5], {"core": ((0, 1), (0, 9))})
    created = env.split_group([1, 5, 7], [Shape(nf=2), Shape(ny=2), Shape(nf=2)])
    matrix = env.executor.matrix
    (group,) = matrix.groups
    names = {i: matrix.blocks[i].name for i in created}
    assert {i for i, name in names.items() if name == "task.conv"} <= group.members
    assert not {i for i, name in names.items() if name == "task.maxpool"} & group.members


def test_pass_options_round_trip():
    assert str(TaskSplitPass(task=3, vector=(2, 1, 1, 1))) == "task-split{task=3 vector=2,1,1,1}"


# ---------------------------------------------------------------------------------------
# Hypothesis: single blocks with random shapes, strides, pads, dilations and uneven
# vectors, fed by buffers assembled from several inputs and read by several buffers.


class Ids:
    def __init__(self) -> None:
        self.next = 0

    def __call__(self) -> int:
        self.next += 1
        return self.next - 1


def tensor(shape: tuple[int, ...], element: str = "i8") -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{element}>"


@st.composite
def input_buffer(draw: st.DrawFn, ids: Ids, lines: list[str], kind: str, shape: tuple[int, int, int, int]) -> str:
    """A buffer of `shape` over fresh inputs: whole, cut in rows, or cut out of a wider input."""
    n, h, w, c = shape
    name = f"b{len(lines)}"
    style = draw(st.sampled_from(["whole", "rows", "box"] if h > 1 else ["whole", "box"]))
    if style == "whole":
        lines.append(f'%x{name} = task.input {ids()} "x{name}" : {tensor(shape)}')
        lines.append(f"%{name} = task.buffer {ids()} {kind} %x{name} : {tensor(shape)}")
    elif style == "rows":
        cut = draw(st.integers(1, h - 1))
        lines.append(f'%x{name}a = task.input {ids()} "x{name}a" : {tensor((n, cut, w, c))}')
        lines.append(f'%x{name}b = task.input {ids()} "x{name}b" : {tensor((n, h - cut, w, c))}')
        lines.append(
            f"%{name} = task.buffer {ids()} {kind} %x{name}a, "
            f"%x{name}b[0:{n}, 0:{h - cut}, 0:{w}, 0:{c}] at [0, {cut}, 0, 0] : {tensor(shape)}"
        )
    else:
        lines.append(f'%x{name} = task.input {ids()} "x{name}" : {tensor((n, h + 1, w, c + 2))}')
        box = f"[0:{n}, 1:{h + 1}, 0:{w}, 1:{c + 1}]"
        lines.append(f"%{name} = task.buffer {ids()} {kind} %x{name}{box} : {tensor(shape)}")
    return f"%{name}"


@st.composite
def window_clauses(draw: st.DrawFn, h: int, w: int, dilated: bool) -> tuple[str, tuple[int, int], tuple[int, int]]:
    """Window, stride, pad (and dilation) clauses that fit an h×w input; the output size."""
    kernel = (draw(st.integers(1, min(3, h + 1))), draw(st.integers(1, min(3, w + 1))))
    dilation = (draw(st.integers(1, 2)), draw(st.integers(1, 2))) if dilated else (1, 1)
    stride = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    extents = [dilation[a] * (kernel[a] - 1) + 1 for a in (0, 1)]
    pads = [draw(st.integers(0, extents[a // 2] - 1)) for a in range(4)]
    sizes = (h, w)
    for axis in (0, 1):
        while sizes[axis] + pads[2 * axis] + pads[2 * axis + 1] < extents[axis]:
            pads[2 * axis + 1 if pads[2 * axis + 1] < extents[axis] - 1 else 2 * axis] += 1
    out = tuple((sizes[a] + pads[2 * a] + pads[2 * a + 1] - extents[a]) // stride[a] + 1 for a in (0, 1))
    clauses = f"stride [{stride[0]}, {stride[1]}] pad [{', '.join(map(str, pads))}]"
    if dilated:
        clauses += f" dilation [{dilation[0]}, {dilation[1]}]"
    return clauses, kernel, out  # pyright: ignore[reportReturnType]


KINDS = ["conv", "fc", "avgpool", "maxpool", "relu", "lut", "add", "mul"]


@st.composite
def single_block_graph(draw: st.DrawFn, kind: str) -> str:
    """A task graph holding one compute block of `kind` (id 1000) and its storage."""
    ids = Ids()
    lines: list[str] = []
    n = draw(st.integers(1, 2))
    h, w, c = draw(st.integers(1, 9)), draw(st.integers(1, 9)), draw(st.integers(1, 8))
    f = draw(st.integers(1, 8))
    shift = draw(st.integers(0, 10))
    element = draw(st.sampled_from(["i8", "i32"])) if kind != "lut" else "i8"
    bias_seed = draw(st.integers(0, 99))
    with_bias = draw(st.booleans())

    def bias(channels: int) -> str:
        if not with_bias:
            return ""
        lines.append(f"%bias = task.bias {ids()} #task.random<{bias_seed}> : {tensor((channels,), 'i32')}")
        return " bias %bias"

    if kind == "conv":
        source = draw(input_buffer(ids, lines, "sic", (n, h, w, c)))
        clauses, (ky, kx), (oh, ow) = draw(window_clauses(h, w, dilated=True))
        lines.append(f"%w = task.weight {ids()} #task.random<{bias_seed + 1}> : {tensor((f, ky, kx, c))}")
        op = f"task.conv 1000 {source}, %w{bias(f)} {clauses} shift {shift}"
        shape = (n, oh, ow, f)
    elif kind == "fc":
        h, w = min(h, 3), min(w, 3)
        source = draw(input_buffer(ids, lines, "sifc", (n, h, w, c)))
        lines.append(f"%w = task.weight {ids()} #task.random<{bias_seed + 1}> : {tensor((f, h, w, c))}")
        op = f"task.fc 1000 {source}, %w{bias(f)} shift {shift}"
        shape = (n, 1, 1, f)
    elif kind in ("avgpool", "maxpool"):
        source = draw(input_buffer(ids, lines, "si", (n, h, w, c)))
        clauses, (ky, kx), (oh, ow) = draw(window_clauses(h, w, dilated=False))
        extra = bias(c) if kind == "avgpool" else f" cmp {draw(st.integers(-128, 0))}"
        op = f"task.{kind} 1000 {source}{extra} window [{ky}, {kx}] {clauses} shift {shift}"
        shape = (n, oh, ow, c)
    elif kind == "relu":
        source = draw(input_buffer(ids, lines, "si", (n, h, w, c)))
        op = f"task.relu 1000 {source} cmp {draw(st.integers(-128, 0))} shift {shift}"
        shape = (n, h, w, c)
    elif kind == "lut":
        source = draw(input_buffer(ids, lines, "si", (n, h, w, c)))
        lines.append(f"%t = task.table {ids()} #task.random<{bias_seed}> : tensor<256xi8>")
        op = f"task.lut 1000 {source}, %t"
        shape = (n, h, w, c)
    else:
        branches = draw(st.integers(1, 3)) if kind == "add" else 2
        sources = [draw(input_buffer(ids, lines, "si", (n, h, w, c))) for _ in range(branches)]
        op = f"task.{kind} 1000 {', '.join(sources)}{bias(c)} shift {shift}"
        shape = (n, h, w, c)
    lines.append(f"%y = {op} : {tensor(shape, element)}")
    lines.append(f"%out = task.buffer {ids()} so %y : {tensor(shape, element)}")
    lines.append(f'task.output {ids()} "y" %out')
    n, oh, ow, oc = shape
    if oh > 1:
        cut = draw(st.integers(1, oh - 1))
        rotated = f"%y[0:{n}, {cut}:{oh}, 0:{ow}, 0:{oc}], %y[0:{n}, 0:{cut}, 0:{ow}, 0:{oc}] at [0, {oh - cut}, 0, 0]"
        lines.append(f"%rows = task.buffer {ids()} so {rotated} : {tensor(shape, element)}")
        lines.append(f'task.output {ids()} "rows" %rows')
    return "task.graph @g {\n  " + "\n  ".join(lines) + "\n}\n"


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_blocks_split_exactly(kind: str, data: st.DataObject):
    text = data.draw(single_block_graph(kind))
    module = parse(text)
    op = block(graph_of(module), 1000)
    assert isinstance(op, task.ComputeBlock)
    vector = [
        1 if length is None else data.draw(st.integers(1, min(length, 3))) for length in axis_lengths(op).values()
    ]
    split_task(graph_of(module), 1000, vector)
    assert_same_outputs(parse(text), module, seed=data.draw(st.integers(0, 2**16)))


# ---------------------------------------------------------------------------------------
# Zoo networks


def largest_vector(op: task.ComputeBlock, limit: int) -> list[int]:
    return [1 if length is None else min(length, limit) for length in axis_lengths(op).values()]


def test_resnet18_every_layer_split_by_the_largest_vector_up_to_2222():
    from stc.compiler.zoo import build_network

    module = build_network("resnet18")
    graph = graph_of(module)
    blocks = [op for op in graph.tasks() if isinstance(op, task.ComputeBlock)]
    split_group(graph, [op.task_id for op in blocks], [largest_vector(op, 2) for op in blocks])
    assert len([op for op in graph.tasks() if isinstance(op, task.ComputeBlock)]) > 8 * len(blocks)
    assert_same_outputs(build_network("resnet18"), module)


def test_resnet50_split_by_a_random_valid_vector_per_layer():
    from stc.compiler.zoo import build_network

    module = build_network("resnet50")
    graph = graph_of(module)
    rng = random.Random(50)
    blocks = [op for op in graph.tasks() if isinstance(op, task.ComputeBlock)]
    vectors = [[1 if n is None else rng.randint(1, min(n, 3)) for n in axis_lengths(op).values()] for op in blocks]
    split_group(graph, [op.task_id for op in blocks], vectors)
    assert_same_outputs(build_network("resnet50"), module, seed=7)


def test_fit_option_makes_every_resnet18_block_fit_tianjicx():
    from stc.compiler.targets.hardware import load_target
    from stc.compiler.tiling.fit import piece_bytes
    from stc.compiler.zoo import build_network

    module = build_network("resnet18")
    fitted = module.clone()
    TaskSplitPass(fit="tianjicx").apply(Context(), fitted)
    fitted.verify()
    target = load_target("tianjicx")
    compute = [op for op in fitted.walk() if isinstance(op, task.ComputeBlock)]
    assert max(piece_bytes(op, (1, 1, 1, 1, 1), target) for op in compute) <= target.usable_memory_bytes
    assert len(compute) > 2 * sum(1 for op in module.walk() if isinstance(op, task.ComputeBlock))
    assert_same_outputs(module, fitted)


# ---------------------------------------------------------------------------------------
# r splits: int32 partial sums must hold every piece's sum exactly


def wide_fc(channels: int, rows: int = 1, columns: int = 1) -> str:
    shape = f"1x{rows}x{columns}x{channels}"
    return f"""task.graph @wide {{
  %x = task.input 0 "x" : tensor<{shape}xi8>
  %in = task.buffer 1 sifc %x : tensor<{shape}xi8>
  %w = task.weight 2 #task.random<1> : tensor<{shape}xi8>
  %f = task.fc 3 %in, %w : tensor<1x1x1x1xi32>
  %out = task.buffer 4 so %f : tensor<1x1x1x1xi32>
  task.output 5 "y" %out
}}"""


WIDE_CONV = """task.graph @wide {
  %x = task.input 0 "x" : tensor<1x1x1x29128xi8>
  %in = task.buffer 1 sic %x : tensor<1x1x1x29128xi8>
  %w = task.weight 2 #task.random<1> : tensor<1x3x3x29128xi8>
  %c = task.conv 3 %in, %w pad [1, 1, 1, 1] : tensor<1x1x1x1xi32>
  %out = task.buffer 4 so %c : tensor<1x1x1x1xi32>
  task.output 5 "y" %out
}"""
"""A 3x3 conv over 29128 channels: two r pieces of 14564 channels sum 131076 products each."""


def test_r_pieces_of_at_most_131071_products_are_accepted():
    assert MAX_PARTIAL_TERMS == 131071
    module = parse(wide_fc(2 * MAX_PARTIAL_TERMS))
    created = split_task(graph_of(module), 3, (1, 1, 1, 2))
    weights = [block(graph_of(module), i) for i in created]
    assert [op.region.data[3] for op in weights if isinstance(op, task.WeightOp)] == [(0, 131071), (131071, 262142)]


@pytest.mark.parametrize(
    ("text", "vector", "message"),
    [
        (wide_fc(280000), (1, 1, 1, 2), "r pieces of 140000 terms .* split r into at least 3 pieces"),
        (wide_fc(2 * MAX_PARTIAL_TERMS + 2), (1, 1, 1, 2), "r pieces of 131072 terms .* at least 3 pieces"),
        (wide_fc(2, rows=512, columns=257), (1, 1, 1, 2), "one input channel alone is 131584 terms, so no r split"),
        (
            WIDE_CONV,
            (1, 1, 1, 2),
            r"task.conv 3: r pieces of 131076 terms could overflow their int32 partial sums "
            r"\(\|sum\| <= terms \* 2\^14 stays within 2\^31 - 1 only up to 131071 terms\); "
            r"split r into at least 3 pieces",
        ),
    ],
    ids=["fc-280000", "fc-262144", "fc-512x257", "conv-3x3x29128"],
)
def test_r_pieces_that_could_overflow_int32_are_refused(text: str, vector: tuple[int, ...], message: str):
    graph = graph_of(parse(text))
    with pytest.raises(PassFailedException, match=message):
        split_task(graph, 3, vector)


def test_fit_never_proposes_r_pieces_that_could_overflow():
    from stc.compiler.tiling.fit import candidate_counts

    op = block(graph_of(parse(wide_fc(280000))), 3)
    assert isinstance(op, task.FcOp)
    assert list(candidate_counts(op, 2)) == []
    assert list(candidate_counts(op, 3)) == [(1, 1, 1, 1, 3)]


def test_fit_checks_each_block_once_and_the_blocks_it_splits_once_more(monkeypatch: pytest.MonkeyPatch):
    from collections import Counter

    from stc.compiler.targets.hardware import load_target
    from stc.compiler.tiling import fit as split_fit
    from stc.compiler.zoo import build_network

    checks: Counter[int] = Counter()
    piece_regions = split_fit.PieceSizer.regions

    def counted(sizer: split_fit.PieceSizer, counts: tuple[int, int, int, int, int]) -> list[int]:
        if counts == (1, 1, 1, 1, 1):
            checks[sizer.op.task_id] += 1
        return piece_regions(sizer, counts)

    monkeypatch.setattr(split_fit.PieceSizer, "regions", counted)
    graph = graph_of(build_network("resnet18"))
    splits = split_fit.fit_splits(graph, load_target("tianjicx"))
    split_ids = {task_id for task_id, _ in splits}
    assert len(split_ids) == len(splits) > 21
    assert checks == Counter({task_id: 2 if task_id in split_ids else 1 for task_id in checks})


# ---------------------------------------------------------------------------------------
# the batch as a split dimension


def test_lenet_at_batch_3_split_along_n_and_the_rest_computes_the_same():
    from stc.compiler.zoo import build_network

    module = build_network("lenet", batch=3)
    graph = graph_of(module)
    rng = random.Random(3)
    blocks = [op for op in graph.tasks() if isinstance(op, task.ComputeBlock)]
    vectors = [[1 if n is None else rng.randint(1, min(n, 3)) for n in axis_lengths(op).values()] for op in blocks]
    assert all(len(vector) == 5 for vector in vectors)
    assert any(vector[0] > 1 for vector in vectors)
    split_group(graph, [op.task_id for op in blocks], vectors)
    module.verify()
    assert_same_outputs(build_network("lenet", batch=3), module, seed=5)


def test_fit_splits_the_batch_first_so_pieces_grow_with_it():
    from stc.compiler.targets.hardware import load_target
    from stc.compiler.tiling.fit import fit_splits
    from stc.compiler.zoo import build_network

    target = load_target("tianjicx")
    batch_one = build_network("resnet18")
    one = fit_splits(graph_of(batch_one), target)
    module = build_network("resnet18", batch=2)
    two = fit_splits(graph_of(module), target)
    per_sample = [counts[1:] for _, counts in two if counts[0] == 2 and counts[1:] != (1, 1, 1, 1)]
    assert sorted(per_sample) == sorted(counts[1:] for _, counts in one)
    blocks = [sum(isinstance(op, task.ComputeBlock) for op in m.walk()) for m in (batch_one, module)]
    assert blocks[0] < blocks[1] <= 2 * blocks[0]
    assert_same_outputs(build_network("resnet18", batch=2), module, seed=2)


def test_fit_keeps_the_batch_whole_on_a_one_core_target():
    """On one core, task-layer-group decides the N slices: the same memory as tianjicx's
    core on a 1x1 mesh splits ResNet-18 at batch 2 with nn = 1 only."""
    import attrs

    from stc.compiler.targets.components import Mesh
    from stc.compiler.targets.hardware import load_target
    from stc.compiler.tiling.fit import fit_splits
    from stc.compiler.zoo import build_network

    target = attrs.evolve(load_target("tianjicx"), mesh=Mesh(1, 1, 1, 1))
    module = build_network("resnet18", batch=2)
    splits = fit_splits(graph_of(module), target)
    assert splits
    assert all(counts[0] == 1 for _, counts in splits)
    assert_same_outputs(build_network("resnet18", batch=2), module, seed=2)
