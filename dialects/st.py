"""
The `st` dialect: where and when each block of a task graph runs (DESIGN §2.2).

A coordinate `#st.coord<(chip y, chip x, core y, core x), (step, phase, stage)>` names a
core of the mesh and a pipeline stage of one phase of one step. A mapping is a script of
actions on one task graph, in the spirit of MLIR's transform dialect: TianjicX's
`split_task`, `split_group`, `put_in`, `put_group_in` and `take_out`, and UG1079's area
groups. The `st-apply` pass executes it; `st-place` and `st-route` complete it. See
docs/st-dialect.md.

```mlir
st.mapping @fc target "tianjicx" {
  st.put_group_in 3 at (0, 0, 0, 0), (0, 1, axon)
  st.area_group "left" [3] {core columns 0 to 1 rows 0 to 9} exclusive_placement
}
```
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    DenseArrayBase,
    IntAttr,
    IntegerAttr,
    StringAttr,
    UnitAttr,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Block, Data, Dialect, Operation, ParametrizedAttribute, Region
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsolatedFromAbove, NoTerminator
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from stc.compiler.targets.hardware import HardwareTarget, TargetError, load_target
from stc.dialects.task.graph import GraphOp
from stc.dialects.task.syntax import (
    format_int_list,
    i64_array,
    i64_attr,
    parse_int_list,
    print_attr_dict,
)

Space = tuple[int, int, int, int]
"""(chip y, chip x, core y, core x)."""


class Stage(StrEnum):
    """The pipeline stages of one phase of a TianjicX core (BiMap's PI index), in order."""

    AXON = "axon"
    SOMA1 = "soma1"
    ROUTER_RECV = "router_recv"
    ROUTER_SEND = "router_send"
    SOMA2 = "soma2"
    MEMORY = "memory"


COMPUTE_STAGES = (Stage.AXON, Stage.SOMA1, Stage.SOMA2)


@irdl_attr_definition
class StageAttr(EnumAttribute[Stage]):
    """A pipeline stage, as a parameter of `#st.coord`."""

    name = "st.stage"


def format_space(space: Sequence[int]) -> str:
    return "(" + ", ".join(str(v) for v in space) + ")"


def format_coord(space: Sequence[int], step: int, phase: int, last_phase: int, stage: Stage) -> str:
    """The body of a coordinate, `(0, 0, 2, 3), (0, 1, axon)` or `(0, 0, 2, 3), (0, 0 to 3, memory)`."""
    phases = f"{phase} to {last_phase}" if last_phase != phase else str(phase)
    return f"{format_space(space)}, ({step}, {phases}, {stage.value})"


def phases_problem(phase: int, last_phase: int, stage: Stage) -> str | None:
    """Why a stage cannot hold a block from `phase` to `last_phase`, or None."""
    if last_phase < phase:
        return "the last phase comes before the first"
    if last_phase != phase and stage != Stage.MEMORY:
        return "only the memory stage spans phases"
    return None


@irdl_attr_definition
class CoordAttr(ParametrizedAttribute):
    """
    A spatio-temporal coordinate: a core and a stage of one phase. Storage blocks, which
    live in memory, may span phases `phase to last`.

    ```mlir
    #st.coord<(0, 0, 2, 3), (0, 1, axon)>
    #st.coord<(0, 0, 2, 3), (0, 0 to 3, memory)>
    ```
    """

    name = "st.coord"
    space_dims: ArrayAttr[IntAttr]
    time_dims: ArrayAttr[IntAttr]
    """(step, phase, last phase)."""
    pi_stage: StageAttr

    def __init__(
        self,
        space: Sequence[int],
        step: int,
        phase: int,
        stage: Stage,
        last_phase: int | None = None,
    ):
        super().__init__(
            ArrayAttr(IntAttr(v) for v in space),
            ArrayAttr(IntAttr(v) for v in (step, phase, phase if last_phase is None else last_phase)),
            StageAttr(stage),
        )

    @property
    def space(self) -> Space:
        chip_y, chip_x, core_y, core_x = (v.data for v in self.space_dims)
        return chip_y, chip_x, core_y, core_x

    @property
    def step(self) -> int:
        return self.time_dims.data[0].data

    @property
    def phase(self) -> int:
        return self.time_dims.data[1].data

    @property
    def last_phase(self) -> int:
        return self.time_dims.data[2].data

    @property
    def stage(self) -> Stage:
        return self.pi_stage.data

    @property
    def is_range(self) -> bool:
        return self.last_phase != self.phase

    def text(self) -> str:
        """The body `(0, 0, 2, 3), (0, 1, axon)`, as actions print it."""
        return format_coord(self.space, self.step, self.phase, self.last_phase, self.stage)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return parse_coord_body(parser).parameters

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.text()}>")

    def verify(self) -> None:
        if len(self.space_dims) != 4:
            raise VerifyException(
                f"a space coordinate has 4 parts (chip y, chip x, core y, core x), got {len(self.space_dims)}"
            )
        if len(self.time_dims) != 3:
            raise VerifyException(f"a time coordinate has (step, phase, last phase), got {len(self.time_dims)} parts")
        if min(self.space) < 0 or min(self.step, self.phase) < 0:
            raise VerifyException(f"coordinate {self.text()} has a negative part")
        if problem := phases_problem(self.phase, self.last_phase, self.stage):
            raise VerifyException(f"coordinate {self.text()}: {problem}")


