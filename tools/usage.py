"""
How stc's click tools end a usage error: as argparse (and so xdsl-opt and stc-opt) does,

    usage: stc-run [OPTIONS] FILE
    stc-run: error: Invalid value for '--seed': 'abc' is not a valid integer.

on stderr with exit code 2. A usage error is a command line that does not parse: an
unknown option, a missing argument, or a value not of its option's type or range. What
the tool reads and rejects (files, IR, data, a `-p` pipeline) is exit code 1.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click


def run_command(command: click.Command, tool: str, args: Sequence[str] | None = None) -> None:
    """Run a click command as `tool`, with usage errors reported as argparse reports them."""
    try:
        status = command.main(args, prog_name=tool, standalone_mode=False)
    except click.UsageError as e:
        usage = e.ctx.get_usage() if e.ctx is not None else f"Usage: {tool} [OPTIONS]"
        print(f"usage:{usage.removeprefix('Usage:')}", file=sys.stderr)
        print(f"{tool}: error: {e.format_message()}", file=sys.stderr)
        sys.exit(2)
    except click.Abort:
        print(f"{tool}: error: aborted", file=sys.stderr)
        sys.exit(1)
    sys.exit(status if isinstance(status, int) else 0)


def at_least(low: int) -> click.IntRange:
    """An integer option's type with a lower bound; a value of another type is reported
    as "not a valid integer" (click's IntRange says "integer range")."""
    integer = click.IntRange(min=low)
    integer.name = "integer"
    return integer
