"""How stc's tools report bad input: one paragraph, no traceback, exit code 1."""

from __future__ import annotations

import re
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
    dump of the whole module but keep the name and id of the op it marks.
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
        where = "" if e.filename is None else f": {e.filename}"
        print(f"{tool}: error: {e.strerror or e}{where}", file=sys.stderr)
        exit(1)
    except MemoryError as e:
        print(f"{tool}: error: {str(e) or 'out of memory'}", file=sys.stderr)
        exit(1)


FLAGGED_OP = re.compile(r'^.*?"(?P<name>[\w.]+)"\((?P<rest>.*)\n *\^+-*$', re.MULTILINE)
"""The line of xDSL's module dump that a diagnostic underlines: `%r = "task.relu"(%in) <{...`."""

FLAGGED_OP_ID = re.compile(r"<\{id = (-?\d+) : i64")


def failed_op(error: BaseException) -> str | None:
    """The op a diagnostic's note underlines, by name and id (`task.buffer 1`)."""
    for note in getattr(error, "__notes__", []):
        if flagged := FLAGGED_OP.search(note):
            task_id = FLAGGED_OP_ID.search(flagged["rest"])
            return flagged["name"] if task_id is None else f"{flagged['name']} {task_id[1]}"
    return None


def first_paragraph(error: BaseException) -> str:
    """The error's message without xDSL's dump of the module, led by the op that failed
    when the message does not start with it (IRDL constraint messages do not)."""
    message = str(error).strip().split("\n\n")[0]
    op = failed_op(error)
    if op is None or message.startswith(op.split(" ")[0]):
        return message
    return f"{op}: {message}"