def coord_problem(target: HardwareTarget, coord: CoordAttr) -> str | None:
    """Why `coord` is not a place of `target` (no such chip or core, phase too late), or None."""
    return place_problem(target, coord.space, coord.last_phase)


def place_problem(target: HardwareTarget, space: Space, last_phase: int) -> str | None:
    """Why a core and a last phase are not a place of `target`, or None."""
    chip_y, chip_x, core_y, core_x = space
    mesh = target.mesh
    if chip_y >= mesh.chips_y or chip_x >= mesh.chips_x:
        chips = f"{mesh.chips_y}x{mesh.chips_x}"
        return f"chip ({chip_y}, {chip_x}) is outside {target.name}'s {chips} chips"
    if not target.core_exists(core_y, core_x):
        cores = f"{mesh.cores_y}x{mesh.cores_x}"
        return f"core ({core_y}, {core_x}) does not exist on {target.name} ({cores} cores)"
    if target.max_phases is not None and last_phase >= target.max_phases:
        return f"phase {last_phase} is not below {target.name}'s {target.max_phases} phases"
    return None


COORD = "st.coord"
"""The discardable attribute holding a task block's coordinate."""

ROUTES = "st.routes"
"""The discardable attribute holding the routes into a block (`st-route`)."""


def parse_coord_body(parser: AttrParser) -> CoordAttr:
    """Parse `(0, 0, 2, 3), (0, 1, axon)` or `(0, 0, 2, 3), (0, 0 to 3, memory)`."""
    start = parser.pos
    space = parser.parse_comma_separated_list(parser.Delimiter.PAREN, lambda: parser.parse_integer(allow_boolean=False))
    if len(space) != 4:
        parser.raise_error(
            f"a space coordinate has 4 parts (chip y, chip x, core y, core x), got {len(space)}",
            start,
            parser.pos,
        )
    parser.parse_punctuation(",")
    parser.parse_punctuation("(")
    step = parser.parse_integer(allow_boolean=False)
    parser.parse_punctuation(",")
    phase = parser.parse_integer(allow_boolean=False)
    last_phase = parser.parse_integer(allow_boolean=False) if parser.parse_optional_keyword("to") else None
    parser.parse_punctuation(",")
    stage = parser.parse_str_enum(Stage)
    parser.parse_punctuation(")")
    return CoordAttr(space, step, phase, stage, last_phase)


@irdl_attr_definition
class RectAttr(Data[tuple[str, int, int, int, int]]):
    """
    One rectangle of an area group: a tile type and its column and row bounds, inclusive,
    counted inside the tile type as UG1079 does (aie-ml's aie_tile row 0 is array row 3).

    ```mlir
    #st.rect<aie_tile columns 0 to 1 rows 0 to 7>
    ```
    """

    name = "st.rect"

    @staticmethod
    def of(tile_type: str, columns: tuple[int, int], rows: tuple[int, int]) -> RectAttr:
        return RectAttr((tile_type, columns[0], rows[0], columns[1], rows[1]))

    @property
    def tile_type(self) -> str:
        return self.data[0]

    @property
    def columns(self) -> tuple[int, int]:
        return self.data[1], self.data[3]

    @property
    def rows(self) -> tuple[int, int]:
        return self.data[2], self.data[4]

    def text(self) -> str:
        (c0, c1), (r0, r1) = self.columns, self.rows
        return f"{self.tile_type} columns {c0} to {c1} rows {r0} to {r1}"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[str, int, int, int, int]:
        with parser.in_angle_brackets():
            return parse_rect_body(parser).data

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.text()}>")

    def verify(self) -> None:
        (c0, c1), (r0, r1) = self.columns, self.rows
        if min(c0, r0) < 0 or c1 < c0 or r1 < r0:
            raise VerifyException(f"rectangle {self.text()} is empty or negative")


