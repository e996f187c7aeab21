"""
What the `st` actions do to a task graph: the semantics shared by `st-apply`, which runs
a script, and `STEnv`, which records one. Splits call task-split; puts and takes go
through the `STMatrix`, which checks every rule. Messages name the action and its
position in the script, the block, the coordinate and the numbers.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr, UnitAttr
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.diagnostics import StcError
from stc.compiler.mapping.action_errors import action_error, describe
from stc.compiler.mapping.area_groups import AreaGroup, area_group_of
from stc.compiler.mapping.block_stages import input_storage, is_memory_block
from stc.compiler.mapping.coord_annotations import annotate, read_annotations
from stc.compiler.mapping.matrix import STMatrix
from stc.compiler.mapping.phase_ranges import Ranges
from stc.compiler.mapping.place import Place
from stc.compiler.references import referenced_target
from stc.compiler.targets.hardware import HardwareTarget
from stc.compiler.targets.reading import TargetError
from stc.compiler.tiling.pieces import split_counts
from stc.compiler.tiling.split import GraphBlocks, named_twice_at
from stc.dialects import task
from stc.dialects.integers import i64_attr
from stc.dialects.st import (
    KEEP,
    RELAY_LOADS,
    STORE_LATE,
    AreaGroupOp,
    CoordAttr,
    KeepOp,
    MappingOp,
    PutGroupInOp,
    PutInOp,
    ShareDataOp,
    SplitGroupOp,
    SplitTaskOp,
    Stage,
    StoreLateOp,
    TakeOutOp,
    phases_problem,
)

AREA_GROUPS = "st.area_groups"
"""The discardable attribute naming the area groups a block is a member of."""

ANNOTATIONS = "the graph's st.coord annotations"


def mapping_target(mapping: MappingOp) -> HardwareTarget:
    """The target an `st.mapping` names: a preset, or a TOML file inside the IR file's
    directory (or a `--data-dir`), as any file a path in IR names; relaying its shared
    loads where the mapping says so (`st.relay_loads`)."""
    try:
        target = referenced_target(mapping.target_name, f"st.mapping @{mapping.graph_name}")
        return target.with_relay(RELAY_LOADS in mapping.attributes)
    except TargetError as error:
        raise PassFailedException(f"st.mapping @{mapping.graph_name}: {error}") from None
    except StcError as error:  # a path outside the IR file's directory
        raise PassFailedException(str(error)) from None


def mapped_graph(mapping: MappingOp) -> task.GraphOp:
    graph = mapping.find_graph()
    if graph is None:
        raise PassFailedException(
            f"st.mapping @{mapping.graph_name}: the module has no task.graph @{mapping.graph_name}"
        )
    return graph


class ActionExecutor:
    """Runs actions one by one on a graph; a failing action changes nothing."""

    def __init__(self, graph: task.GraphOp, target: HardwareTarget):
        self.matrix = STMatrix(graph, target)
        read_annotations(self.matrix, ANNOTATIONS)
        self.count = 0
        self.groups_changed = True
        """Whether the memberships on the graph may be out of date."""
        self.annotate()

    @property
    def graph(self) -> task.GraphOp:
        return self.matrix.graph

    def apply(self, op: Operation) -> list[int]:
        """Execute one action; return the ids of the blocks a split created."""
        action = f"{op.name} (action {self.count + 1})"
        created: list[int] = []
        if isinstance(op, SplitTaskOp):
            created = self.split(action, [op.task_id], [op.counts])
        elif isinstance(op, SplitGroupOp):
            created = self.split(action, op.task_ids, op.vectors_per_task)
        elif isinstance(op, ShareDataOp):
            self.share_data(action, op.task_ids)
        elif isinstance(op, StoreLateOp):
            late = UnitAttr() if op.phases == 1 else i64_attr(op.phases)
            self.mark(action, op.task_ids, STORE_LATE, "stores late", late)
        elif isinstance(op, KeepOp):
            self.mark(action, op.task_ids, KEEP, "keeps its result", UnitAttr())
        elif isinstance(op, PutInOp):
            self.put_in(action, op)
        elif isinstance(op, PutGroupInOp):
            self.put_group_in(action, op)
        elif isinstance(op, TakeOutOp):
            self.take_out(action, op)
        elif isinstance(op, AreaGroupOp):
            self.area_group(action, op)
        else:
            raise action_error(action, "is not an st action")
        self.count += 1
        self.groups_changed |= isinstance(op, AreaGroupOp) or (bool(created) and bool(self.matrix.groups))
        self.annotate()
        return created

    def split(self, action: str, task_ids: Sequence[int], vectors: Sequence[Sequence[int]]) -> list[int]:
        """Split blocks in order with task-split's split_group. All are checked first (they
        exist, are unplaced compute blocks with unplaced inputs, and take their vectors), so
        a failing action splits none."""
        matrix = self.matrix
        twice = named_twice_at(task_ids)
        for index, (task_id, vector) in enumerate(zip(task_ids, vectors, strict=True)):
            if index == twice:
                raise action_error(action, f"block {task_id} is named twice")
            op = matrix.block(action, task_id)
            if not isinstance(op, task.ComputeBlock):
                raise action_error(action, f"{describe(op)} is a storage block; only compute blocks are split")
            for block in [op, *input_storage(op)]:
                if (place := matrix.places.get(block.task_id)) is not None:
                    raise action_error(
                        action,
                        f"{describe(block)} is placed at {place.text()}; take it out before splitting {task_id}",
                    )
            try:
                split_counts(op, vector)
            except PassFailedException as error:
                raise action_error(action, str(error)) from None
        blocks = GraphBlocks(self.graph, matrix.blocks)
        blocks.split_in_order(list(zip(task_ids, vectors, strict=True)))
        created = [blocks.by_id[task_id] for task_id in blocks.surviving_created()]
        matrix.exchange([task_id for split in blocks.splits for task_id in split.erased], created)
        for split in blocks.splits:
            matrix.replace_members(set(split.erased), split.created)
        return blocks.surviving_created()

    def share_data(self, action: str, task_ids: Sequence[int]) -> None:
        """Make the blocks read the first one's data blocks and erase their own. All are
        checked first (unplaced compute blocks whose data blocks, unplaced, hold what the
        first one's hold), so a failing action changes nothing."""
        matrix = self.matrix
        if (twice := named_twice_at(task_ids)) is not None:
            raise action_error(action, f"block {task_ids[twice]} is named twice")
        blocks = [matrix.block(action, task_id) for task_id in task_ids]
        first = blocks[0]
        replaced: list[tuple[task.ComputeBlock, int, task.DataOp]] = []
        for op in blocks:
            if (
                not isinstance(op, task.ComputeBlock)
                or type(op) is not type(first)
                or len(op.operands) != len(first.operands)
            ):
                raise action_error(
                    action,
                    f"{describe(op)} is not a {first.name} of {len(first.operands)} operands like block "
                    f"{first.task_id}: only blocks of one kind share data",
                )
            for index, (mine, theirs) in enumerate(zip(op.operands, first.operands, strict=True)):
                owner, source = mine.owner, theirs.owner
                if owner is source or not isinstance(owner, task.DataOp):
                    continue
                if not isinstance(source, task.DataOp) or not same_data(owner, source):
                    raise action_error(
                        action,
                        f"{describe(owner)} of block {op.task_id} does not hold what block {first.task_id} reads "
                        "in its place",
                    )
                if (place := matrix.places.get(owner.task_id)) is not None:
                    raise action_error(
                        action, f"{describe(owner)} is placed at {place.text()}; take it out before sharing"
                    )
                replaced.append((op, index, source))
        erased: list[int] = []
        for op, index, source in replaced:
            owner = op.operands[index].owner
            op.operands[index] = source.result
            if isinstance(owner, task.DataOp) and not owner.result.uses:
                erased.append(owner.task_id)
                self.graph.block.erase_op(owner)
        matrix.exchange(erased, [])

    def mark(self, action: str, task_ids: Sequence[int], attribute: str, doing: str, value: Attribute) -> None:
        """Mark compute blocks with `attribute` = `value` (`st.store_late`, `st.keep`); all
        are checked first (they exist and compute), so a failing action marks none."""
        if (twice := named_twice_at(task_ids)) is not None:
            raise action_error(action, f"block {task_ids[twice]} is named twice")
        blocks = [self.matrix.block(action, task_id) for task_id in task_ids]
        for op in blocks:
            if not isinstance(op, task.ComputeBlock):
                raise action_error(action, f"{describe(op)} is a storage block; only a compute block {doing}")
        for op in blocks:
            op.attributes[attribute] = value

    def put_in(self, action: str, op: PutInOp) -> None:
        block = self.matrix.block(action, op.task_id)
        ranges = ((op.at.phase, op.at.phase),)
        if op.end is not None:
            where = f"{describe(block)} at {op.at.text()} to {op.end.text()}"
            if not is_memory_block(block):
                raise action_error(action, f"{where}: only storage blocks take an end coordinate")
            ranges = span(action, where, op.at, op.end)
        self.matrix.put(action, [(block, Place(op.at.space, op.at.step, ranges, op.at.stage))])

    def put_group_in(self, action: str, op: PutGroupInOp) -> None:
        block = self.matrix.block(action, op.task_id)
        at = op.at
        if not isinstance(block, task.ComputeBlock):
            raise action_error(
                action, f"{describe(block)} at {at.text()}: put_group_in takes a compute block, not a storage block"
            )
        puts = [(block, Place.at(at.space, at.step, at.phase, at.stage))]
        puts += [(storage, Place.at(at.space, at.step, at.phase, Stage.MEMORY)) for storage in input_storage(block)]
        self.matrix.put(action, puts)

    def take_out(self, action: str, op: TakeOutOp) -> None:
        at = op.at
        block = None if op.task_id is None else self.matrix.block(action, op.task_id)
        what = "storage" if block is None else describe(block)
        where = f"{what} at {at.text()}" + ("" if op.end is None else f" to {op.end.text()}")
        if at.stage != Stage.MEMORY:
            if op.end is not None:
                raise action_error(action, f"{where}: an end coordinate takes storage out, at the memory stage only")
            self.matrix.take_slot(action, at, op.task_id)
            return
        ranges = ((at.phase, at.phase),) if op.end is None else span(action, where, at, op.end)
        if block is None:
            self.matrix.take_all_storage(action, at.space, at.step, ranges)
            return
        if not is_memory_block(block):
            raise action_error(action, f"{where}: not a storage block, so never at the memory stage")
        self.matrix.take_storage(action, block, at.space, at.step, ranges)

    def area_group(self, action: str, op: AreaGroupOp) -> None:
        group = area_group_of(op, self.matrix.target)
        if isinstance(group, str):
            raise action_error(action, f"area group {op.group_name.data!r}: {group}")
        self.matrix.add_group(action, group)

    def finish(self) -> STMatrix:
        """Check the rules of a finished script (the graph is annotated after every action)."""
        self.matrix.check_complete()
        return self.matrix

    def annotate(self) -> None:
        """Write the coordinates of the blocks that moved and, after a split of a member or a
        new area group, the group memberships that changed on the graph."""
        annotate(self.matrix)
        if not self.groups_changed:
            return
        for op in self.graph.tasks():
            names = [StringAttr(group.name) for group in self.matrix.groups if op.task_id in group.members]
            old = op.attributes.get(AREA_GROUPS)
            if names and (not isinstance(old, ArrayAttr) or list(old.data) != names):
                op.attributes[AREA_GROUPS] = ArrayAttr(names)
            elif not names and old is not None:
                del op.attributes[AREA_GROUPS]
        self.groups_changed = False


def same_data(op: task.DataOp, other: task.DataOp) -> bool:
    """Whether two data blocks hold the same box of the same tensor."""
    return (
        type(op) is type(other)
        and op.data == other.data
        and op.full_type == other.full_type
        and op.region == other.region
    )


def span(action: str, where: str, start: CoordAttr, end: CoordAttr) -> Ranges:
    """The phases from a start to an end coordinate, which may differ only in a later phase."""
    if (end.space, end.step, end.stage) != (start.space, start.step, start.stage):
        raise action_error(action, f"{where}: an end coordinate differs from the start only in the phase")
    if end.phase < start.phase:
        raise action_error(action, f"{where}: the end phase {end.phase} comes before the start phase {start.phase}")
    if problem := phases_problem(start.phase, end.phase, start.stage):
        raise action_error(action, f"{where}: {problem}")
    return ((start.phase, end.phase),)


def apply_mapping(mapping: MappingOp) -> STMatrix:
    """Run a mapping's script on its graph (once: it is then marked applied)."""
    graph = mapped_graph(mapping)
    target = mapping_target(mapping)
    if mapping.applied is not None:
        return applied_matrix(mapping, graph, target)
    executor = ActionExecutor(graph, target)
    for op in mapping.body.block.ops:
        executor.apply(op)
    matrix = executor.finish()
    mapping.applied = UnitAttr()
    return matrix


def applied_matrix(mapping: MappingOp, graph: task.GraphOp, target: HardwareTarget) -> STMatrix:
    """The matrix of an applied mapping: coordinates and memberships read from the graph."""
    matrix = STMatrix(graph, target)
    read_annotations(matrix, ANNOTATIONS)
    for op in mapping.body.block.ops:
        if not isinstance(op, AreaGroupOp):
            continue
        group = area_group_of(op, target)
        if isinstance(group, str):
            raise PassFailedException(f"st.area_group {op.group_name.data!r}: {group}")
        group.members = {block.task_id for block in graph.tasks() if member_of(block, group)}
        matrix.add_group(ANNOTATIONS, group)
    return matrix


def member_of(op: task.TaskOp, group: AreaGroup) -> bool:
    names = op.attributes.get(AREA_GROUPS)
    return isinstance(names, ArrayAttr) and StringAttr(group.name) in names.data


def mapping_for(module: ModuleOp, graph: task.GraphOp, target: str | None, pass_name: str) -> MappingOp:
    """The graph's mapping; a new, empty and applied one on `target` when it has none."""
    mapping = next(
        (op for op in module.ops if isinstance(op, MappingOp) and op.graph_name == graph.graph_name),
        None,
    )
    if mapping is not None:
        if target is not None and target != mapping.target_name:
            raise PassFailedException(
                f"{pass_name}: target={target} but the st.mapping of @{graph.graph_name} is for {mapping.target_name}"
            )
        return mapping
    if target is None:
        raise PassFailedException(f"{pass_name}: task.graph @{graph.graph_name} has no st.mapping; give a target")
    mapping = MappingOp(graph.graph_name, target)
    module.body.block.add_op(mapping)
    return mapping


def mapped_graphs(module: ModuleOp, pass_name: str) -> list[tuple[MappingOp, task.GraphOp]]:
    """Each st.mapping of the module with its task graph; a graph without one is an error."""
    mappings = [op for op in module.ops if isinstance(op, MappingOp)]
    mapped = {mapping.graph_name for mapping in mappings}
    for graph in module.ops:
        if isinstance(graph, task.GraphOp) and graph.graph_name not in mapped:
            raise PassFailedException(
                f"{pass_name}: task.graph @{graph.graph_name} has no st.mapping; run st-place first"
            )
    return [(mapping, mapped_graph(mapping)) for mapping in mappings]


def check_applied(mapping: MappingOp, graph: task.GraphOp) -> None:
    """Check an applied mapping's coordinates against every rule again: an edited
    coordinate (weights on another core than their conv) must be an error, not a program
    that computes something else."""
    if mapping.applied is not None:
        applied_matrix(mapping, graph, mapping_target(mapping))
