"""
Writing layer groups onto a task graph: the slices become task-split pieces (so the golden
executor still runs the graph), each compute block gets its group, slice and timestep as
annotations, and an `st.mapping` script puts every block in its timestep, so that
`st-lmem-alloc` and `isa-lower` keep a group's intermediates in local memory:

```mlir
%c = task.conv 12 %in, %w pad [1, 0, 1, 1] : tensor<1x9x16x16xi8>
    {lg.group = 0 : i64, lg.slice = 0 : i64, lg.step = 0 : i64}
st.mapping @net target "tpu-like" {
  st.put_in 12 at (0, 0, 0, 0), (0, 0, axon)
  st.put_in 11 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 2, memory)
  ...
}
```

Timestep t is phase t on the one core. A buffer a member reads is held from the timestep
of the first member of the same group that writes it, so those bytes never leave local
memory: each writer, a concatenation's several among them, writes its part in its own
timestep (producers of earlier groups go through global memory); a buffer filled only
from outside the group is held in its reader's timestep and loaded there, or from the
timestep before (within the group) when the group is pipelined. A member whose result a later group
reads is marked `st.store_late` when the group delays its stores (but in the group's last
timestep): the result is stored in the next timestep, beside its compute. Weights, biases and tables are held from
the first slice of their layer to its last: loaded once, resident across the slices. A
buffer no layer reads (it feeds a network output) is held from the first timestep its last
writer's group writes it to the last, and stored then.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, DictionaryAttr, IntegerAttr, UnitAttr, i64
from xdsl.ir import SSAValue

from stc.compiler.grouping.layers import Interval
from stc.compiler.grouping.price import step_cycles
from stc.compiler.grouping.search import Group
from stc.compiler.grouping.slicing import LayerSlice
from stc.compiler.mapping.block_stages import allowed_stages
from stc.compiler.targets.hardware import HardwareTarget
from stc.compiler.tiling.copies import BufferSources
from stc.compiler.tiling.pieces import AxisPiece, Piece, shape_of
from stc.compiler.tiling.split import GraphBlocks, build_piece, erase_with_inputs, forget_erased
from stc.dialects import task
from stc.dialects.integers import i64_array
from stc.dialects.st import STORE_LATE, CoordAttr, MappingOp, PutInOp, Stage
from stc.dialects.task import BoxAttr, BufferOp

GROUP, SLICE, STEP = "lg.group", "lg.slice", "lg.step"
PLAN = "lg.plan"
"""The discardable attribute of the mapping: what the plan predicts (`plan_summary`)."""
CORE = (0, 0, 0, 0)


class SliceSources(BufferSources):
    """A member's input buffer, carved for one slice: what other members of the group write
    is read from their pieces of the same slice."""

    def __init__(self, buffer: BufferOp, pieces: dict[SSAValue, tuple[SSAValue, Sequence[int]]]):
        super().__init__(buffer)
        self.slice_pieces = pieces
        """Each member's original result → its piece's result and where that piece starts."""

    def region(self, region: tuple[Interval, ...], task_id: int) -> BufferOp:
        carved = super().region(region, task_id)
        sources = []
        for value, box, offset in carved.pieces:
            if (piece := self.slice_pieces.get(value)) is not None:
                value, start = piece
                box = BoxAttr(tuple((lo - s, hi - s) for (lo, hi), s in zip(box.data, start, strict=True)))
            sources.append((value, box, offset))
        carved.drop_all_references()
        return BufferOp(task_id, carved.kind.data, sources, carved.result.type)


@dataclass
class Written:
    """Where every compute block runs once the groups are written."""

    step: dict[int, int] = field(default_factory=dict)
    group: dict[int, int] = field(default_factory=dict)
    hoisted: dict[int, int] = field(default_factory=dict)
    """The first timestep of each group whose data blocks load one timestep early."""
    pipelined: dict[int, int] = field(default_factory=dict)
    """The first timestep of each group whose input tiles load one timestep early."""


def slice_piece(op: task.ComputeBlock, mine: LayerSlice) -> Piece:
    """The task-split piece of `op` one slice computes: its batch interval and rows."""
    _, _, width, channels = shape_of(op.result)
    _, _, in_width, in_channels = shape_of(op.data_inputs[0])
    pad = op.ints("pad") if isinstance(op, task.WindowBlock) else (0, 0, 0, 0)
    x = AxisPiece((0, width), (0, in_width), (pad[2], pad[3]))
    read = (0, in_channels) if isinstance(op, task.ConvOp | task.FcOp) else (0, channels)
    return Piece(mine.batch, AxisPiece(mine.rows, mine.read, mine.pad), x, (0, channels), read, 0)


def write_sliced(blocks: GraphBlocks, group: Group) -> list[list[task.ComputeBlock]]:
    """Replace a sliced group's members by their pieces; the pieces of each slice."""
    slicing = group.plan.slicing
    originals = [blocks.by_id[task_id] for task_id in slicing.members]
    pieces: list[dict[SSAValue, tuple[SSAValue, Sequence[int]]]] = [{} for _ in slicing.slices]
    built: list[list[task.ComputeBlock]] = [[] for _ in slicing.slices]
    for op in originals:
        assert isinstance(op, task.ComputeBlock)
        first: task.ComputeBlock | None = None
        for s, found in enumerate(slicing.slices):
            piece = slice_piece(op, found[op.task_id])
            buffers = {
                owner: SliceSources(owner, pieces[s])
                for owner in dict.fromkeys(v.owner for v in op.operands)
                if isinstance(owner, BufferOp)
            }
            made = build_piece(blocks, op, piece, False, buffers)
            first = share_data(blocks, made, first)
            pieces[s][op.result] = (made.result, [lo for lo, _ in piece.out_box()])
            built[s].append(made)
        mine = [(found[op.task_id], ops[-1]) for found, ops in zip(slicing.slices, built, strict=True)]
        route_outside(op, mine, set(slicing.members))
    for op in reversed(originals):
        assert isinstance(op, task.ComputeBlock)
        erase_with_inputs(blocks, op)
    return built