def parse_rect_body(parser: AttrParser) -> RectAttr:
    """Parse `aie_tile columns 0 to 1 rows 0 to 7`."""
    tile_type = parser.parse_identifier("tile type")
    bounds: list[int] = []
    for axis in ("columns", "rows"):
        parser.parse_keyword(axis)
        bounds.append(parser.parse_integer(allow_boolean=False))
        parser.parse_keyword("to")
        bounds.append(parser.parse_integer(allow_boolean=False))
    return RectAttr.of(tile_type, (bounds[0], bounds[1]), (bounds[2], bounds[3]))


RouteData = tuple[int, int, tuple[Space, ...]]


@irdl_attr_definition
class RouteAttr(Data[RouteData]):
    """
    The XY route of one producer→consumer edge, kept on the consumer: the producer's id,
    the bytes sent and every core the data passes, both ends included.

    ```mlir
    #st.route<from 4, 2048 bytes, [(0, 0, 0, 0), (0, 0, 0, 1), (0, 0, 1, 1)]>
    ```
    """

    name = "st.route"

    @staticmethod
    def of(source: int, nbytes: int, path: Sequence[Space]) -> RouteAttr:
        return RouteAttr((source, nbytes, tuple(path)))

    @property
    def source(self) -> int:
        return self.data[0]

    @property
    def nbytes(self) -> int:
        return self.data[1]

    @property
    def path(self) -> tuple[Space, ...]:
        return self.data[2]

    @property
    def hops(self) -> int:
        return len(self.path) - 1

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> RouteData:
        with parser.in_angle_brackets():
            parser.parse_keyword("from")
            source = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(",")
            nbytes = parser.parse_integer(allow_boolean=False)
            parser.parse_keyword("bytes")
            parser.parse_punctuation(",")
            path = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE,
                lambda: tuple(
                    parser.parse_comma_separated_list(
                        parser.Delimiter.PAREN, lambda: parser.parse_integer(allow_boolean=False)
                    )
                ),
            )
        return source, nbytes, tuple(path)  # pyright: ignore[reportReturnType]

    def print_parameter(self, printer: Printer) -> None:
        path = ", ".join(format_space(space) for space in self.path)
        printer.print_string(f"<from {self.source}, {self.nbytes} bytes, [{path}]>")

    def verify(self) -> None:
        if not self.path or any(len(space) != 4 for space in self.path):
            raise VerifyException("a route passes at least one core, each given by 4 coordinates")


@irdl_op_definition
class MappingOp(IRDLOperation):
    """
    The mapping script of the task graph `@name` on a hardware target: actions executed in
    order by `st-apply`, which then marks the mapping `applied`.

    ```mlir
    st.mapping @tiny target "tianjicx" {
      st.split_task 4 by [2, 1, 1, 1]
      st.put_group_in 17 at (0, 0, 0, 1), (0, 0, axon)
    }
    ```
    """

    name = "st.mapping"
    graph = prop_def(StringAttr)
    target = prop_def(StringAttr)
    applied = opt_prop_def(UnitAttr)
    body = region_def("single_block")
    traits = traits_def(NoTerminator(), IsolatedFromAbove())

    def __init__(
        self,
        graph: str,
        target: str,
        actions: Region | Sequence[Operation] = (),
        applied: bool = False,
    ):
        body = actions if isinstance(actions, Region) else Region(Block(actions))
        if not body.blocks:
            body.add_block(Block())
        super().__init__(
            properties={
                "graph": StringAttr(graph),
                "target": StringAttr(target),
                "applied": UnitAttr() if applied else None,
            },
            regions=[body],
        )

    @property
    def graph_name(self) -> str:
        return self.graph.data

    @property
    def target_name(self) -> str:
        return self.target.data

    def find_graph(self) -> GraphOp | None:
        """The mapped `task.graph`, a sibling of this op."""
        siblings = self.parent.ops if self.parent is not None else ()
        return next(
            (op for op in siblings if isinstance(op, GraphOp) and op.graph_name == self.graph_name),
            None,
        )

    def verify_(self) -> None:
        prefix = f"st.mapping @{self.graph_name}"
        try:
            target = load_target(self.target_name)
        except TargetError as error:
            raise VerifyException(f"{prefix}: {error}") from None
        for action in self.body.block.ops:
            if not isinstance(action, ActionOp):
                raise VerifyException(f"{prefix} holds only st actions, got {action.name}")
            for coord in action.coords():
                if problem := coord_problem(target, coord):
                    raise VerifyException(f"{prefix}: {action.name} at {coord.text()}: {problem}")
        graph = self.find_graph()
        if graph is None:
            raise VerifyException(f"{prefix}: the module has no task.graph @{self.graph_name}")
        for op in graph.tasks():
            coord = op.attributes.get(COORD)
            if coord is None:
                continue
            if not isinstance(coord, CoordAttr):
                raise VerifyException(f"{op.name} {op.task_id}: {COORD} must be a #st.coord, got {coord}")
            if problem := coord_problem(target, coord):
                raise VerifyException(f"{op.name} {op.task_id} at {coord.text()}: {problem}")

    @classmethod
    def parse(cls, parser: Parser) -> MappingOp:
        graph = parser.parse_symbol_name().data
        parser.parse_keyword("target")
        target = parser.parse_str_literal("target name")
        applied = parser.parse_optional_keyword("applied") is not None
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls(graph, target, parser.parse_region(), applied)
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.graph_name)
        printer.print_string(" target ")
        printer.print_string_literal(self.target_name)
        if self.applied is not None:
            printer.print_string(" applied")
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)


