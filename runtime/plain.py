"""
`stc-run`'s reader of a task graph into plain data (`stc.runtime.blocks`), without xDSL:
a file spelled as stc prints it (`stc.compiler.spelling`, the patterns xDSL's fast readers
match) is cut into blocks, and every rule of the `task` dialect, and the places of an
applied `st.mapping`, is checked on them by the functions the verifiers call
(`stc.compiler.rules`). Anything else, any rule broken, gives None: `stc-run` then reads
the file with xDSL, so what is accepted and every message stay xDSL's
(tests/unit/test_plain.py compares both readers on every lit test, zoo networks and drawn
mutations of them).

    graph = read_plain(text)    # a Graph, or None
"""

from __future__ import annotations

import re

from stc.compiler.diagnostics import StcError
from stc.compiler.rules.blocks import box_problem
from stc.compiler.rules.places import phases_problem, place_problem
from stc.compiler.spelling import (
    AFTER_OP,
    BETWEEN_OPS,
    BUFFER_TEXT,
    CLAUSE_TEXT,
    COMPUTE_TEXT,
    DATA_TEXT,
    INPUT_TEXT,
    INTERVAL_TEXT,
    MAPPING_TEXT,
    OP_HEAD,
    OUTPUT_TEXT,
    SOURCE_TEXT,
    ints_of,
)
from stc.runtime.blocks import Block, Box, Graph
from stc.runtime.plain_rules import COMPUTE, DATA, Clause, Unknown, check_graph

SYMBOL = r'@(?:([a-zA-Z_][a-zA-Z0-9_]*+)|"([ !#-\[\]-~]++)")'
"""A symbol's name, bare or quoted (printable ASCII without escapes)."""
HEADER = re.compile(rf"(builtin\.module \{{\n *)?task\.graph {SYMBOL} \{{\n")
TAIL = re.compile(
    rf'\}}(?:\n *st\.mapping {SYMBOL} target "(?P<target>[a-zA-Z0-9_.-]+)" applied \{{\n *\}})?'
    r"(?P<module>\n *\})?\n*\Z"
)
"""The end of the graph, an applied mapping without actions, the end of the module."""


def tensor_type(text: str) -> tuple[tuple[int, ...], int]:
    """The shape and element width of a matched `tensor<1x8x8x16xi8>`."""
    dims, _, width = text[len("tensor<") : -1].rpartition("xi")
    return tuple(int(size) for size in dims.split("x")), int(width)


def read_plain(text: str) -> Graph | None:
    """The task graph `text` holds, if it is one this reader takes and every rule holds
    (those of its applied mapping's places too); None otherwise."""
    try:
        return Reader(text).read()
    except Unknown:
        return None


class Reader:
    """The blocks read so far, by position, with what their rules need."""

    def __init__(self, text: str):
        self.text = text
        self.blocks: list[Block] = []
        self.names: dict[str, int] = {}
        self.coords: list[tuple[tuple[int, int, int, int], int] | None] = []

    def read(self) -> Graph:
        text = self.text
        start = BETWEEN_OPS.match(text).end()  # pyright: ignore[reportOptionalMemberAccess]
        if (head := HEADER.match(text, start)) is None:
            raise Unknown
        position = BETWEEN_OPS.match(text, head.end()).end()  # pyright: ignore[reportOptionalMemberAccess]
        while (op := OP_HEAD.match(text, position)) is not None:
            position = BETWEEN_OPS.match(text, self.read_op(op)).end()  # pyright: ignore[reportOptionalMemberAccess]
        tail = TAIL.match(text, position)
        if tail is None or bool(tail["module"]) != bool(head[1]):
            raise Unknown
        name = head[2] or head[3]
        if tail["target"] is not None and (tail[1] or tail[2]) != name:
            raise Unknown
        graph = Graph(name, tuple(self.blocks))
        check_graph(graph)
        if tail["target"] is not None:
            self.check_places(tail["target"])
        return graph

    def read_op(self, head: re.Match[str]) -> int:
        """Read the op whose head matched; where its text ends."""
        name, result = head["name"], head["result"]
        if head["dialect"] != "task" or (result is None) != (name == "task.output") or result in self.names:
            raise Unknown
        reader = READERS.get(name)
        if reader is None:
            raise Unknown
        block, end = reader(self, name, head.end())
        coord = None
        if self.text.startswith(" {", end):
            coord, end = self.mapping(end + 1)
        if AFTER_OP.match(self.text, end) is None:
            raise Unknown
        if result is not None:
            self.names[result] = len(self.blocks)
        self.blocks.append(block)
        self.coords.append(coord)
        return end

    def mapping(self, start: int) -> tuple[tuple[tuple[int, int, int, int], int], int]:
        """The core and last phase of a mapped block's attributes, as st-place and st-route write them."""
        spelled = MAPPING_TEXT.match(self.text, start)
        if spelled is None or (spelled["routes"] is not None and " bytes, []>" in spelled["routes"]):
            raise Unknown
        chip_y, chip_x, core_y, core_x, _, phase, last, stage = spelled.groups()[1:9]
        first = int(phase)
        last_phase = first if last is None else int(last)
        if phases_problem(first, last_phase, stage):
            raise Unknown
        return ((int(chip_y), int(chip_x), int(core_y), int(core_x)), last_phase), spelled.end()

    def check_places(self, target_name: str) -> None:
        """Every block's coordinate is a place of the target (an `st.mapping`'s rule)."""
        from stc.compiler.references import referenced_target
        from stc.compiler.targets.reading import TargetError

        try:
            target = referenced_target(target_name, "st.mapping")
        except (TargetError, StcError):
            raise Unknown from None
        checked: set[tuple[tuple[int, int, int, int], int]] = set()
        for coord in self.coords:
            if coord is None or coord in checked:
                continue
            if place_problem(target, *coord):
                raise Unknown
            checked.add(coord)

    def value(self, name: str) -> int:
        if (position := self.names.get(name)) is None:
            raise Unknown
        return position

    def box(self, text: str) -> Box:
        intervals = tuple((int(lo), int(hi)) for lo, hi in INTERVAL_TEXT.findall(text))
        if box_problem(intervals):
            raise Unknown
        return intervals


