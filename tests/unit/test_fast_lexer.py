"""Tests for compiler/fast_lexer.py: FastLexer's tokens are upstream's, token by token,
on every lit test, on stc's printed IR and on drawn text."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from stc.compiler.fast_lexer import FastLexer
from stc.compiler.ir_files import module_text
from stc.compiler.zoo import build_network

LIT = Path(__file__).parent.parent / "lit"


def tokens(lexer_type: type[MLIRLexer], text: str) -> list[tuple[object, ...]]:
    """(kind, start, end) of every token up to the end of `text`, or the first error."""
    lexer = lexer_type(Input(text, "t"))
    found: list[tuple[object, ...]] = []
    while True:
        try:
            token = lexer.lex()
        except ParseError as error:
            return [*found, ("error", str(error))]
        found.append((token.kind, token.span.start, token.span.end))
        if token.kind == MLIRTokenKind.EOF:
            return found


@pytest.mark.parametrize("path", sorted(LIT.glob("[!x]*/*.mlir")), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_lit_test_lexes_as_upstream_lexes_it(path: Path):
    text = path.read_text()
    assert tokens(FastLexer, text) == tokens(MLIRLexer, text)


def test_a_printed_network_lexes_as_upstream_lexes_it():
    text = module_text(build_network("tiny"))
    assert tokens(FastLexer, text) == tokens(MLIRLexer, text)


PIECES = [
    " ", "\n", "\t", "// c\n", "/", "-", "->", "{", "{-#", "#-}", "}", "(", ")", "[", "]", "<", ">", ":", ",", "=",
    "+", "*", "?", "|", ".", "...", "0", "7", "10", "0x", "0x1f", "00x4", "4x4", "1.5", "1.", "1e5", "2.0e-3",
    "%", "%0", "%12ab", "%a.b", "%-x", "#", "#st.coord", "#-", "#1", "!", "!t", "^bb0", "@", "@f", '@"s"',
    '"s"', '"a\\"b"', '"\\C3\\BC"', '"open', "abc", "_x", "a$b.c", "é", "٣", "x0x5", "i8", "tensor",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(hs.lists(hs.sampled_from(PIECES), max_size=30))
def test_drawn_text_lexes_as_upstream_lexes_it(pieces: list[str]):
    text = "".join(pieces)
    assert tokens(FastLexer, text) == tokens(MLIRLexer, text)