class ActionOp(IRDLOperation):
    """An action of a mapping script."""

    def coords(self) -> list[CoordAttr]:
        """The coordinates the action names."""
        return [value for value in self.properties.values() if isinstance(value, CoordAttr)]

    def verify_(self) -> None:
        for coord in self.coords():
            if coord.is_range:
                raise VerifyException(
                    f"{self.name}: coordinate {coord.text()} must be one phase; give an end coordinate"
                )


def parse_task_id(parser: Parser) -> int:
    return parser.parse_integer(allow_boolean=False)


@irdl_op_definition
class SplitTaskOp(ActionOp):
    """
    Split a compute block (task-split's `split_task`) by `[ny, nx, nf, nr]` or the seed's
    `[ny, nx, nf, nr, 1, 1]`, with the Average split.

    ```mlir
    st.split_task 3 by [2, 1, 2, 2]
    ```
    """

    name = "st.split_task"
    task = prop_def(IntegerAttr[I64])
    vector = prop_def(DenseArrayBase)
    traits = traits_def(HasParent(MappingOp))

    def __init__(self, task: int, vector: Sequence[int]):
        super().__init__(properties={"task": i64_attr(task), "vector": i64_array(vector)})

    @property
    def task_id(self) -> int:
        return self.task.value.data

    @property
    def counts(self) -> tuple[int, ...]:
        return self.vector.get_values()  # pyright: ignore[reportReturnType]

    @classmethod
    def parse(cls, parser: Parser) -> SplitTaskOp:
        task = parse_task_id(parser)
        parser.parse_keyword("by")
        op = cls(task, parse_int_list(parser))
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.task_id} by {format_int_list(self.counts)}")
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        check_vector(self.name, self.counts)


def check_vector(op_name: str, counts: Sequence[int]) -> None:
    if len(counts) not in (4, 6):
        raise VerifyException(
            f"{op_name}: a split vector is [ny, nx, nf, nr] or [ny, nx, nf, nr, 1, 1], got {list(counts)}"
        )


