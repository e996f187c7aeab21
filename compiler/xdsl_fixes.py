"""
Fixes of the pinned xDSL (0.74.0) that stc's tools cannot do without, applied once when
stc's registry is imported (so plain `xdsl-opt` gets them too). Each one replaces exactly
the upstream object it names and leaves any other version alone.

- The MLIR lexer's string-literal pattern `"(?:[^"\\\\\\n\\v\\f]+|...)*"` nests a `+` in a `*`:
  an unterminated string makes the regex engine try every way of splitting the rest of
  the line, 2^n for n characters, so a typo such as `"image : tensor<1x16x16x3xi8>`
  hangs the parser. Without the inner `+` the two alternatives are disjoint (one
  excludes the backslash, the other starts with it): the same strings match, in linear
  time.
"""

from __future__ import annotations

import re

from xdsl.utils.mlir_lexer import MLIRLexer

BACKTRACKING_STRING_LITERAL = r'"(?:[^"\\\n\v\f]+|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"'
LINEAR_STRING_LITERAL = r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"'


def fix_string_literal_backtracking() -> None:
    if MLIRLexer._unescaped_characters_regex.pattern == BACKTRACKING_STRING_LITERAL:  # pyright: ignore[reportPrivateUsage]
        MLIRLexer._unescaped_characters_regex = re.compile(LINEAR_STRING_LITERAL)  # pyright: ignore[reportPrivateUsage]


fix_string_literal_backtracking()