def share_data(blocks: GraphBlocks, piece: task.ComputeBlock, first: task.ComputeBlock | None) -> task.ComputeBlock:
    """Make a piece read the weight, bias and table blocks of the first slice's piece, so
    they are loaded once; the first piece itself is returned for the next slices."""
    if first is None:
        return piece
    for index, (mine, theirs) in enumerate(zip(piece.operands, first.operands, strict=True)):
        owner = mine.owner
        if isinstance(owner, task.DataOp):
            piece.operands[index] = theirs
            blocks.erase(owner)
    return first


def route_outside(
    op: task.ComputeBlock, slices: Sequence[tuple[LayerSlice, task.ComputeBlock]], members: set[int]
) -> None:
    """Make every buffer outside the group that reads `op` read the same elements from its
    pieces, each delivering the rows its slice owns (the output slices partition them)."""
    for buffer in dict.fromkeys(use.operation for use in op.result.uses):
        assert isinstance(buffer, BufferOp)
        readers = [use.operation for use in buffer.result.uses if isinstance(use.operation, task.ComputeBlock)]
        if readers and readers[0].task_id in members:
            continue
        sources: list[tuple[SSAValue, BoxAttr, DenseArrayBase]] = []
        for value, box, offset in zip(buffer.sources, buffer.boxes, buffer.offsets, strict=True):
            if value is not op.result:
                sources.append((value, box, offset))
                continue
            for mine, piece in slices:
                (n_lo, n_hi), (y_lo, y_hi) = (
                    overlap(box.data[0], mine.batch),
                    overlap(box.data[1], mine.owned or mine.rows),
                )
                if n_lo >= n_hi or y_lo >= y_hi:
                    continue
                local = (
                    (n_lo - mine.batch[0], n_hi - mine.batch[0]),
                    (y_lo - mine.rows[0], y_hi - mine.rows[0]),
                    *box.data[2:],
                )
                at = offset.get_values()
                landing = [at[0] + n_lo - box.data[0][0], at[1] + y_lo - box.data[1][0], *at[2:]]
                sources.append((piece.result, BoxAttr(local), i64_array(landing)))
        buffer.operands = [value for value, _, _ in sources]
        buffer.boxes = ArrayAttr(box for _, box, _ in sources)
        buffer.offsets = ArrayAttr(offset for _, _, offset in sources)


def overlap(a: Interval, b: Interval) -> Interval:
    return max(a[0], b[0]), min(a[1], b[1])


def phase_coord(step: int, stage: Stage, last: int | None = None) -> CoordAttr:
    return CoordAttr(CORE, 0, step, stage, last)


