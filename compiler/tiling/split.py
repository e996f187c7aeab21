"""
The split algorithm behind `task-split` and the `st` split actions: TianjicX's
`split_task` and `split_group` (seed 000).

A compute block is cut into a grid of pieces along its batch (n), output rows (y), output
columns (x), output channels (f) and reduced input channels (r, conv and fc only). Each piece
reads its own input buffers, assembled from the original input buffer's producers (with
halo rows and columns for windowed blocks), and its own weight, bias and table blocks,
which hold the same data reference narrowed to the piece's box or replicated whole.
Pieces write their boxes of the original output buffers, which are not split. Along r
the pieces write raw int32 partial sums to one buffer per r-slice, and a `task.add`
joins them, adding the bias once and applying the shift; an r split whose pieces could
overflow int32 is refused. The pieces' geometry and the checks of a split vector are in
`pieces.py`. See docs/passes/task-split.md.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    ModuleOp,
    TensorType,
    i32,
)
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import AttrSizedOperandSegments
from xdsl.utils.exceptions import PassFailedException
from xdsl.utils.hints import isa

from stc.compiler.heap import collection_paused
from stc.compiler.op_lines import link_before
from stc.compiler.tiling.copies import BufferSources, DataBlocks, data_box
from stc.compiler.tiling.pieces import (
    UNSPLIT,
    Box,
    BoxIndex,
    Counts,
    Piece,
    broadcast_vectors,
    intersection,
    shape_of,
    split_counts,
    split_error,
    split_grid,
)
from stc.dialects.created import created
from stc.dialects.integers import built_i64_array, built_i64_attr, i64_array, i64_attr
from stc.dialects.task import (
    AddOp,
    BoxAttr,
    BufferOp,
    ComputeBlock,
    DataOp,
    GraphOp,
    StorageKind,
    TaskOp,
    WindowBlock,
)

Source = tuple[SSAValue, BoxAttr, Sequence[int]]
"""A buffer source: the producer's result, the box of it read, where the box lands."""

HINT = "split"
"""The discardable attribute holding a compute block's split vector."""

CREATED = "split_created"
"""The discardable attribute on a graph listing the ids of the blocks the pass created."""

TaskOpT = TypeVar("TaskOpT", bound=TaskOp)

SEGMENTS = AttrSizedOperandSegments.attribute_name
"""The property of a `task.add`'s operand group sizes."""


@dataclass(frozen=True)
class SplitRecord:
    """One split: the block, its counts, and the ids of the blocks it erased and created."""

    task_id: int
    counts: Counts
    erased: frozenset[int]
    created: tuple[int, ...]


class GraphBlocks:
    """The blocks of one task graph by id, fresh ids, and the splits made on it."""

    def __init__(self, graph: GraphOp, by_id: Mapping[int, TaskOp] | None = None):
        """`by_id`: the graph's blocks by id, when the caller keeps them (read from the graph otherwise)."""
        self.graph = graph
        self.body = graph.block
        self.by_id: dict[int, TaskOp] = {op.task_id: op for op in graph.tasks()} if by_id is None else dict(by_id)
        self.ids = itertools.count(max(self.by_id, default=-1) + 1)
        self.created: list[int] = []
        self.erased: list[int] = []
        self.splits: list[SplitRecord] = []

    def compute_block(self, task_id: int) -> ComputeBlock:
        op = self.by_id.get(task_id)
        if op is None:
            graph = self.graph.graph_name
            raise PassFailedException(f"task.graph @{graph} has no block with id {task_id}")
        if not isinstance(op, ComputeBlock):
            raise split_error(op, "only compute blocks are split, this is a storage block")
        return op

    def fresh_id(self) -> IntegerAttr[I64]:
        """The id attribute of a new block (built anew: ids do not recur)."""
        return built_i64_attr(next(self.ids))

    def insert(self, op: TaskOpT, before: Operation) -> TaskOpT:
        """Add a new block before `before`, linked without xDSL's per-op walk up the parents."""
        link_before(self.body, [op], before)
        self.by_id[op.task_id] = op
        self.created.append(op.task_id)
        return op

    def erase(self, op: TaskOp) -> None:
        del self.by_id[op.task_id]
        self.erased.append(op.task_id)
        self.body.erase_op(op)

    def surviving_created(self) -> list[int]:
        return [task_id for task_id in self.created if task_id in self.by_id]

    def split(self, task_id: int, vector: Sequence[int]) -> SplitRecord:
        """split_task: split one compute block in place; an all-ones vector changes nothing."""
        op = self.compute_block(task_id)
        counts = split_counts(op, vector)
        created, erased = len(self.created), len(self.erased)
        if counts != UNSPLIT:
            split_block(self, op, counts)
        record = SplitRecord(task_id, counts, frozenset(self.erased[erased:]), tuple(self.created[created:]))
        self.splits.append(record)
        return record

    def split_in_order(self, requests: Sequence[tuple[int, Sequence[int]]]) -> None:
        """split_group: split blocks in order, so an id may name a block an earlier split created."""
        if (index := named_twice_at([task_id for task_id, _ in requests])) is not None:
            raise PassFailedException(f"split_group: block {requests[index][0]} is named twice")
        for task_id, vector in requests:
            self.split(task_id, vector)


