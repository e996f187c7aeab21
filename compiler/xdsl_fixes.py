"""
Fixes of the pinned xDSL (0.74.0) that stc's tools cannot do without, applied once when
`stc.dialects` is imported: by stc-opt, by a plain `xdsl-opt` that loads stc's universe,
and by any flow that uses stc's dialects or passes. Each one replaces exactly the
upstream object it names, matches what upstream matches, and leaves any other version
alone.

- The MLIR lexer's string-literal pattern `"(?:[^"\\\\\\n\\v\\f]+|...)*"` nests a `+` in a `*`:
  an unterminated string makes the regex engine try every way of splitting the rest of
  the line, 2^n for n characters, so a typo such as `"image : tensor<1x16x16x3xi8>`
  hangs the parser. Its unrolled form, `"N*+(?:EN*+)*+"` for the normal characters N
  and the escapes E, matches the same strings: a string splits into runs and escapes in
  one way only (N excludes the backslash that starts E and the closing quote), so the
  quantifiers can be possessive, which keeps no state to backtrack into. A run of
  normal characters is one loop, as upstream's, and an unterminated string fails at its
  end at once; it is never slower than upstream's, 5x faster on escapes, and holds no
  memory per character or escape (tests/unit/test_xdsl_fixes.py,
  `python -m stc.tools.bench_lexer`).
"""

from __future__ import annotations

import re

from xdsl.utils.mlir_lexer import MLIRLexer

UPSTREAM_STRING_LITERAL = r'"(?:[^"\\\n\v\f]+|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"'
UNROLLED_STRING_LITERAL = r'"[^"\\\n\v\f]*+(?:\\(?:["nt\\]|[0-9A-Fa-f]{2})[^"\\\n\v\f]*+)*+"'


def fix_string_literal_backtracking() -> None:
    if MLIRLexer._unescaped_characters_regex.pattern == UPSTREAM_STRING_LITERAL:  # pyright: ignore[reportPrivateUsage]
        MLIRLexer._unescaped_characters_regex = re.compile(UNROLLED_STRING_LITERAL)  # pyright: ignore[reportPrivateUsage]


fix_string_literal_backtracking()
