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
- Bounds on what the parser accepts, checked before xDSL computes with it, each a parse
  error at the offending text (docs/tools.md, "Security and limits"). Upstream builds
  `1 << width` to check a value against its integer type (`i99999999999` grows the
  process to gigabytes), turns a literal into an int in one call (a 5,000-digit literal
  exceeds Python's int-to-string limit and raises ValueError), expands a splat dense
  literal to every element of its type (`dense<1> : tensor<10000000000xi8>`), fails while
  printing a dense literal whose elements it cannot pack (`array<i128: 1>`), and
  recurses once per nesting level (200 nested modules raise RecursionError):
  - an integer type is at most MAX_INTEGER_WIDTH bits wide (MLIR's limit);
  - an integer literal has at most MAX_LITERAL_DIGITS digits;
  - the elements of a dense literal (`dense<...>`, `array<...>`) are of a type xDSL can
    pack (integers and floats up to 64 bits) and number at most MAX_DENSE_ELEMENTS;
  - regions, attributes and types nest at most MAX_NESTING_DEPTH deep, counted together.
- A string literal whose escapes spell UTF-8 (`"g\\C3\\BCn"`, as xDSL's printer writes
  `"gün"`) is a string, as the lexer's docstring says, not bytes: upstream makes it bytes
  unless it is ASCII, so any printed non-ASCII string attribute failed to parse back.
- A parse error's excerpt shows at most MAX_EXCERPT_COLUMNS characters of each line, around
  the error: upstream prints the whole line and as many spaces before the carets and the
  message, so an error in a 20,000-character line was a 60,000-character message.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import xdsl
from xdsl.dialects.builtin import AnyFloat, ComplexType, IntegerType
from xdsl.ir import Attribute
from xdsl.parser import AttrParser, Parser
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Span, Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

UPSTREAM_STRING_LITERAL = r'"(?:[^"\\\n\v\f]+|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"'
UNROLLED_STRING_LITERAL = r'"[^"\\\n\v\f]*+(?:\\(?:["nt\\]|[0-9A-Fa-f]{2})[^"\\\n\v\f]*+)*+"'


def fix_string_literal_backtracking() -> None:
    if MLIRLexer._unescaped_characters_regex.pattern == UPSTREAM_STRING_LITERAL:  # pyright: ignore[reportPrivateUsage]
        MLIRLexer._unescaped_characters_regex = re.compile(UNROLLED_STRING_LITERAL)  # pyright: ignore[reportPrivateUsage]


MAX_INTEGER_WIDTH = 16_777_215
"""The widest integer type, in bits: MLIR's `IntegerType::kMaxWidth`."""

MAX_LITERAL_DIGITS = 1000
"""The most digits of an integer literal (decimal or hexadecimal), far below Python's
int-to-string limit (4300 digits) so that any parsed value can be printed."""

MAX_DENSE_ELEMENTS = 1 << 20
"""The most elements of a dense literal (1,048,576): xDSL builds a list of them and packs
it, about 1 µs per element, so this bounds a literal to about a second and 16 MB. Larger
data belongs in an `.npz` archive."""

MAX_NESTING_DEPTH = 64
"""The deepest nesting of regions, attributes and types, counted together. Each level
takes about 8 Python frames to parse, print or verify: 64 levels stay well inside
Python's default recursion limit (1000) in every pass."""

MAX_EXCERPT_COLUMNS = 120
"""The most characters of a source line a parse error's excerpt shows; a longer line is
cut to a window around the error, with `...` where it was cut."""

UPSTREAM_VERSION = "0.74.0"

Method = TypeVar("Method", bound=Callable[..., Any])


def shown(digits: str) -> str:
    """Digits as a message shows them: whole, or the first ones and how many there are."""
    return digits if len(digits) <= 20 else f"{digits[:12]}... ({len(digits)} digits)"


def bounded_int_value(get_int_value: Method) -> Method:
    @functools.wraps(get_int_value)
    def int_value(self: MLIRTokenKind, span: Span) -> int:
        digits = span.text[2:] if span.text[:2] in ("0x", "0X") else span.text
        if self == MLIRTokenKind.INTEGER_LIT and len(digits) > MAX_LITERAL_DIGITS:
            raise ParseError(span, f"integer literal of {len(digits)} digits; at most {MAX_LITERAL_DIGITS} are allowed")
        return get_int_value(self, span)

    return int_value  # pyright: ignore[reportReturnType]


def bounded_integer_width(parse_type: Method) -> Method:
    @functools.wraps(parse_type)
    def parse_optional_integer_or_float_type(self: AttrParser) -> Attribute | None:
        token = self._current_token  # pyright: ignore[reportPrivateUsage]
        if token.kind == MLIRTokenKind.BARE_IDENT and (
            match := self._builtin_integer_type_regex.match(token.text)  # pyright: ignore[reportPrivateUsage]
        ):
            width = match.group(1)
            if len(width) > len(str(MAX_INTEGER_WIDTH)) or int(width) > MAX_INTEGER_WIDTH:
                self.raise_error(f"integer type of {shown(width)} bits; at most {MAX_INTEGER_WIDTH} are allowed")
        return parse_type(self)

    return parse_optional_integer_or_float_type  # pyright: ignore[reportReturnType]


def is_packable(type: Attribute) -> bool:
    """Whether xDSL can store dense elements of `type` (its `format` property raises
    NotImplementedError for i65 and wider, f80 and f128)."""
    element = type.element_type if isinstance(type, ComplexType) else type
    try:
        getattr(element, "format", None)
    except NotImplementedError:
        return False
    return True


def check_dense_elements(parser: AttrParser, type: Attribute, count: int, start: int, end: int) -> None:
    """Refuse dense elements xDSL cannot pack, or too many of them, at the type's text."""
    if not is_packable(type):
        parser.raise_error(f"dense literal of {type}: xDSL stores integers and floats up to 64 bits only", start, end)
    if count > MAX_DENSE_ELEMENTS:
        parser.raise_error(f"dense literal of {count} elements; at most {MAX_DENSE_ELEMENTS} are allowed", start, end)


def bounded_dense_literal_type(parse_type: Method) -> Method:
    @functools.wraps(parse_type)
    def parse_dense_literal_type(self: AttrParser) -> Attribute:
        start = self.pos
        type = parse_type(self)
        check_dense_elements(self, type.element_type, math.prod(type.get_shape()), start, self.pos)
        return type

    return parse_dense_literal_type  # pyright: ignore[reportReturnType]


def bounded_dense_array(parse_array: Method) -> Method:
    @functools.wraps(parse_array)
    def parse_densearray(self: AttrParser) -> Attribute | None:
        start = self.pos
        self.parse_characters("<", " in dense array")
        type_start = self.pos
        element_type = self.parse_attribute()
        if isinstance(element_type, IntegerType | AnyFloat):
            check_dense_elements(self, element_type, 0, type_start, self.pos)
        self._resume_from(start)  # pyright: ignore[reportPrivateUsage]
        return parse_array(self)

    return parse_densearray  # pyright: ignore[reportReturnType]


def bounded_nesting(parse: Method) -> Method:
    @functools.wraps(parse)
    def nested(self: AttrParser, *args: Any, **kwargs: Any) -> Any:
        depth = self.__dict__.get("nesting_depth", 0)
        if depth >= MAX_NESTING_DEPTH:
            self.raise_error(f"nested more than {MAX_NESTING_DEPTH} deep (regions, attributes and types together)")
        self.__dict__["nesting_depth"] = depth + 1
        try:
            return parse(self, *args, **kwargs)
        finally:
            self.__dict__["nesting_depth"] = depth

    return nested  # pyright: ignore[reportReturnType]


def utf8_string_literal(lex: Method) -> Method:
    @functools.wraps(lex)
    def lex_string_literal(self: MLIRLexer, start_pos: int) -> Token[MLIRTokenKind]:
        token = lex(self, start_pos)
        if token.kind != MLIRTokenKind.BYTES_LIT:
            return token
        try:
            token.span.bytes_contents.decode()  # pyright: ignore[reportAttributeAccessIssue]
        except UnicodeDecodeError:
            return token
        return Token(MLIRTokenKind.STRING_LIT, token.span)

    return lex_string_literal  # pyright: ignore[reportReturnType]


def clip_line(line: str, first: int, last: int) -> tuple[str, int, int]:
    """A line cut to MAX_EXCERPT_COLUMNS characters around columns `first` to `last`
    (the carets), and those columns in the cut line."""
    if len(line) <= MAX_EXCERPT_COLUMNS:
        return line, first, last
    start = max(0, min(first - MAX_EXCERPT_COLUMNS // 3, len(line) - MAX_EXCERPT_COLUMNS))
    end = start + MAX_EXCERPT_COLUMNS
    before = "..." if start > 0 else ""
    after = "..." if end < len(line) else ""
    shift = len(before) - start
    return before + line[start:end] + after, first + shift, min(last, end) + shift


def clipped_excerpt(print_with_context: Method) -> Method:
    @functools.wraps(print_with_context)
    def print_clipped(self: Span, msg: str | None = None) -> str:
        context_start = self.input.get_start_of_line(self.start)
        context_end = self.input.get_end_of_line(max(self.start, self.end - 1))
        context = self.input.content[context_start:context_end]
        if isinstance(context, bytes) or context_end - context_start <= MAX_EXCERPT_COLUMNS:
            return print_with_context(self, msg)
        start, end = self.start - context_start, self.end - context_start
        lines = [str(self.get_location())]
        offset = 0
        for line in context.split("\n"):
            shown_line = line.removesuffix("\r")
            first = min(max(start - offset, 0), len(shown_line))
            last = min(max(end - offset, 0), len(shown_line))
            shown_line, first, last = clip_line(shown_line, first, last)
            lines += [shown_line, " " * first + "^" * max(last - first, 1)]
            if msg is not None:
                lines.append(" " * first + msg)
                msg = None
            offset += len(line) + 1
        return "\n".join(lines) + "\n"

    return print_clipped  # pyright: ignore[reportReturnType]


WRAPPED: list[tuple[Any, str, Callable[[Any], Any]]] = [
    (MLIRTokenKind, "get_int_value", bounded_int_value),
    (AttrParser, "_parse_optional_integer_or_float_type", bounded_integer_width),
    (AttrParser, "_parse_dense_literal_type", bounded_dense_literal_type),
    (AttrParser, "_parse_builtin_densearray_attr", bounded_dense_array),
    (AttrParser, "parse_optional_attribute", bounded_nesting),
    (AttrParser, "parse_optional_type", bounded_nesting),
    (Parser, "parse_optional_region", bounded_nesting),
    (MLIRLexer, "_lex_string_literal", utf8_string_literal),
    (Span, "print_with_context", clipped_excerpt),
]
"""The upstream methods wrapped, each with its fix."""


def is_upstream_version() -> bool:
    """Whether the installed xDSL is the one these fixes were written against (its
    distribution's metadata folder: `xdsl.__version__` takes 0.2 s to compute)."""
    return (Path(xdsl.__file__).parent.parent / f"xdsl-{UPSTREAM_VERSION}.dist-info").is_dir()


def fix_parsing() -> None:
    if not is_upstream_version() or getattr(AttrParser, "stc_fixed", False):
        return
    for owner, name, fix in WRAPPED:
        setattr(owner, name, fix(owner.__dict__[name]))
    AttrParser.stc_fixed = True  # pyright: ignore[reportAttributeAccessIssue]


fix_string_literal_backtracking()
fix_parsing()