def named_twice_at(task_ids: Sequence[int]) -> int | None:
    """Where a block is named a second time: the position of the first id that repeats an
    earlier one, None when all differ. Splits in order name each block at most once."""
    seen: set[int] = set()
    for index, task_id in enumerate(task_ids):
        if task_id in seen:
            return index
        seen.add(task_id)
    return None


def result_sources(
    box: BoxAttr, offset: Sequence[int], outputs: Sequence[tuple[Box, SSAValue]], index: BoxIndex
) -> list[tuple[SSAValue, BoxAttr, DenseArrayBase]]:
    """The sources that deliver `box` of a split block's result at `offset`, from the pieces
    whose output boxes (indexed by `index`) it meets."""
    sources: list[tuple[SSAValue, BoxAttr, DenseArrayBase]] = []
    for i in index.meeting(box.data):
        piece_box, value = outputs[i]
        overlap = intersection(box.data, piece_box)
        local = tuple((lo - p_lo, hi - p_lo) for (lo, hi), (p_lo, _) in zip(overlap, piece_box, strict=True))
        landing = [o + lo - b_lo for o, (lo, _), b_lo in zip(offset, overlap, box.lo, strict=True)]
        sources.append((value, BoxAttr(local), i64_array(landing)))
    return sources


def route_result(result: SSAValue, outputs: Sequence[tuple[Box, SSAValue]]) -> None:
    """
    Make every buffer that reads `result` read the same elements from the pieces' results,
    in place (keeping its id, kind, type and consumers). Its other sources keep their
    attributes, so a buffer costs little more than its source count.
    """
    index = BoxIndex([piece_box for piece_box, _ in outputs])
    for buffer in dict.fromkeys(use.operation for use in result.uses):
        assert isinstance(buffer, BufferOp)
        sources: list[tuple[SSAValue, BoxAttr, DenseArrayBase]] = []
        for value, box, offset in zip(buffer.sources, buffer.boxes, buffer.offsets, strict=True):
            if value is result:
                sources.extend(result_sources(box, offset.get_values(), outputs, index))
            else:
                sources.append((value, box, offset))
        buffer.operands = [value for value, _, _ in sources]
        buffer.boxes = ArrayAttr(box for _, box, _ in sources)
        buffer.offsets = ArrayAttr(offset for _, _, offset in sources)


def piece_input(
    blocks: GraphBlocks,
    op: ComputeBlock,
    value: SSAValue,
    piece: Piece,
    buffers: dict[Operation, BufferSources],
    data: DataBlocks,
) -> SSAValue:
    """A piece's own copy of an operand of `op`: its box of a buffer or weight, a whole table."""
    owner = value.owner
    if isinstance(owner, DataOp):
        copy = data.block(owner, data_box(owner, piece), next(blocks.ids))
    else:
        assert isinstance(owner, BufferOp)
        copy = buffers[owner].region(piece.read_box(), next(blocks.ids))
    copy.result.name_hint = value.name_hint
    return blocks.insert(copy, op).result


