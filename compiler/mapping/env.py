"""
`STEnv`: the seed's mapping interaction language in Python, on a task module.

Each call checks and executes one action, exactly as `st-apply` would, and records it as
an `st` op; `script()` is the mapping script, which `st-apply` replays on the original
module to the same result as `module`. Bad input of any kind raises `PassFailedException`
with a message naming the call, the argument and the value.

    env = STEnv(task_graph, "tianjicx")
    env.put_group_in(STCoord((0, 0, 0, 0), (0, 1, PIIndex.AXON.value)), task_id=3)
    env.take_out(STCoord((0, 0, 0, 0), (0, 1, PIIndex.MEMORY.value)), task_id=1)
    print(env.script())
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import Enum, IntEnum
from numbers import Integral

from attrs import Attribute, field, frozen
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import PassFailedException, VerifyException

from stc.compiler.ir_files import module_text
from stc.compiler.mapping.actions import ActionExecutor
from stc.compiler.targets.hardware import HardwareTarget, load_target, target_names
from stc.compiler.targets.reading import TargetError
from stc.dialects import task
from stc.dialects.st import (
    AreaGroupOp,
    CoordAttr,
    MappingOp,
    PutGroupInOp,
    PutInOp,
    RectAttr,
    SplitGroupOp,
    SplitTaskOp,
    Stage,
    TakeOutOp,
)


class PIIndex(IntEnum):
    """The pipeline stage of a time coordinate, numbered as in TianjicX's mapping.proto,
    whose spelling `ROUTER_RECIEVE` is accepted too."""

    AXON = 1
    SOMA1 = 2
    ROUTER_RECEIVE = 3
    ROUTER_RECIEVE = 3
    ROUTER_SEND = 4
    SOMA2 = 5
    MEMORY = 6

    @property
    def stage(self) -> Stage:
        return list(Stage)[self.value - 1]


class SplitType(Enum):
    """How a dimension is cut; the seed defines only Average (piece k ends at ⌈k·n/parts⌉)."""

    Average = "average"


def bad_input(where: str, message: str) -> PassFailedException:
    return PassFailedException(f"{where}: {message}")


def integer(where: str, what: str, value: object, minimum: int = 0) -> int:
    """`value` if it is a 64-bit integer of at least `minimum` (PIIndex members and numpy
    integers count)."""
    if not isinstance(value, Integral) or isinstance(value, bool):
        raise bad_input(where, f"{what} must be an integer, got {value!r}")
    if value < minimum:
        raise bad_input(where, f"{what} must be {minimum} or more, got {value}")
    if value >= 2**63:
        raise bad_input(where, f"{what} must be below 2**63, got {value}")
    return int(value)


def integers(where: str, what: str, values: object, minimum: int = 0, length: int | None = None) -> tuple[int, ...]:
    if not isinstance(values, Iterable) or isinstance(values, str | bytes | Mapping):
        raise bad_input(where, f"{what} must be a sequence of integers, got {values!r}")
    values = tuple(values)
    if length is not None and len(values) != length:
        raise bad_input(where, f"{what} has {length} parts, got {len(values)}: {tuple(values)!r}")
    return tuple(integer(where, what, value, minimum) for value in values)


def _space(value: object) -> tuple[int, int, int, int]:
    chip_y, chip_x, core_y, core_x = integers(
        "STCoord", "the space coordinate (chip y, chip x, core y, core x)", value, length=4
    )
    return chip_y, chip_x, core_y, core_x


def _time(value: object) -> tuple[int, int, PIIndex]:
    step, phase, pi = integers("STCoord", "the time coordinate (step, phase, PI index)", value, length=3)
    if pi not in {member.value for member in PIIndex}:
        names = ", ".join(f"{member.value} ({member.name})" for member in PIIndex)
        raise bad_input("STCoord", f"the PI index is one of {names}, got {pi}")
    return step, phase, PIIndex(pi)


@frozen
class STCoord:
    """A spatio-temporal coordinate: (chip y, chip x, core y, core x), (step, phase, PI)."""

    space_coord: tuple[int, int, int, int] = field(converter=_space)
    time_coord: tuple[int, int, PIIndex] = field(converter=_time)

    def attr(self) -> CoordAttr:
        step, phase, pi = self.time_coord
        return CoordAttr(self.space_coord, step, phase, pi.stage)


def _count(_: object, attribute: Attribute, value: object) -> None:
    integer("Shape", attribute.name, value, minimum=1)


@frozen
class Shape:
    """A split vector: pieces along y, x, f and r, and the batch n; ky and kx are never split."""

    ny: int = field(default=1, validator=_count)
    nx: int = field(default=1, validator=_count)
    nf: int = field(default=1, validator=_count)
    nr: int = field(default=1, validator=_count)
    nky: int = field(default=1, validator=_count)
    nkx: int = field(default=1, validator=_count)
    nn: int = field(default=1, validator=_count)

    @property
    def vector(self) -> tuple[int, ...]:
        """The seed's six counts, or nn,ny,nx,nf,nr when the batch is split."""
        if self.nn == 1:
            return self.ny, self.nx, self.nf, self.nr, self.nky, self.nkx
        if (self.nky, self.nkx) != (1, 1):
            raise ValueError(f"Shape: ky and kx are never split, got nky={self.nky} nkx={self.nkx}")
        return self.nn, self.ny, self.nx, self.nf, self.nr


