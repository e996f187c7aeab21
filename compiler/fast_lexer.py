"""
xDSL's MLIR lexer with the tokens stc's IR is mostly made of read in one regex match.

xDSL 0.74 lexes a token in some ten Python calls (skip whitespace, read a character,
branch on it, match the rest, build the span): a mapped ResNet-50 is 84,000 tokens and
lexing was a third of reading it. `FastLexer.lex` matches the whitespace and comments
before a token and the token itself in one pattern, for the kinds that make up most of
stc's text, each exactly as upstream lexes it:

- punctuation `: , ( ) [ ] < > = { } + * ? | / -` and `->` (`{-#` is left to upstream);
- bare identifiers starting with an ASCII letter or `_` (`task.conv`, `stride`);
- `%` and `#` identifiers (`%12`, `%b3`, `#st.coord`);
- decimal integers not followed by a digit, `.` (a float) or `x` and a hex digit (`0x1f`,
  and `4x4` in a shape, which upstream lexes as `4` and then `x4`).

Anything else (strings, floats, `!` and `^` identifiers, non-ASCII text, the end of the
input, an error) goes to upstream's `lex` from the same position, so the token stream is
upstream's, token by token (tests/unit/test_fast_lexer.py compares them on every lit
test and on drawn text).

```python
parser = StcParser(ctx, text, name)   # lexes with FastLexer
```
"""

from __future__ import annotations

import re

from xdsl.utils.lexer import Span, Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

PUNCTUATION: dict[str, MLIRTokenKind] = {
    ":": MLIRTokenKind.COLON,
    ",": MLIRTokenKind.COMMA,
    "(": MLIRTokenKind.L_PAREN,
    ")": MLIRTokenKind.R_PAREN,
    "{": MLIRTokenKind.L_BRACE,
    "}": MLIRTokenKind.R_BRACE,
    "[": MLIRTokenKind.L_SQUARE,
    "]": MLIRTokenKind.R_SQUARE,
    "<": MLIRTokenKind.LESS,
    ">": MLIRTokenKind.GREATER,
    "=": MLIRTokenKind.EQUAL,
    "+": MLIRTokenKind.PLUS,
    "/": MLIRTokenKind.SLASH,
    "*": MLIRTokenKind.STAR,
    "?": MLIRTokenKind.QUESTION,
    "|": MLIRTokenKind.VERTICAL_BAR,
    "-": MLIRTokenKind.MINUS,
    "->": MLIRTokenKind.ARROW,
}

KINDS: dict[str, MLIRTokenKind] = {
    "bare": MLIRTokenKind.BARE_IDENT,
    "percent": MLIRTokenKind.PERCENT_IDENT,
    "hash": MLIRTokenKind.HASH_IDENT,
    "integer": MLIRTokenKind.INTEGER_LIT,
}

COMMON_TOKEN = re.compile(
    r"(?:\s++|//[^\n]*+)*+"  # whitespace and comments, as upstream's `_whitespace_regex`
    r"(?:"
    r"(?P<punctuation>->|\{(?!-#)|[:,()}\[\]<>=+/*?|-])"
    r"|(?P<bare>[a-zA-Z_][a-zA-Z0-9_$.]*+)"
    r"|(?P<percent>%(?:[0-9]++|[a-zA-Z$._-][a-zA-Z0-9$._-]*+))"
    r"|(?P<hash>\#[a-zA-Z_][a-zA-Z0-9$._-]*+)"
    r"|(?P<integer>[0-9]++)(?![.]|(?<=\b0)x[0-9a-fA-F])"
    r")",
    re.ASCII,
)
"""One common token and the whitespace before it; every quantifier is possessive, so a
text that is none of these fails at once, however long its whitespace."""


class FastLexer(MLIRLexer):
    """xDSL's MLIR lexer, with the common tokens lexed in one match (see the module)."""

    def lex(self) -> Token[MLIRTokenKind]:
        content = self.input.content
        if not isinstance(content, str) or (match := COMMON_TOKEN.match(content, self.pos)) is None:
            return super().lex()
        group = match.lastgroup
        assert group is not None
        start, end = match.span(group)
        self.pos = end
        kind = PUNCTUATION[match[group]] if group == "punctuation" else KINDS[group]
        return Token(kind, Span(start, end, self.input))