def piece_bias(blocks: GraphBlocks, op: ComputeBlock, piece: Piece, partial: bool, data: DataBlocks) -> list[SSAValue]:
    """A piece's channels of the bias; none for partial sums, whose add takes the bias."""
    bias = op.optional_bias
    if bias is None or partial:
        return []
    assert isinstance(bias.owner, DataOp)
    copy = data.block(bias.owner, (piece.f,), next(blocks.ids))
    copy.result.name_hint = bias.name_hint
    return [blocks.insert(copy, op).result]


def build_piece(
    blocks: GraphBlocks,
    op: ComputeBlock,
    piece: Piece,
    partial: bool,
    buffers: dict[Operation, BufferSources],
    data: DataBlocks | None = None,
) -> ComputeBlock:
    """Create one piece of `op`, before it, after the blocks it reads (`buffers`: its input
    buffers' sources; `data`: its data blocks, narrowed), with the operands and properties
    `type(op).build(...)` gives it."""
    data = DataBlocks() if data is None else data
    groups: list[list[SSAValue]] = []
    for name in op.OPERAND_NAMES:
        operand: SSAValue | Sequence[SSAValue] = getattr(op, name)
        values = [operand] if isinstance(operand, SSAValue) else operand
        groups.append([piece_input(blocks, op, value, piece, buffers, data) for value in values])
    if op.has_bias():
        groups.append(piece_bias(blocks, op, piece, partial, data))
    properties = dict(op.properties) | {"id": blocks.fresh_id()}
    if isinstance(op, WindowBlock):
        properties["pad"] = i64_array(piece.y.pad + piece.x.pad)
    if partial:
        properties["shift"] = i64_attr(0)
    if SEGMENTS in properties:
        properties[SEGMENTS] = DenseArrayBase.from_list(i32, [len(group) for group in groups])
    element = i32 if partial else op.result.type.get_element_type()
    result_type = data.types.of(element, [hi - lo for lo, hi in piece.out_box()])
    operands = [value for group in groups for value in group]
    piece_op = created(type(op), operands=operands, result_types=[result_type], properties=properties)
    piece_op.result.name_hint = op.result.name_hint
    return blocks.insert(piece_op, op)


def join_partial_sums(blocks: GraphBlocks, op: ComputeBlock, built: Sequence[tuple[Piece, ComputeBlock]]) -> None:
    """
    Gather the int32 partial sums of each r-slice in one buffer, and add the slices in a
    `task.add` that adds the bias once, applies the shift and takes over the result.
    """
    slices: dict[int, list[Source]] = {}
    for piece, piece_op in built:
        whole = BoxAttr.whole(shape_of(piece_op.result))
        landing = [lo for lo, _ in piece.out_box()]
        slices.setdefault(piece.r_index, []).append((piece_op.result, whole, landing))
    partial_type = TensorType(i32, shape_of(op.result))
    branches: list[SSAValue] = []
    for sources in slices.values():
        branch = blocks.insert(BufferOp(next(blocks.ids), StorageKind.SI, sources, partial_type), op)
        branch.result.name_hint = op.result.name_hint and f"{op.result.name_hint}_partial"
        branches.append(branch.result)
    bias = op.optional_bias
    add = AddOp.build(
        operands=[branches, [] if bias is None else [bias]],
        properties={"id": blocks.fresh_id(), "shift": op.properties["shift"]},
        result_types=[op.result.type],
    )
    add.result.name_hint = op.result.name_hint
    blocks.insert(add, op)
    op.result.replace_all_uses_with(add.result)


def erase_with_inputs(blocks: GraphBlocks, op: ComputeBlock) -> None:
    """Erase a split block, then the storage blocks nothing else reads."""
    inputs = dict.fromkeys(value.owner for value in op.operands)
    blocks.erase(op)
    for owner in inputs:
        if isinstance(owner, BufferOp | DataOp) and not owner.result.uses:
            blocks.erase(owner)


