"""Tests for the one-match readers of the text stc prints most (integer lists and tuples,
boxes, `#st.coord`, `#st.route`) and for StcParser's reading of repeated attributes once
per spelling: each reads what xDSL's tokens read from any other spelling of the same
values, and every printed module parses back to the same module."""

import gc
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError, VerifyException

from stc.compiler.ir_files import StcParser, module_text, parse_source
from stc.dialects import stc_context
from stc.dialects.st.attrs import CoordAttr, RouteAttr, Stage
from stc.dialects.syntax import parse_int_list, parse_int_tuple, parse_tensor_type
from stc.dialects.task.attrs import BoxAttr, parse_optional_box

I64 = hs.integers(-(2**63), 2**63 - 1)
NATURAL = hs.integers(0, 10**6)


def respaced(text: str) -> str:
    """The same text with other spacing and a comment, which the one-match readers do not
    take, so that xDSL's tokens read it."""
    return re.sub(r"([\[(,:<])", r"\1 \n  ", text).replace(">", " // a comment\n>")


def attribute(text: str, parser_type: type[Parser] = Parser) -> Attribute:
    parser = parser_type(stc_context(), text, "t") if parser_type is StcParser else Parser(stc_context(), text)
    return parser.parse_attribute()


@settings(max_examples=60, deadline=None)
@given(hs.lists(I64, max_size=6))
def test_integer_lists_and_tuples_read_the_same_in_one_match_and_token_by_token(values: list[int]):
    listed = "[" + ", ".join(map(str, values)) + "]"
    tupled = "(" + ", ".join(map(str, values)) + ")"
    for text in (listed, respaced(listed).replace("// a comment\n", "")):
        parser = Parser(stc_context(), text + " x")
        assert parse_int_list(parser) == values
        assert parser.parse_optional_keyword("x")
    for text in (tupled, respaced(tupled).replace("// a comment\n", "")):
        parser = Parser(stc_context(), text + " x")
        assert parse_int_tuple(parser) == values
        assert parser.parse_optional_keyword("x")


@settings(max_examples=40, deadline=None)
@given(hs.lists(hs.tuples(NATURAL, NATURAL), max_size=5))
def test_boxes_read_the_same_in_one_match_and_token_by_token(intervals: list[tuple[int, int]]):
    text = "[" + ", ".join(f"{lo}:{hi}" for lo, hi in intervals) + "]"
    for spelling in (text, respaced(text).replace("// a comment\n", "")):
        parser = Parser(stc_context(), spelling)
        try:
            expected = BoxAttr(tuple(intervals))
        except VerifyException as error:
            with pytest.raises(ParseError, match=re.escape(str(error))):
                parse_optional_box(parser)
            continue
        assert parse_optional_box(parser) == expected.data


@settings(max_examples=40, deadline=None)
@given(hs.lists(hs.integers(0, 10**19 - 1), min_size=1, max_size=8), hs.sampled_from([8, 16, 32, 64]))
def test_tensor_types_read_the_same_in_one_match_once_per_spelling_and_token_by_token(shape: list[int], width: int):
    text = f"tensor<{'x'.join(map(str, shape))}xi{width}>"
    expected = Parser(stc_context(), text).parse_type()
    parser = Parser(stc_context(), f"{text} {text} x")
    first, second = parse_tensor_type(parser), parse_tensor_type(parser)
    assert first == expected
    assert second is first
    assert parser.parse_optional_keyword("x")


coords = hs.builds(
    lambda space, step, phase, span, stage: (space, step, phase, phase + span * (stage == Stage.MEMORY), stage),
    hs.tuples(NATURAL, NATURAL, NATURAL, NATURAL),
    NATURAL,
    NATURAL,
    hs.integers(0, 5),
    hs.sampled_from(Stage),
)


@settings(max_examples=60, deadline=None)
@given(coords)
def test_coordinates_read_the_same_in_one_match_once_per_spelling_and_token_by_token(coord: tuple):
    space, step, phase, last_phase, stage = coord
    expected = CoordAttr(space, step, phase, stage, last_phase)
    text = f"#st.coord<{expected.text()}>"
    assert str(expected) == text
    assert attribute(text) == expected
    assert attribute(respaced(text)) == expected
    parser = StcParser(stc_context(), f"{text} {text} {respaced(text)}", "t")
    assert [parser.parse_attribute() for _ in range(3)] == [expected] * 3