@irdl_op_definition
class SplitGroupOp(ActionOp):
    """
    Split compute blocks in order (task-split's `split_group`), all by one vector or each
    by its own.

    ```mlir
    st.split_group [1, 7] by [1, 1, 2, 1]
    st.split_group [1, 5, 7] by [[1, 1, 2, 1], [1, 1, 1, 2], [1, 1, 2, 1]]
    ```
    """

    name = "st.split_group"
    tasks = prop_def(DenseArrayBase)
    vectors = prop_def(ArrayAttr[DenseArrayBase])
    """One vector for every task, or a single vector shared by all."""
    traits = traits_def(HasParent(MappingOp))

    def __init__(self, tasks: Sequence[int], vectors: Sequence[Sequence[int]]):
        super().__init__(
            properties={
                "tasks": i64_array(tasks),
                "vectors": ArrayAttr(i64_array(v) for v in vectors),
            }
        )

    @property
    def task_ids(self) -> tuple[int, ...]:
        return self.tasks.get_values()  # pyright: ignore[reportReturnType]

    @property
    def count_vectors(self) -> list[tuple[int, ...]]:
        return [v.get_values() for v in self.vectors]  # pyright: ignore[reportReturnType]

    @classmethod
    def parse(cls, parser: Parser) -> SplitGroupOp:
        tasks = parse_int_list(parser)
        parser.parse_keyword("by")
        if parser.parse_optional_punctuation("[") is None:
            parser.raise_error("expected a split vector `[ny, nx, nf, nr]` or a list of them")
        if parser.parse_optional_punctuation("[") is None:
            vectors = [[parser.parse_integer(allow_boolean=False)]]
            while parser.parse_optional_punctuation(","):
                vectors[0].append(parser.parse_integer(allow_boolean=False))
        else:
            vectors = [parse_rest_of_int_list(parser)]
            while parser.parse_optional_punctuation(","):
                vectors.append(parse_int_list(parser))
        parser.parse_punctuation("]")
        op = cls(tasks, vectors)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        vectors = self.count_vectors
        text = (
            format_int_list(vectors[0])
            if len(vectors) == 1
            else "[" + ", ".join(format_int_list(v) for v in vectors) + "]"
        )
        printer.print_string(f" {format_int_list(self.task_ids)} by {text}")
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        vectors = self.count_vectors
        if len(vectors) not in (1, len(self.task_ids)):
            raise VerifyException(f"{self.name}: {len(vectors)} vectors for {len(self.task_ids)} tasks")
        for vector in vectors:
            check_vector(self.name, vector)


def parse_rest_of_int_list(parser: Parser) -> list[int]:
    """The integers and the closing `]` of a list whose `[` was just parsed."""
    values = [parser.parse_integer(allow_boolean=False)]
    while parser.parse_optional_punctuation(","):
        values.append(parser.parse_integer(allow_boolean=False))
    parser.parse_punctuation("]")
    return values


def parse_at(parser: Parser) -> CoordAttr:
    parser.parse_keyword("at")
    return parse_coord_body(parser)


def parse_optional_to(parser: Parser) -> CoordAttr | None:
    return parse_coord_body(parser) if parser.parse_optional_keyword("to") else None


def print_at(printer: Printer, at: CoordAttr, end: CoordAttr | None) -> None:
    printer.print_string(f" at {at.text()}")
    if end is not None:
        printer.print_string(f" to {end.text()}")


@irdl_op_definition
class PutInOp(ActionOp):
    """
    Put a block at a coordinate. A storage block may be given an end coordinate that
    differs only in a later or equal phase; it then lives on every phase in between.

    ```mlir
    st.put_in 3 at (0, 0, 0, 0), (0, 1, axon)
    st.put_in 1 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1, memory)
    ```
    """

    name = "st.put_in"
    task = prop_def(IntegerAttr[I64])
    at = prop_def(CoordAttr)
    end = opt_prop_def(CoordAttr)
    traits = traits_def(HasParent(MappingOp))

    def __init__(self, task: int, at: CoordAttr, end: CoordAttr | None = None):
        super().__init__(properties={"task": i64_attr(task), "at": at, "end": end})

    @property
    def task_id(self) -> int:
        return self.task.value.data

    @classmethod
    def parse(cls, parser: Parser) -> PutInOp:
        task = parse_task_id(parser)
        op = cls(task, parse_at(parser), parse_optional_to(parser))
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.task_id}")
        print_at(printer, self.at, self.end)
        print_attr_dict(printer, self.attributes)


@irdl_op_definition
class PutGroupInOp(ActionOp):
    """
    Put a compute block at a coordinate and all its input storage blocks at the memory
    stage of the same core, step and phase.

    ```mlir
    st.put_group_in 3 at (0, 0, 0, 0), (0, 1, axon)
    ```
    """

    name = "st.put_group_in"
    task = prop_def(IntegerAttr[I64])
    at = prop_def(CoordAttr)
    traits = traits_def(HasParent(MappingOp))

    def __init__(self, task: int, at: CoordAttr):
        super().__init__(properties={"task": i64_attr(task), "at": at})

    @property
    def task_id(self) -> int:
        return self.task.value.data

    @classmethod
    def parse(cls, parser: Parser) -> PutGroupInOp:
        task = parse_task_id(parser)
        op = cls(task, parse_at(parser))
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.task_id}")
        print_at(printer, self.at, None)
        print_attr_dict(printer, self.attributes)


