"""Regressions for the fixes stc applies to the pinned xDSL."""

import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError

from stc.compiler.ir_files import stc_context


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