def split_block(blocks: GraphBlocks, op: ComputeBlock, counts: Counts) -> None:
    """Replace `op` by its pieces, and the add of their partial sums when r is split."""
    partial = counts[4] > 1
    data = DataBlocks()
    owners = dict.fromkeys(value.owner for value in op.operands)
    buffers = {owner: BufferSources(owner, data.types) for owner in owners if isinstance(owner, BufferOp)}
    with collection_paused():
        pieces = split_grid(op, counts).pieces()
        built = [(piece, build_piece(blocks, op, piece, partial, buffers, data)) for piece in pieces]
        if partial:
            join_partial_sums(blocks, op, built)
        else:
            route_result(op.result, [(piece.out_box(), piece_op.result) for piece, piece_op in built])
        erase_with_inputs(blocks, op)


def split_task(graph: GraphOp, task_id: int, vector: Sequence[int]) -> list[int]:
    """
    Split compute block `task_id` of `graph` by `vector` (ny, nx, nf, nr, or the seed's
    six counts with nky = nkx = 1). Return the ids of the blocks created, in order.
    """
    return split_group(graph, [task_id], [vector])


def split_group(graph: GraphOp, task_ids: Sequence[int], vectors: Sequence[int] | Sequence[Sequence[int]]) -> list[int]:
    """
    Split the blocks `task_ids` of `graph` in order, all by one vector or each by its own;
    a later id may name a block an earlier split created. Return the ids of the blocks
    created that are still in the graph, in order.
    """
    blocks = GraphBlocks(graph)
    blocks.split_in_order(list(zip(task_ids, broadcast_vectors(task_ids, vectors), strict=True)))
    return blocks.surviving_created()


def take_hints(blocks: GraphBlocks) -> list[tuple[int, Sequence[int]]]:
    """The split hints of a graph's blocks in graph order; the hints are removed."""
    requests: list[tuple[int, Sequence[int]]] = []
    for op in blocks.graph.tasks():
        if (hint := op.attributes.pop(HINT, None)) is None:
            continue
        if not isa(hint, DenseArrayBase[I64]):
            raise split_error(op, f"a split hint is array<i64: ny, nx, nf, nr>, got {hint}")
        requests.append((op.task_id, hint.get_values()))
    return requests


def record_created(blocks: GraphBlocks) -> None:
    """Add the ids of the blocks a run created to its graph's `split_created`, after the ids
    earlier runs recorded there that are still in the graph."""
    blocks.graph.attributes[CREATED] = built_i64_array(kept_created(blocks) + blocks.surviving_created())


def forget_erased(blocks: GraphBlocks) -> None:
    """Drop from the graph's `split_created`, if it has one, the blocks a run erased."""
    if CREATED in blocks.graph.attributes:
        blocks.graph.attributes[CREATED] = built_i64_array(kept_created(blocks))


def kept_created(blocks: GraphBlocks) -> list[int]:
    """The ids earlier runs recorded in the graph's `split_created` that are still in the graph."""
    graph = blocks.graph
    earlier = graph.attributes.get(CREATED, built_i64_array([]))
    if not isa(earlier, DenseArrayBase[I64]):
        raise PassFailedException(f"task.graph @{graph.graph_name}: {CREATED} is array<i64: ...>, got {earlier}")
    return [task_id for task_id in earlier.get_values() if task_id in blocks.by_id]


def split_module(module: ModuleOp, task_ids: Sequence[int], vector: Sequence[int]) -> None:
    """
    Split the blocks `task_ids` of the module's task graphs by `vector`, in order; with
    no ids, split every block by its hint. Each graph that had splits records them in its
    `split_created`.
    """
    graphs = [GraphBlocks(graph) for graph in module.ops if isinstance(graph, GraphOp)]
    if not task_ids:
        for blocks in graphs:
            blocks.split_in_order(take_hints(blocks))
    for task_id in task_ids:
        holders = [blocks for blocks in graphs if task_id in blocks.by_id]
        if not holders:
            raise PassFailedException(f"task-split: no task graph has a block with id {task_id}")
        for blocks in holders:
            blocks.split(task_id, vector)
    for blocks in graphs:
        if blocks.splits:
            record_created(blocks)
