"""
`STEnv`: the seed's mapping interaction language in Python, on a task module.

Each call checks and executes one action, exactly as `st-apply` would, and records it as
an `st` op; `script()` is the mapping script, which `st-apply` replays on the original
module to the same result as `module`.

    env = STEnv(module, target="tianjicx")
    env.put_group_in(STCoord((0, 0, 0, 0), (0, 1, PIIndex.AXON.value)), task_id=3)
    env.take_out(STCoord((0, 0, 0, 0), (0, 1, PIIndex.MEMORY.value)), task_id=1)
    print(env.script())
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum, IntEnum

from attrs import field, frozen
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.ir import Operation
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.hardware import load_target
from stc.compiler.ir_files import module_text
from stc.compiler.st_actions import ActionExecutor
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
    """The pipeline stage of a time coordinate, numbered as in TianjicX's mapping.proto."""

    AXON = 1
    SOMA1 = 2
    ROUTER_RECEIVE = 3
    ROUTER_SEND = 4
    SOMA2 = 5
    MEMORY = 6

    @property
    def stage(self) -> Stage:
        return list(Stage)[self.value - 1]


class SplitType(Enum):
    """How a dimension is cut; the seed defines only Average (larger pieces first)."""

    Average = "average"


@frozen
class Shape:
    """A split vector: pieces along y, x, f and r; ky and kx are never split."""

    ny: int = 1
    nx: int = 1
    nf: int = 1
    nr: int = 1
    nky: int = 1
    nkx: int = 1

    @property
    def vector(self) -> tuple[int, ...]:
        return self.ny, self.nx, self.nf, self.nr, self.nky, self.nkx


def _time(value: Sequence[int | PIIndex]) -> tuple[int, int, PIIndex]:
    step, phase, stage = value
    return int(step), int(phase), PIIndex(stage)


@frozen
class STCoord:
    """A spatio-temporal coordinate: (chip y, chip x, core y, core x), (step, phase, PI)."""

    space_coord: tuple[int, int, int, int] = field(converter=lambda v: tuple(int(x) for x in v))
    time_coord: tuple[int, int, PIIndex] = field(converter=_time)

    def attr(self) -> CoordAttr:
        step, phase, pi = self.time_coord
        return CoordAttr(self.space_coord, step, phase, pi.stage)


def vector_of(shape: Shape | Sequence[int]) -> tuple[int, ...]:
    return shape.vector if isinstance(shape, Shape) else tuple(shape)


def check_split_funcs(split_funcs: object) -> None:
    funcs = split_funcs if isinstance(split_funcs, list | tuple) else [split_funcs]
    for func in funcs:
        if isinstance(func, list | tuple):
            check_split_funcs(func)
        elif func is not SplitType.Average:
            raise PassFailedException(f"split_funcs: only SplitType.Average exists, got {func!r}")


class STEnv:
    """A mapping session on the task graph of a module (its only graph unless named)."""

    def __init__(self, module: ModuleOp, target: str = "tianjicx", graph: str | None = None):
        graphs = [op for op in module.ops if isinstance(op, task.GraphOp) and graph in (None, op.graph_name)]
        if len(graphs) != 1:
            named = f" @{graph}" if graph else ""
            raise PassFailedException(f"STEnv: expected one task graph{named}, found {len(graphs)}")
        name = graphs[0].graph_name
        if any(isinstance(op, MappingOp) and op.graph_name == name for op in module.ops):
            raise PassFailedException(f"STEnv: task.graph @{name} already has an st.mapping")
        self._module = module
        self.mapping = MappingOp(name, target)
        self.executor = ActionExecutor(graphs[0], load_target(target))
        module.body.block.add_op(self.mapping)

    def _run(self, op: Operation) -> list[int]:
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
        check_split_funcs(split_funcs)
        return self._run(SplitTaskOp(task_id, vector_of(split_vector)))

    def split_group(
        self,
        task_id_list: Sequence[int],
        split_vector: Shape | Sequence[int] | Sequence[Shape],
        split_funcs: object = SplitType.Average,
    ) -> list[int]:
        """Split compute blocks in order, by one vector or one each; return the ids created."""
        check_split_funcs(split_funcs)
        if isinstance(split_vector, Shape) or all(isinstance(v, int) for v in split_vector):
            vectors = [vector_of(split_vector)]  # pyright: ignore[reportArgumentType]
        else:
            vectors = [vector_of(v) for v in split_vector]  # pyright: ignore[reportArgumentType, reportGeneralTypeIssues]
        return self._run(SplitGroupOp(task_id_list, vectors))

    def put_in(self, st_coord: STCoord, task_id: int, end_st_coord: STCoord | None = None) -> None:
        """Put a block at a coordinate; a storage block up to an end coordinate."""
        self._run(PutInOp(task_id, st_coord.attr(), None if end_st_coord is None else end_st_coord.attr()))

    def put_group_in(self, st_coord: STCoord, task_id: int) -> None:
        """Put a compute block and its input storage on the same core and phase."""
        self._run(PutGroupInOp(task_id, st_coord.attr()))

    def take_out(self, st_coord: STCoord, task_id: int | None = None, end_st_coord: STCoord | None = None) -> None:
        """Take one block, or every storage block of a core and phase, out."""
        self._run(TakeOutOp(st_coord.attr(), task_id, None if end_st_coord is None else end_st_coord.attr()))

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
        rect_attrs = [RectAttr.of(tile_type, columns, rows) for tile_type, (columns, rows) in rects.items()]
        self._run(AreaGroupOp(name, members, rect_attrs, contain_routing, exclusive_routing, exclusive_placement))

    @property
    def module(self) -> ModuleOp:
        """The module as `st-apply` leaves it: coordinates on the blocks, mapping applied."""
        self.executor.finish()
        self.mapping.applied = UnitAttr()
        return self._module

    def script(self) -> str:
        """The mapping script recorded so far, as `st-apply` takes it."""
        script = self.mapping.clone()
        script.properties.pop("applied", None)
        return module_text(script)