@irdl_op_definition
class TakeOutOp(ActionOp):
    """
    Take blocks out of a coordinate: the block at a compute or router stage; at the
    memory stage one storage block, or without an id every storage block of that core
    and phase; with an end coordinate, over every phase up to it.

    ```mlir
    st.take_out 1 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1, memory)
    st.take_out at (0, 0, 0, 0), (0, 1, memory)
    ```
    """

    name = "st.take_out"
    task = opt_prop_def(IntegerAttr[I64])
    at = prop_def(CoordAttr)
    end = opt_prop_def(CoordAttr)
    traits = traits_def(HasParent(MappingOp))

    def __init__(self, at: CoordAttr, task: int | None = None, end: CoordAttr | None = None):
        super().__init__(properties={"task": None if task is None else i64_attr(task), "at": at, "end": end})

    @property
    def task_id(self) -> int | None:
        return None if self.task is None else self.task.value.data

    @classmethod
    def parse(cls, parser: Parser) -> TakeOutOp:
        task = parser.parse_optional_integer(allow_boolean=False)
        at = parse_at(parser)
        op = cls(at, task, parse_optional_to(parser))
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        if self.task_id is not None:
            printer.print_string(f" {self.task_id}")
        print_at(printer, self.at, self.end)
        print_attr_dict(printer, self.attributes)


AREA_FLAGS = ("contain_routing", "exclusive_routing", "exclusive_placement")


@irdl_op_definition
class AreaGroupOp(ActionOp):
    """
    An area location constraint (UG1079): the member blocks must be placed inside the
    rectangles, one per tile type. `contain_routing` keeps the routes between members
    inside, `exclusive_routing` keeps every route between non-members out, and
    `exclusive_placement` keeps non-members out. A member compute block brings its input
    storage blocks; a member that a later split removes is replaced by the blocks the
    split creates.

    ```mlir
    st.area_group "g" [3, 4] {aie_tile columns 0 to 1 rows 0 to 7,
                              shim_tile columns 0 to 1 rows 0 to 0} contain_routing
    ```
    """

    name = "st.area_group"
    group_name = prop_def(StringAttr, prop_name="name")
    members = prop_def(DenseArrayBase)
    rects = prop_def(ArrayAttr[RectAttr])
    contain_routing = opt_prop_def(UnitAttr)
    exclusive_routing = opt_prop_def(UnitAttr)
    exclusive_placement = opt_prop_def(UnitAttr)
    traits = traits_def(HasParent(MappingOp))

    def __init__(
        self,
        name: str,
        members: Sequence[int],
        rects: Sequence[RectAttr],
        contain_routing: bool = False,
        exclusive_routing: bool = False,
        exclusive_placement: bool = False,
    ):
        flags = (contain_routing, exclusive_routing, exclusive_placement)
        super().__init__(
            properties={
                "name": StringAttr(name),
                "members": i64_array(members),
                "rects": ArrayAttr(rects),
                **{flag: UnitAttr() if on else None for flag, on in zip(AREA_FLAGS, flags, strict=True)},
            }
        )

    @property
    def member_ids(self) -> tuple[int, ...]:
        return self.members.get_values()  # pyright: ignore[reportReturnType]

    def flag(self, name: str) -> bool:
        return name in self.properties

    @classmethod
    def parse(cls, parser: Parser) -> AreaGroupOp:
        name = parser.parse_str_literal("area group name")
        members = parse_int_list(parser)
        rects = parser.parse_comma_separated_list(parser.Delimiter.BRACES, lambda: parse_rect_body(parser))
        flags: set[str] = set()
        while flag := parser.parse_optional_keyword_in(AREA_FLAGS):
            if flag in flags:
                parser.raise_error(f"area group {name!r}: {flag} is given twice")
            flags.add(flag)
        op = cls(name, members, rects, *(flag in flags for flag in AREA_FLAGS))
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.group_name.data)
        rects = ", ".join(rect.text() for rect in self.rects)
        printer.print_string(f" {format_int_list(self.member_ids)} {{{rects}}}")
        for flag in AREA_FLAGS:
            if self.flag(flag):
                printer.print_string(f" {flag}")
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        if not self.rects:
            raise VerifyException(f"{self.name} {self.group_name.data!r}: needs at least one rectangle")
        tile_types = [rect.tile_type for rect in self.rects]
        if len(set(tile_types)) != len(tile_types):
            raise VerifyException(
                f"{self.name} {self.group_name.data!r}: one rectangle per tile type, got {tile_types}"
            )


St = Dialect(
    "st",
    [MappingOp, SplitTaskOp, SplitGroupOp, PutInOp, PutGroupInOp, TakeOutOp, AreaGroupOp],
    [CoordAttr, StageAttr, RectAttr, RouteAttr],
)