def vector_of(where: str, shape: object) -> tuple[int, ...]:
    return shape.vector if isinstance(shape, Shape) else integers(where, "a split vector", shape, minimum=1)


def optional_coord(where: str, what: str, coord: object) -> CoordAttr | None:
    return None if coord is None else coord_of(where, what, coord)


def coord_of(where: str, what: str, coord: object) -> CoordAttr:
    if not isinstance(coord, STCoord):
        raise bad_input(where, f"{what} must be an STCoord, got {coord!r}")
    return coord.attr()


def check_split_funcs(where: str, split_funcs: object) -> None:
    funcs = split_funcs if isinstance(split_funcs, list | tuple) else [split_funcs]
    for func in funcs:
        if isinstance(func, list | tuple):
            check_split_funcs(where, func)
        elif func is not SplitType.Average:
            raise bad_input(where, f"split_funcs: only SplitType.Average exists, got {func!r}")


def target_name(target: object) -> str:
    """The name `st.mapping` records for a target given by name, path or preset object."""
    if isinstance(target, HardwareTarget):
        if target.name in target_names() and load_target(target.name) == target:
            return target.name
        raise bad_input("STEnv", f"target {target.name!r} is not a preset; give the path of its TOML file")
    if not isinstance(target, str):
        raise bad_input("STEnv", f"the target is a name, a TOML path or a HardwareTarget, got {target!r}")
    try:
        load_target(target)
    except TargetError as error:
        raise bad_input("STEnv", str(error)) from None
    return target


def session_graph(task_graph: object, graph: str | None) -> tuple[ModuleOp, task.GraphOp]:
    """The module and the graph a session maps: a graph itself, or the graph of a module."""
    if isinstance(task_graph, task.GraphOp):
        module = task_graph.parent_op()
        if not isinstance(module, ModuleOp):
            raise bad_input("STEnv", f"task.graph @{task_graph.graph_name} is not in a module")
        return module, task_graph
    if not isinstance(task_graph, ModuleOp):
        raise bad_input("STEnv", f"expected a task.graph or a module, got {type(task_graph).__name__}")
    graphs = [op for op in task_graph.ops if isinstance(op, task.GraphOp) and graph in (None, op.graph_name)]
    if len(graphs) != 1:
        named = f" @{graph}" if graph else ""
        raise bad_input("STEnv", f"expected one task graph{named}, found {len(graphs)}")
    return task_graph, graphs[0]


