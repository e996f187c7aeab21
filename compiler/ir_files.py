"""Reading and writing stc IR files with every stc dialect available."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, Operation
from xdsl.parser import Parser
from xdsl.parser.generic_parser import ParserState
from xdsl.utils.exceptions import DiagnosticException, VerifyException
from xdsl.utils.lexer import Position, Span
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

import stc.compiler.xdsl_fixes  # noqa: F401  (applied on import)
from stc.compiler.diagnostics import StcError, first_paragraph
from stc.compiler.fast_lexer import FastLexer
from stc.compiler.files import read_file
from stc.compiler.heap import collection_paused
from stc.compiler.op_lines import OpLines, link_at_end
from stc.dialects import get_all_dialects, stc_context


class AttributeValueError(VerifyException):
    """A value an attribute rejected while its op was parsed, shown at that op."""


class StcParser(Parser):
    """
    xDSL's parser, except that a value an attribute rejects while an op of stc's dialects
    is built (an integer out of its type's range, as in `dense<300> : tensor<1xi8>` or a
    task id beyond i64) is a verifier error that underlines the op's text, instead of a
    bare exception without position. Ops of other dialects fail as they do in xDSL.
    `line_offset` counts the lines before this chunk of the file.
    """

    def __init__(self, ctx: Context, text: str, name: str, line_offset: int = 0):
        super().__init__(ctx, text, name)
        self._parser_state = ParserState(FastLexer(self.lexer.input))
        self.line_offset = line_offset
        self.op_lines = OpLines(self)
        self.attributes_read = self.op_lines.attributes

    def parse_optional_attribute(self) -> Attribute | None:
        """
        An attribute; one that a module repeats thousands of times (`#st.coord`, one per
        block of a mapped graph, a few hundred distinct), spelled as stc prints it, is
        parsed and verified once per spelling and then looked up by its text.
        """
        token = self._current_token
        if token.kind != MLIRTokenKind.HASH_IDENT or token.text != "#st.coord":
            return super().parse_optional_attribute()
        from stc.compiler.spelling import COORD_PARAMETERS

        spelled = COORD_PARAMETERS.match(self.lexer.input.content, token.span.end)
        if spelled is None:
            return super().parse_optional_attribute()
        key = token.text + spelled[0]
        if (attr := self.attributes_read.get(key)) is None:
            attr = super().parse_optional_attribute()
            assert attr is not None
            self.attributes_read[key] = attr
        else:
            self._resume_from(spelled.end())
        return attr

    def parse_optional_attr_dict(self) -> dict[str, Attribute]:
        """
        An op's attributes; those of a mapped block (its coordinate, then its routes), as
        stc prints them, are read in one match.
        """
        content = self.lexer.input.content
        if not isinstance(content, str) or not content.startswith("{st.coord = ", self.pos):
            return super().parse_optional_attr_dict()
        from stc.compiler.op_lines.st import mapping_attributes

        if (mapping := mapping_attributes(self.attributes_read, content, self.pos)) is None:
            return super().parse_optional_attr_dict()
        attributes, end = mapping
        self._resume_from(end)
        return attributes

    def _parse_block_body(self, block: Block) -> None:
        """A block's ops: each run of ops read whole (`OpLines.read_run`) linked at once,
        any other op by xDSL's parser."""
        while True:
            if ops := self.op_lines.read_run():
                link_at_end(block, ops)
            if (op := self.parse_optional_operation()) is None:
                return
            block.add_op(op)

    def parse_operation(self) -> Operation:
        """An op: read whole when it is spelled as stc prints it (`stc.compiler.op_lines`),
        else by xDSL's parser, whose errors in stc's ops underline the op."""
        if (op := self.op_lines.read()) is not None:
            return op
        start = self.pos
        try:
            return super().parse_operation()
        except AttributeValueError:
            raise
        except (ValueError, VerifyException) as e:
            # xDSL pushes the dialect of each op it parses and pops it once the op is
            # built, so after an error the top is the dialect of the innermost op.
            if self._parser_state.dialect_stack[-1] not in get_all_dialects():  # pyright: ignore[reportPrivateUsage]
                raise
            span = Span(start, self.op_text_end(start), self.lexer.input, self.line_offset)
            raise AttributeValueError(span.print_with_context(str(e))) from None

    def op_text_end(self, start: Position) -> Position:
        """
        Where the text of the op that starts at `start` ends: at the last token before
        the parser's lookahead, without the whitespace and comments between them (such
        as the `// CHECK:` lines of a test).
        """
        lexer = MLIRLexer(self.lexer.input)
        lexer.pos = start
        end = start
        while (token := lexer.lex()).span.start < self.pos:
            end = token.span.end
        return end


def decode_source(source: bytes, name: str) -> str:
    """IR text from file bytes; the first byte that is not UTF-8 is an error at its line and column."""
    try:
        return source.decode()
    except UnicodeDecodeError as e:
        line_start = source.rfind(b"\n", 0, e.start) + 1
        line = source.count(b"\n", 0, e.start) + 1
        column = len(source[line_start : e.start].decode()) + 1
        byte = source[e.start]
        raise StcError(f"{name}:{line}:{column}: byte 0x{byte:02x} is not UTF-8 (IR is UTF-8 text)") from None


def parse_source(
    ctx: Context, source: bytes, name: str, implicit_module: bool = True, line_offset: int = 0
) -> ModuleOp:
    """Parse IR file bytes (not verified), with Python's cyclic garbage collector paused."""
    with collection_paused():
        return StcParser(ctx, decode_source(source, name), name, line_offset).parse_module(implicit_module)


def read_module(path: Path, role: str = "") -> ModuleOp:
    """Parse and verify an IR file (with the cyclic collector paused, as while parsing);
    a verifier error names the file."""
    return module_of(path, read_file(path, role))


def module_of(path: Path, source: bytes) -> ModuleOp:
    """Parse and verify the bytes of the IR file `path`, as `read_module` does."""
    with collection_paused():  # from parsing to the end of verifying: no collection walks the new ops
        module = parse_source(stc_context(), source, str(path))
        try:
            module.verify()
        except DiagnosticException as e:
            raise StcError(f"{path}: {first_paragraph(e)}") from None
    return module


def module_text(module: ModuleOp) -> str:
    """The module in custom syntax, as stc-opt prints it (the printer imported only to print)."""
    from stc.compiler.op_lines.printer import LinePrinter

    out = StringIO()
    LinePrinter(stream=out).print_op(module)
    return out.getvalue() + "\n"