def write_groups(graph: task.GraphOp, groups: Sequence[Group], target_name: str, target: HardwareTarget) -> MappingOp:
    """Slice the groups' members into pieces, annotate every compute block with its group,
    slice and timestep, and return the mapping script that puts each block there."""
    blocks = GraphBlocks(graph)
    written = Written()
    step = 0
    for index, group in enumerate(groups):
        slicing = group.plan.slicing
        if slicing.count > 1:
            per_slice = write_sliced(blocks, group)
        else:
            per_slice = [[blocks.by_id[task_id] for task_id in slicing.members]]  # pyright: ignore[reportAssignmentType]
        if group.plan.hoisted:
            written.hoisted[index] = step
        if group.plan.pipelined:
            written.pipelined[index] = step
        for s, ops in enumerate(per_slice):
            for op in ops:
                op.attributes[GROUP] = IntegerAttr(index, i64)
                op.attributes[SLICE] = IntegerAttr(s, i64)
                op.attributes[STEP] = IntegerAttr(step, i64)
                written.step[op.task_id], written.group[op.task_id] = step, index
                step += 1
        if group.plan.late:
            store_late([op for ops in per_slice for op in ops], written, step - group.plan.length, group.plan.late)
    forget_erased(blocks)
    mapping = MappingOp(graph.graph_name, target_name, list(put_actions(graph, written)))
    mapping.attributes[PLAN] = plan_summary(groups, target)
    return mapping


def plan_summary(groups: Sequence[Group], target: HardwareTarget) -> DictionaryAttr:
    """What the groups' plan predicts, for comparison with the machine's `--stats`: the
    price of every timestep (phase), their sum, and the DRAM bytes moved."""
    steps = [step_cycles(step, target) for group in groups for step in group.plan.timeline]
    dram = sum(group.plan.work.dram_bytes for group in groups)
    return DictionaryAttr(
        {
            "cycles": IntegerAttr(sum(steps), i64),
            "step_cycles": DenseArrayBase.from_list(i64, steps),
            "dram_bytes": IntegerAttr(dram, i64),
        }
    )


def store_late(members: Sequence[task.ComputeBlock], written: Written, base: int, late: frozenset[int]) -> None:
    """Mark the members of the timesteps `late` (from the group's first, `base`) whose
    result a layer outside the group reads to store it one timestep late (`st.store_late`)."""
    inside = {op.task_id for op in members}
    for op in members:
        if written.step[op.task_id] - base not in late:
            continue
        readers = [
            reader
            for use in op.result.uses
            for reader in use.operation.results[0].uses
            if isinstance(reader.operation, task.ComputeBlock)
        ]
        if any(reader.operation.task_id not in inside for reader in readers):
            op.attributes[STORE_LATE] = UnitAttr()


def write_spatial_group(graph: task.GraphOp, members: Sequence[int]) -> None:
    """Annotate the members of a many-core target's group with `lg.group = 0`: `st-place`
    then holds the buffers between them on their readers' cores (`hold.py`)."""
    inside = set(members)
    group = IntegerAttr(0, i64)  # attributes are immutable: one for every member
    for op in graph.tasks():
        if isinstance(op, task.ComputeBlock) and op.task_id in inside:
            op.attributes[GROUP] = group


def put_actions(graph: task.GraphOp, written: Written) -> Iterator[PutInOp]:
    """A put_in for every block but the network inputs and outputs (st-place places those)."""
    for op in graph.tasks():
        if isinstance(op, task.ComputeBlock):
            yield PutInOp(op.task_id, phase_coord(written.step[op.task_id], allowed_stages(op)[0]))
        elif isinstance(op, task.DataOp | BufferOp):
            first, last = storage_steps(op, written)
            end = phase_coord(last, Stage.MEMORY) if last > first else None
            yield PutInOp(op.task_id, phase_coord(first, Stage.MEMORY), end)


def storage_steps(op: task.DataOp | BufferOp, written: Written) -> tuple[int, int]:
    """The first and last timestep a storage block is held (see the module docstring)."""
    readers = [use.operation.task_id for use in op.result.uses if isinstance(use.operation, task.ComputeBlock)]
    if isinstance(op, task.DataOp):
        steps = [written.step[reader] for reader in readers]
        start = written.hoisted.get(written.group[readers[0]])
        first = max(min(steps) - 1, start) if start is not None else min(steps)
        return first, max(steps)
    writers = [value.owner.task_id for value in op.sources if isinstance(value.owner, task.ComputeBlock)]
    if not readers:
        last = max(writers, key=written.step.__getitem__)
        same = [written.step[w] for w in writers if written.group[w] == written.group[last]]
        return min(same), written.step[last]
    reader = readers[0]
    step, group = written.step[reader], written.group[reader]
    same = [written.step[w] for w in writers if written.group[w] == group]
    start = written.pipelined.get(group)
    return min(same, default=max(step - 1, start) if start is not None else step), step