class STEnv:
    """
    A mapping session on a task graph: `STEnv(task_graph, target)` as in the seed, where the
    target (a name, a TOML path or a preset `HardwareTarget`) stands for the seed's
    STMatrix, or `STEnv(module, target, graph=NAME)` for a graph of a module (its only one
    unless named). Its module always holds the actions so far as `st-apply` leaves them.
    """

    def __init__(
        self, task_graph: ModuleOp | task.GraphOp, target: str | HardwareTarget = "tianjicx", graph: str | None = None
    ):
        module, graph_op = session_graph(task_graph, graph)
        name = graph_op.graph_name
        if any(isinstance(op, MappingOp) and op.graph_name == name for op in module.ops):
            raise bad_input("STEnv", f"task.graph @{name} already has an st.mapping")
        self._module = module
        self.mapping = MappingOp(name, target_name(target), applied=True)
        self.executor = ActionExecutor(graph_op, load_target(self.mapping.target_name))
        module.body.block.add_op(self.mapping)

    def _run(self, where: str, op: Operation) -> list[int]:
        """Check the action as its op's verifier would, then execute and record it."""
        try:
            op.verify()
        except VerifyException as error:
            raise bad_input(where, str(error)) from None
        created = self.executor.apply(op)
        self.mapping.body.block.add_op(op)
        return created

    def split_task(
        self,
        task_id: int,
        split_vector: Shape | Sequence[int],
        split_funcs: object = SplitType.Average,
    ) -> list[int]:
        """Split a compute block; return the ids of the blocks created."""
        where = "STEnv.split_task"
        check_split_funcs(where, split_funcs)
        return self._run(where, SplitTaskOp(integer(where, "task_id", task_id), vector_of(where, split_vector)))

    def split_group(
        self,
        task_id_list: Sequence[int],
        split_vector: Shape | Sequence[int] | Sequence[Shape],
        split_funcs: object = SplitType.Average,
    ) -> list[int]:
        """Split compute blocks in order, by one vector or one each; return the ids created."""
        where = "STEnv.split_group"
        check_split_funcs(where, split_funcs)
        task_ids = integers(where, "task_id_list", task_id_list)
        if not isinstance(split_vector, Shape | Sequence) or isinstance(split_vector, str | bytes):
            raise bad_input(where, f"split_vector is a Shape, a vector or one of them per block, got {split_vector!r}")
        one = isinstance(split_vector, Shape) or all(isinstance(v, Integral) for v in split_vector)
        vectors = [vector_of(where, split_vector)] if one else [vector_of(where, v) for v in split_vector]  # pyright: ignore[reportGeneralTypeIssues]
        return self._run(where, SplitGroupOp(task_ids, vectors))

    def put_in(self, st_coord: STCoord, task_id: int, end_st_coord: STCoord | None = None) -> None:
        """Put a block at a coordinate; a storage block up to an end coordinate."""
        where = "STEnv.put_in"
        at, end = coord_of(where, "st_coord", st_coord), optional_coord(where, "end_st_coord", end_st_coord)
        self._run(where, PutInOp(integer(where, "task_id", task_id), at, end))

    def put_group_in(self, st_coord: STCoord, task_id: int) -> None:
        """Put a compute block and its input storage on the same core and phase."""
        where = "STEnv.put_group_in"
        self._run(where, PutGroupInOp(integer(where, "task_id", task_id), coord_of(where, "st_coord", st_coord)))

    def take_out(self, st_coord: STCoord, task_id: int | None = None, end_st_coord: STCoord | None = None) -> None:
        """Take one block, or every storage block of a core and phase, out."""
        where = "STEnv.take_out"
        block = None if task_id is None else integer(where, "task_id", task_id)
        at, end = coord_of(where, "st_coord", st_coord), optional_coord(where, "end_st_coord", end_st_coord)
        self._run(where, TakeOutOp(at, block, end))

    def area_group(
        self,
        name: str,
        members: Sequence[int],
        rects: Mapping[str, tuple[tuple[int, int], tuple[int, int]]],
        contain_routing: bool = False,
        exclusive_routing: bool = False,
        exclusive_placement: bool = False,
    ) -> None:
        """Constrain blocks to an area: `rects` maps a tile type to (columns, rows), inclusive."""
        where = "STEnv.area_group"
        if not isinstance(name, str):
            raise bad_input(where, f"name must be a string, got {name!r}")
        if not isinstance(rects, Mapping):
            raise bad_input(where, f"rects maps a tile type to ((column, column), (row, row)), got {rects!r}")
        flags = (contain_routing, exclusive_routing, exclusive_placement)
        if not all(isinstance(flag, bool) for flag in flags):
            raise bad_input(where, f"the flags are True or False, got {flags!r}")
        rect_attrs: list[RectAttr] = []
        for tile_type, bounds in rects.items():
            if not isinstance(tile_type, str) or not isinstance(bounds, Sequence) or len(bounds) != 2:
                raise bad_input(where, f"rects maps a tile type to ((column, column), (row, row)), got {rects!r}")
            columns, rows = (
                integers(where, f"{axis} of {tile_type}", b, length=2)
                for axis, b in zip(("columns", "rows"), bounds, strict=True)
            )
            try:
                rect_attrs.append(RectAttr.of(tile_type, (columns[0], columns[1]), (rows[0], rows[1])))
            except VerifyException as error:
                raise bad_input(where, str(error)) from None
        self._run(where, AreaGroupOp(name, integers(where, "members", members), rect_attrs, *flags))

    @property
    def module(self) -> ModuleOp:
        """The module as `st-apply` leaves it after the actions so far: the coordinates and
        group memberships on the blocks, the mapping applied. It is kept up to date after
        every action; reading it checks the rules that hold once a script is done."""
        self.executor.matrix.check_complete()
        return self._module

    def script(self) -> str:
        """The mapping script recorded so far, as `st-apply` takes it."""
        script = self.mapping.clone()
        script.properties.pop("applied", None)
        return module_text(script)