@settings(max_examples=40, deadline=None)
@given(NATURAL, NATURAL, hs.lists(hs.tuples(NATURAL, NATURAL, NATURAL, NATURAL), max_size=5))
def test_routes_read_the_same_in_one_match_and_token_by_token(source: int, nbytes: int, path: list):
    text = f"#st.route<from {source}, {nbytes} bytes, [{', '.join(f'({a}, {b}, {c}, {d})' for a, b, c, d in path)}]>"
    if not path:
        for spelling in (text, respaced(text)):
            with pytest.raises(VerifyException, match="a route passes at least one core"):
                attribute(spelling)
        return
    expected = RouteAttr.of(source, nbytes, path)
    assert str(expected) == text
    assert attribute(text) == expected
    assert attribute(respaced(text)) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("#st.coord<(0, 0, 1, 1), (0, 3 to 2, memory)>", "the last phase comes before the first"),
        ("#st.coord<(0, 0, 1, 1), (0, 1 to 2, axon)>", "only the memory stage spans phases"),
        ("#st.coord<(0, 0, 1), (0, 1, axon)>", "a space coordinate has 4 parts (chip y, chip x, core y, core x)"),
        ("#st.route<from 1, 8 bytes, [(0, 0, 1)]>", "a route passes at least one core, each given by 4 coordinates"),
    ],
)
def test_a_broken_attribute_fails_alike_in_one_match_and_token_by_token(text: str, message: str):
    for spelling in (text, respaced(text)):
        for parser_type in (Parser, StcParser):
            with pytest.raises((ParseError, VerifyException), match=re.escape(message)):
                attribute(spelling, parser_type)


ROUTE = "st.routes = [#st.route<from 0, 64 bytes, [(0, 0, 0, 0), (0, 0, 0, 1)]>]"
AT = "st.coord = #st.coord<(0, 0, 0, 1), "
MAPPED = f"""task.graph @g {{
  %0 = task.input 0 "x" : tensor<1x4x4x8xi8> {{st.coord = #st.coord<(0, 0, 0, 0), (0, 0, router_recv)>}}
  %1 = task.buffer 1 si %0[0:1, 0:2, 0:4, 0:8] : tensor<1x2x4x8xi8> {{{AT}(0, 0 to 1, memory)>, {ROUTE}}}
  %2 = task.relu 2 %1 : tensor<1x2x4x8xi8> {{{AT}(0, 1, soma1)>}}
  %3 = task.buffer 3 si %0[0:1, 2:4, 0:4, 0:8] : tensor<1x2x4x8xi8> {{{AT}(0, 0 to 1, memory)>, {ROUTE}}}
  %4 = task.relu 4 %3 : tensor<1x2x4x8xi8> {{{AT}(0, 1, soma1)>}}
  %5 = task.buffer 5 so %2, %4[0:1, 0:2, 0:4, 0:8] at [0, 2, 0, 0] : tensor<1x4x4x8xi8> {{{AT}(0, 1 to 2, memory)>}}
  task.output 6 "y" %5 {{{AT}(0, 2, router_send)>}}
}}
"""


def test_a_mapped_module_reads_the_same_with_each_parser_and_prints_as_written():
    fast = parse_source(stc_context(), MAPPED.encode(), "mapped")
    slow = Parser(stc_context(), respaced(MAPPED).replace("// a comment\n", "")).parse_module()
    fast.verify()
    assert fast.is_structurally_equivalent(slow)
    assert (
        module_text(fast)
        == "builtin.module {\n" + "\n".join("  " + line if line else line for line in MAPPED.splitlines()) + "\n}\n"
    )


@pytest.mark.parametrize("collecting", [True, False])
@pytest.mark.parametrize("text", ["task.graph @g {\n}\n", "task.graph @g {\n  %x = task.input\n}\n"])
def test_reading_leaves_the_garbage_collector_as_it_found_it(collecting: bool, text: str):
    """The collector is paused while a file is read, and resumed (or left off) after it,
    whether the file parses or not."""
    (gc.enable if collecting else gc.disable)()
    try:
        parse_source(stc_context(), text.encode(), "t.mlir")
    except ParseError:
        assert "task.input\n" in text
    finally:
        assert gc.isenabled() == collecting
        gc.enable()
