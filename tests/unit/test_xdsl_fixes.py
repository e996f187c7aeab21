"""Regressions for the fixes stc applies to the pinned xDSL."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import fuzz_examples, limited_memory
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Input, Span
from xdsl.utils.mlir_lexer import MLIRLexer

from stc.compiler.ir_files import module_text, stc_context
from stc.compiler.xdsl_fixes import (
    MAX_DENSE_ELEMENTS,
    MAX_EXCERPT_COLUMNS,
    MAX_INTEGER_WIDTH,
    MAX_LITERAL_DIGITS,
    MAX_NESTING_DEPTH,
    UNROLLED_STRING_LITERAL,
    UPSTREAM_STRING_LITERAL,
)
from stc.tools.stc_opt import main as stc_opt
from stc.tools.stc_run import cli as stc_run

UPSTREAM = re.compile(UPSTREAM_STRING_LITERAL)
UNROLLED = re.compile(UNROLLED_STRING_LITERAL)

# Every kind of character the patterns tell apart: quotes, backslashes, the escape
# letters, hex digits and not, the excluded line breaks, other whitespace, non-ASCII.
LEXER_TEXT = st.text(alphabet='"\\ntaF09gx\n\v\f\r é', max_size=14)


def test_an_unterminated_string_fails_fast_instead_of_hanging(tmp_path: Path):
    source = 'task.graph @g {\n  %x = task.input 0 "image : tensor<1x16x16x3xi8> with a long tail of text after it\n}\n'
    path = tmp_path / "typo.mlir"
    path.write_text(source)
    stc_opt = Path(sys.executable).parent / "stc-opt"
    result = subprocess.run([stc_opt, path], capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert "End of file reached before closing string literal." in result.stderr


@pytest.mark.parametrize("literal", ['""', '"plain"', r'"tab\tquote\"backslash\\hex\41"', '"π unicode"'])
def test_string_literals_still_parse(literal):
    ctx = stc_context()
    ctx.allow_unregistered = True
    op = Parser(ctx, f'"test.op"() {{s = {literal}}} : () -> ()').parse_module().body.block.first_op
    assert op is not None
    assert "s" in op.attributes


def test_a_bad_escape_is_still_an_error():
    ctx = stc_context()
    ctx.allow_unregistered = True
    with pytest.raises(ParseError):
        Parser(ctx, r'"test.op"() {s = "bad \q escape"} : () -> ()').parse_module()


@settings(max_examples=fuzz_examples(1000), deadline=None)
@given(text=LEXER_TEXT, quoted=st.booleans(), pos=st.integers(0, 3))
@example(text="", quoted=True, pos=0)
@example(text=r'a\"b\\c\4Fd\ne\tf"g', quoted=True, pos=0)
@example(text=r"a\qb\4", quoted=True, pos=0)
def test_the_unrolled_pattern_matches_exactly_what_upstreams_matches(text: str, quoted: bool, pos: int):
    source = '"' + text if quoted else text
    expected = UPSTREAM.match(source, pos)
    actual = UNROLLED.match(source, pos)
    assert (actual and actual.span()) == (expected and expected.span())


@pytest.mark.parametrize("module", ["stc.dialects", "stc.passes.task_split", "stc.tools.universe"])
def test_the_unrolled_pattern_is_installed_by_any_use_of_stc(module: str):
    lexer = "from xdsl.utils.mlir_lexer import MLIRLexer"
    code = f"import {module}; {lexer}; print(MLIRLexer._unescaped_characters_regex.pattern)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == UNROLLED_STRING_LITERAL


def test_the_pattern_replaced_is_the_installed_xdsls():
    assert MLIRLexer._unescaped_characters_regex.pattern == UNROLLED_STRING_LITERAL
    assert UPSTREAM_STRING_LITERAL in Path(sys.modules[MLIRLexer.__module__].__file__).read_text()


# Class 1 and 2 of hostile input: what the parser accepts is bounded before xDSL computes
# with it. Each bomb is drawn at random past its bound and must end, in both tools, in
# one parse error at its position that names the bound; each just within it still parses.
def carried(attribute: str) -> str:
    """An attribute on a module, which both tools parse (stc-run takes no unregistered op)."""
    return f"builtin.module attributes {{v = {attribute}}} {{}}"


def width_bomb(width: int) -> str:
    return carried(f"array<i{width}: 1>")


def literal_bomb(digits: int, hex_literal: bool) -> str:
    literal = "0x" + "f" * digits if hex_literal else "1" * digits
    return carried(f"{literal} : i64")


def dense_bomb(count: int) -> str:
    return carried(f"dense<1> : tensor<{count}xi8>")


def unpackable_bomb(element: str) -> str:
    return carried(f"array<{element}: 1>")


def nesting_bomb(kind: str, depth: int) -> str:
    if kind == "module":
        return "builtin.module {" * depth + "}" * depth
    if kind == "array":
        return carried("[" * depth + "]" * depth)
    return carried("tensor<1x" * depth + "i8" + ">" * depth)


BOMBS = st.one_of(
    st.builds(width_bomb, st.integers(MAX_INTEGER_WIDTH + 1, 10**30)).map(lambda s: (s, "integer type of")),
    st.builds(literal_bomb, st.integers(MAX_LITERAL_DIGITS + 1, 200_000), st.booleans()).map(
        lambda s: (s, "digits; at most 1000 are allowed")
    ),
    st.builds(dense_bomb, st.integers(MAX_DENSE_ELEMENTS + 1, 10**40)).map(lambda s: (s, "elements; at most")),
    st.builds(unpackable_bomb, st.sampled_from(["i65", "i128", "si99", "ui16777215", "f80", "f128"])).map(
        lambda s: (s, "xDSL stores integers and floats up to 64 bits only")
    ),
    st.builds(
        nesting_bomb, st.sampled_from(["module", "array", "type"]), st.integers(MAX_NESTING_DEPTH + 1, 20_000)
    ).map(lambda s: (s, f"nested more than {MAX_NESTING_DEPTH} deep")),
)


@settings(max_examples=fuzz_examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(bomb=BOMBS)
def test_ir_past_a_bound_is_one_parse_error_in_both_tools(bomb, tmp_path, capsys):
    source, message = bomb
    path = tmp_path / "bomb.mlir"
    path.write_text(source)
    with pytest.raises(SystemExit) as exit:
        stc_opt([str(path)])
    assert exit.value.code == 1
    err = capsys.readouterr().err
    assert err.startswith(f"stc-opt: error: {path}:1:")
    assert message in err
    assert "Traceback" not in err
    result = CliRunner().invoke(stc_run, [str(path)])
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)
    assert result.output.startswith(f"stc-run: error: {path}:1:")
    assert message in result.output


@pytest.mark.parametrize(
    "source",
    [
        carried(f"1 : i{MAX_INTEGER_WIDTH}"),
        literal_bomb(MAX_LITERAL_DIGITS, hex_literal=False).replace("i64", f"i{4 * MAX_LITERAL_DIGITS}"),
        literal_bomb(MAX_LITERAL_DIGITS // 2, hex_literal=True).replace("i64", f"ui{2 * MAX_LITERAL_DIGITS}"),
        dense_bomb(4096),
        unpackable_bomb("i64"),
        carried("array<f64: 1.0>"),
        nesting_bomb("module", MAX_NESTING_DEPTH),
        nesting_bomb("array", MAX_NESTING_DEPTH - 1),
        nesting_bomb("type", MAX_NESTING_DEPTH - 2),
    ],
)
def test_ir_within_the_bounds_round_trips(source: str):
    ctx = stc_context()
    ctx.allow_unregistered = True
    module = Parser(ctx, source).parse_module()
    text = module_text(module)
    assert module_text(Parser(ctx, text).parse_module()) == text


@pytest.mark.parametrize(
    "source",
    [width_bomb(99999999999), width_bomb(2**64), dense_bomb(10**10), nesting_bomb("module", 200)],
    ids=["i99999999999", "i2^64", "dense-1e10", "modules-200"],
)
def test_bombs_end_in_exit_1_within_seconds_under_a_memory_limit(source: str, tmp_path: Path):
    path = tmp_path / "bomb.mlir"
    path.write_text(source)
    stc_opt_bin = Path(sys.executable).parent / "stc-opt"
    result = subprocess.run([stc_opt_bin, path], capture_output=True, text=True, timeout=60, preexec_fn=limited_memory)
    assert result.returncode == 1, result.stderr
    assert result.stderr.startswith("stc-opt: error: ")
    assert "Traceback" not in result.stderr


@settings(max_examples=fuzz_examples(60), deadline=None)
@given(
    lines=st.lists(st.integers(0, 3 * MAX_EXCERPT_COLUMNS), min_size=1, max_size=3),
    where=st.tuples(st.floats(0, 1), st.floats(0, 1)),
)
def test_an_excerpt_shows_the_error_within_a_bounded_width(lines: list[int], where: tuple[float, float]):
    """Any span over lines of any length: each line shown is at most MAX_EXCERPT_COLUMNS
    (and two `...`) wide, and the carets under it point at the span's own characters."""
    unique = iter(chr(0x4E00 + i) for i in range(sum(lines)))  # so a caret off by any count points elsewhere
    text = "\n".join("".join(next(unique) for _ in range(length)) for length in lines)
    first, last = sorted(round(fraction * len(text)) for fraction in where)
    span = Span(first, max(last, first), Input(text, "t.mlir"))
    shown = span.print_with_context("here").splitlines()
    assert shown[0] == str(span.get_location())
    assert all(len(line) <= MAX_EXCERPT_COLUMNS + 6 for line in shown[1:] if line.strip() != "here")
    source, carets = shown[1], shown[2]
    column = len(carets) - len(carets.lstrip())
    if first < len(text) and text[first] != "\n":
        assert source[column] == text[first]
    assert shown[3] == " " * column + "here"
