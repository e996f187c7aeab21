"""Regressions for the fixes stc applies to the pinned xDSL."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError
from xdsl.utils.mlir_lexer import MLIRLexer

from stc.compiler.ir_files import stc_context
from stc.compiler.xdsl_fixes import UNROLLED_STRING_LITERAL, UPSTREAM_STRING_LITERAL

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


@settings(max_examples=1000, deadline=None)
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
