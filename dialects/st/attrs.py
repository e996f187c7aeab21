"""
The attributes of the `st` dialect: spatio-temporal coordinates, the pipeline stages they
name, and the routes `st-route` writes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from xdsl.dialects.builtin import ArrayAttr, IntAttr
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Data, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from stc.compiler.rules.places import Space, phases_problem, place_problem
from stc.compiler.spelling import COORD_TEXT, ROUTE_TEXT, SPACE_TEXT
from stc.compiler.targets.hardware import HardwareTarget
from stc.dialects.integers import int_array
from stc.dialects.prechecked import prechecked
from stc.dialects.syntax import WithBody, format_int_tuple, parse_int_tuple, take_text


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


STAGE_ATTRS = {stage: StageAttr(stage) for stage in Stage}
"""Each stage's attribute, built once."""

STAGES = {stage.value: stage for stage in Stage}


format_space = format_int_tuple
"""`(0, 0, 2, 3)`, a space coordinate as the `st` dialect writes it."""


def format_coord(space: Sequence[int], step: int, phase: int, last_phase: int, stage: Stage) -> str:
    """The body of a coordinate, `(0, 0, 2, 3), (0, 1, axon)` or `(0, 0, 2, 3), (0, 0 to 3, memory)`."""
    phases = f"{phase} to {last_phase}" if last_phase != phase else str(phase)
    return f"{format_space(space)}, ({step}, {phases}, {stage.value})"


@irdl_attr_definition
class CoordAttr(ParametrizedAttribute, WithBody):
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
        # xDSL's constructor checks the parameters against their definitions, which
        # these are by construction (int_array, StageAttr), then runs `verify`: only
        # that is run here (a mapped ResNet-50 holds some 2,000 distinct coordinates).
        self._hold(space, (step, phase, phase if last_phase is None else last_phase), stage)
        self.verify()

    def _hold(self, space: Sequence[int], time: Sequence[int], stage: Stage) -> None:
        object.__setattr__(self, "space_dims", int_array(space))
        object.__setattr__(self, "time_dims", int_array(time))
        object.__setattr__(self, "pi_stage", STAGE_ATTRS[stage] if type(stage) is Stage else StageAttr(stage))

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
            return cls.parse_body(parser).parameters

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.text()}>")

    @classmethod
    def parse_body(cls, parser: AttrParser) -> CoordAttr:
        """
        Parse `(0, 0, 2, 3), (0, 1, axon)` or `(0, 0, 2, 3), (0, 0 to 3, memory)`. A
        mapped graph repeats a few hundred coordinates thousands of times: each spelling
        is read once per parser, in one match, and then looked up by its text.
        """
        start = parser.pos
        if match := take_text(parser, COORD_TEXT):
            known: dict[str, CoordAttr] = parser.__dict__.setdefault("coords", {})
            if (coord := known.get(match[0])) is None:
                coord = known[match[0]] = CoordAttr.of_text(match)
            return coord
        space = parse_int_tuple(parser)
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

    @staticmethod
    def of_text(match: re.Match[str]) -> CoordAttr:
        """The coordinate of a match of COORD_TEXT: four and three naturals, so only its
        phases are checked (as `verify` checks them)."""
        *space, step, phase, last_phase, stage = match.groups()
        first = int(phase)
        time = (int(step), first, first if last_phase is None else int(last_phase))
        coord = CoordAttr.__new__(CoordAttr)
        coord._hold([int(v) for v in space], time, STAGES[stage])
        if problem := phases_problem(first, time[2], coord.stage):
            raise VerifyException(f"coordinate {coord.text()}: {problem}")
        return coord

    def print_body(self, printer: Printer) -> None:
        printer.print_string(self.text())

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


COORD = "st.coord"
"""The discardable attribute holding a task block's coordinate."""

ROUTES = "st.routes"
"""The discardable attribute holding the routes into a block (`st-route`)."""


RouteData = tuple[int, int, tuple[Space, ...]]


def route_data(match: re.Match[str]) -> RouteData:
    """The data of a route from a match of ROUTE_TEXT."""
    path = tuple((int(a), int(b), int(c), int(d)) for a, b, c, d in SPACE_TEXT.findall(match[3]))
    return int(match[1]), int(match[2]), path


def route_list(text: str) -> ArrayAttr[RouteAttr]:
    """
    The routes of a match of ROUTE_LIST_TEXT, cut at the separators the match placed. Each
    core of a match has 4 coordinates, so a route is checked only for having one (as
    `RouteAttr.verify` checks it); a mapped graph names the same few hundred cores in
    thousands of routes, each read once.
    """
    routes: list[RouteAttr] = []
    for route in text[len("#st.route<from ") : -len("]>")].split("]>, #st.route<from "):
        head, _, path = route.partition(" bytes, [")
        source, _, nbytes = head.partition(", ")
        if not path:
            routes.append(RouteAttr((int(source), int(nbytes), ())))  # its error
            continue
        cores = tuple(core_of(core) for core in path[1:-1].split("), ("))
        routes.append(prechecked(RouteAttr, (int(source), int(nbytes), cores)))
    return prechecked(ArrayAttr, tuple(routes))


@lru_cache(maxsize=1 << 12)
def core_of(text: str) -> Space:
    """The core `0, 0, 2, 3` (without its parentheses) of a route's match."""
    chip_y, chip_x, core_y, core_x = text.split(", ")
    return int(chip_y), int(chip_x), int(core_y), int(core_x)


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
        """The route of a path a mesh gave (at least one core, 4 coordinates each), which
        `verify` would only check again: st-route builds one per net."""
        return prechecked(RouteAttr, (source, nbytes, tuple(path)))

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
        if match := take_text(parser, ROUTE_TEXT):
            return route_data(match)
        with parser.in_angle_brackets():
            parser.parse_keyword("from")
            source = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(",")
            nbytes = parser.parse_integer(allow_boolean=False)
            parser.parse_keyword("bytes")
            parser.parse_punctuation(",")
            path = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: tuple(parse_int_tuple(parser)))
        return source, nbytes, tuple(path)  # pyright: ignore[reportReturnType]

    def print_parameter(self, printer: Printer) -> None:
        path = ", ".join(format_space(space) for space in self.path)
        printer.print_string(f"<from {self.source}, {self.nbytes} bytes, [{path}]>")

    def verify(self) -> None:
        if not self.path or any(len(space) != 4 for space in self.path):
            raise VerifyException("a route passes at least one core, each given by 4 coordinates")
