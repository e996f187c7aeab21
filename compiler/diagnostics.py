"""How stc's tools report bad input: one paragraph, no traceback, exit code 1."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from xdsl.utils.exceptions import DiagnosticException, ParseError


class StcError(Exception):
    """An error in what the user gave us (IR, options, data), with a message that says
    which op or option, which rule and which numbers."""


@contextmanager
def reported_errors(tool: str, exit: Callable[[int], None] = sys.exit) -> Iterator[None]:
    """
    Turn user errors raised inside the block into `TOOL: error: MESSAGE` on stderr and
    exit code 1. Parse errors keep their source excerpt; verifier errors drop xDSL's
    dump of the whole module, whose first line already names the op.
    """
    try:
        yield
    except ParseError as e:
        print(f"{tool}: error: {e}", file=sys.stderr)
        exit(1)
    except (DiagnosticException, StcError) as e:
        print(f"{tool}: error: {first_paragraph(e)}", file=sys.stderr)
        exit(1)
    except OSError as e:
        print(f"{tool}: error: {e.strerror}: {e.filename}", file=sys.stderr)
        exit(1)


def first_paragraph(error: BaseException) -> str:
    return str(error).strip().split("\n\n")[0]