Read = tuple[Block, int]


def matched(pattern: re.Pattern[str], reader: Reader, start: int) -> re.Match[str]:
    if (match := pattern.match(reader.text, start)) is None:
        raise Unknown
    return match


def read_compute(reader: Reader, name: str, start: int) -> Read:
    """`ID OPERANDS (bias %b)? (CLAUSE VALUE)* : TYPE`."""
    match = matched(COMPUTE_TEXT, reader, start)
    compute = COMPUTE[name]
    operands = [reader.value(value[1:]) for value in match["operands"].split(", ")]
    if compute.operands != ("inputs",) and len(operands) != len(compute.operands):
        raise Unknown
    if match["bias"] is not None:
        if not compute.bias:
            raise Unknown
        operands.append(reader.value(match["bias"]))
    clauses: dict[str, Clause] = {}
    for clause, value in CLAUSE_TEXT.findall(match["clauses"]):
        if clause not in compute.clauses or clause in clauses:
            raise Unknown
        single = isinstance(compute.clauses[clause], int)
        if single == value.startswith("["):
            raise Unknown
        clauses[clause] = int(value) if single else tuple(ints_of(value))
    for clause, default in compute.clauses.items():
        if clause not in clauses:
            if default is None:
                raise Unknown
            clauses[clause] = default
    shape, width = tensor_type(match["type"])
    block = Block(name, int(match["id"]), tuple(operands), shape, width, clauses, match["bias"] is not None)
    return block, match.end()


def read_buffer(reader: Reader, name: str, start: int) -> Read:
    """`ID KIND %SOURCE([BOX])?( at [OFFSET])?, ... : TYPE`."""
    match = matched(BUFFER_TEXT, reader, start)
    operands: list[int] = []
    pieces: list[tuple[Box, tuple[int, ...]]] = []
    for value, box_text, offset_text in SOURCE_TEXT.findall(match["sources"]):
        source = reader.value(value)
        if box_text:
            box = reader.box(box_text)
        else:
            source_shape = reader.blocks[source].shape  # () for an output: it has no result
            if min(source_shape, default=0) < 1:
                raise Unknown
            box = tuple((0, size) for size in source_shape)
        operands.append(source)
        pieces.append((box, tuple(ints_of(offset_text)) if offset_text else (0,) * len(box)))
    shape, width = tensor_type(match["type"])
    block = Block(name, int(match["id"]), tuple(operands), shape, width, label=match["kind"], pieces=tuple(pieces))
    return block, match.end()


def read_data(reader: Reader, name: str, start: int) -> Read:
    """`ID #task.random<SEED> : TYPE([BOX])?` or `ID #task.npz<"path", "key"> : ...`."""
    match = matched(DATA_TEXT, reader, start)
    if match["seed"] is not None:
        data: tuple[str, object] = ("random", int(match["seed"]))
    elif match["path"] == '""' or match["key"] == '""':
        raise Unknown
    else:
        data = ("npz", (match["path"][1:-1], match["key"][1:-1]))
    full_shape, width = tensor_type(match["type"])
    box = None if match["box"] is None else reader.box(match["box"])
    shape = full_shape if box is None else tuple(hi - lo for lo, hi in box)
    block = Block(name, int(match["id"]), (), shape, width, data=data, full_shape=full_shape, box=box)
    return block, match.end()


def read_input(reader: Reader, name: str, start: int) -> Read:
    """`ID "NAME" : TYPE`."""
    match = matched(INPUT_TEXT, reader, start)
    shape, width = tensor_type(match["type"])
    return Block(name, int(match["id"]), (), shape, width, label=match["name"][1:-1]), match.end()


def read_output(reader: Reader, name: str, start: int) -> Read:
    """`ID "NAME" %SOURCE`."""
    match = matched(OUTPUT_TEXT, reader, start)
    block = Block(name, int(match["id"]), (reader.value(match["source"]),), label=match["name"][1:-1])
    return block, match.end()


READERS = {
    **{name: read_compute for name in COMPUTE},
    "task.buffer": read_buffer,
    **{name: read_data for name in DATA},
    "task.input": read_input,
    "task.output": read_output,
}
