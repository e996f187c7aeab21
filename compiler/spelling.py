"""
The text of stc's IR as stc's printers write it, as regular expressions: the one reader of
that spelling, which the whole-op readers (`stc.compiler.op_lines`), the dialects' fast
attribute readers and the plain-data reader of `stc-run` (`stc.runtime.plain`) all match
against. It imports no xDSL. Any other spelling is read by xDSL's parser.

    >>> COMPUTE_TEXT.match("4 %1, %2 bias %3 stride [2, 2] : tensor<1x8x8x16xi8>")["clauses"]
    ' stride [2, 2]'
"""

from __future__ import annotations

import re

INT = r"-?[0-9]{1,18}"
"""A decimal integer as stc's printers write it; 18 digits always fit in 64 bits."""

INT_LIST_TEXT = re.compile(rf"\[(?:{INT}(?:, {INT})*)?\]")
INT_TUPLE_TEXT = re.compile(rf"\((?:{INT}(?:, {INT})*)?\)")

TENSOR_TYPE_TEXT = re.compile(r"tensor<(?:[0-9]{1,19}x){1,8}i(?:8|16|32|64)>")
"""The spelling of the tensors a task graph holds, whose types a parser reads once each."""

INTERVAL_TEXT = re.compile(f"({INT}):({INT})")
BOX_TEXT = re.compile(rf"\[(?:{INT}:{INT}(?:, {INT}:{INT})*)?\]")
"""A box as `format_box` writes it, read in one match (`parse_optional_box`)."""

STAGE_NAMES = ("axon", "soma1", "router_recv", "router_send", "soma2", "memory")
"""The pipeline stages of a TianjicX core's phase, in order (`stc.dialects.st.Stage`)."""

NATURAL = "([0-9]{1,18})"
COORD_TEXT = re.compile(
    rf"\({NATURAL}, {NATURAL}, {NATURAL}, {NATURAL}\), \({NATURAL}, {NATURAL}(?: to {NATURAL})?, "
    rf"({'|'.join(STAGE_NAMES)})\)"
)
"""The body of a coordinate as `format_coord` writes it."""

SPACE_TEXT = re.compile(rf"\({NATURAL}, {NATURAL}, {NATURAL}, {NATURAL}\)")
ONE_SPACE = r"\([0-9]{1,18}, [0-9]{1,18}, [0-9]{1,18}, [0-9]{1,18}\)"
ROUTE_TEXT = re.compile(rf"<from {NATURAL}, {NATURAL} bytes, \[((?:{ONE_SPACE}(?:, {ONE_SPACE})*)?)\]>")
"""A route's parameter as `RouteAttr` prints it, read in one match; its cores then in one `findall`."""

ROUTE_LIST_TEXT = re.compile(rf"#st\.route{ROUTE_TEXT.pattern}(?:, #st\.route{ROUTE_TEXT.pattern})*")
"""The routes of `st.routes = [...]` as st-route writes them (`route_list`)."""

MAPPING_TEXT = re.compile(
    rf"\{{st\.coord = (?P<coord>#st\.coord<{COORD_TEXT.pattern}>)"
    rf"(?:, st\.routes = \[(?P<routes>{ROUTE_LIST_TEXT.pattern})\])?\}}"
)
"""The attributes of a mapped task block as st-place and st-route write them:
`{st.coord = #st.coord<...>, st.routes = [#st.route<...>, ...]}`."""

COORD_PARAMETERS = re.compile(rf"<{COORD_TEXT.pattern}>")
"""The parameters of `#st.coord` as stc prints them."""

VALUE = r"(?:[0-9]++|[a-zA-Z$._-][a-zA-Z0-9$._-]*+)"
"""The name of an SSA value after its `%`, as xDSL's lexer reads it."""

OP_HEAD = re.compile(rf"(?:%(?P<result>{VALUE}) = )?(?P<name>(?P<dialect>task|isa)\.[a-z_]++) ")
"""The start of an op of a dialect with line readers: its result and its name."""

AFTER_OP = re.compile(r"(?=\s|//|\Z)(?:\s++|//[^\n]*+)*+(?:[%}\"^]|\Z|[a-zA-Z_][a-zA-Z0-9_$]*+\.)")
"""What may follow an op read whole: whitespace or a comment, then a token that no op
continues with (a value, the end of the block, the next op's name), so that xDSL's parser
would end the op there too (not take a box, `strides`, attributes or a location)."""

BETWEEN_OPS = re.compile(r"(?:\s++|//[^\n]*+)*+", re.ASCII)
"""The whitespace and comments after an op, as upstream's lexer skips them before a token."""

TENSOR = TENSOR_TYPE_TEXT.pattern
LIST = INT_LIST_TEXT.pattern
NAME = r'"[ !#-\[\]-~]*+"'
"""A string literal of printable ASCII without escapes."""

COMPUTE_TEXT = re.compile(
    rf"(?P<id>{INT}) (?P<operands>%{VALUE}(?:, %{VALUE})*+)(?: bias %(?P<bias>{VALUE}))?"
    rf"(?P<clauses>(?: [a-z_]++ (?:{INT}|{LIST}))*+) : (?P<type>{TENSOR})"
)
CLAUSE_TEXT = re.compile(rf" ([a-z_]++) ({INT}|{LIST})")
BUFFER_TEXT = re.compile(
    rf"(?P<id>{INT}) (?P<kind>sifc|sic|si|so) (?P<sources>%{VALUE}(?:{BOX_TEXT.pattern})?(?: at {LIST})?"
    rf"(?:, %{VALUE}(?:{BOX_TEXT.pattern})?(?: at {LIST})?)*+) : (?P<type>{TENSOR})"
)
SOURCE_TEXT = re.compile(rf"%({VALUE})({BOX_TEXT.pattern})?(?: at ({LIST}))?")
DATA_TEXT = re.compile(
    rf"(?P<id>{INT}) (?P<data>#task\.random<(?P<seed>[0-9]{{1,18}})>|#task\.npz<(?P<path>{NAME}), (?P<key>{NAME})>)"
    rf" : (?P<type>{TENSOR})(?P<box>{BOX_TEXT.pattern})?"
)
INPUT_TEXT = re.compile(rf"(?P<id>{INT}) (?P<name>{NAME}) : (?P<type>{TENSOR})")
OUTPUT_TEXT = re.compile(rf"(?P<id>{INT}) (?P<name>{NAME}) %(?P<source>{VALUE})")


def ints_of(text: str) -> list[int]:
    """The integers of a matched `[1, 2, 3]` or `(1, 2, 3)`."""
    inner = text[1:-1]
    return [int(v) for v in inner.split(", ")] if inner else []
