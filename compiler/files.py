"""Reading the files the tools are given: regular files only, of a bounded size. No xDSL."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import IO

from stc.compiler.diagnostics import StcError

MAX_IR_BYTES = 1 << 28
"""The largest IR file the tools read (256 MiB): xDSL parses some 150 µs per op, so a file
this size already takes many minutes; the bound keeps `/dev/zero` from filling memory."""


def check_regular_file(path: Path, role: str = "") -> None:
    """Raise unless `path` names a regular file (following links); the message starts with
    `role`, the argument that named it (`--input x`), when given."""
    lead = f"{role}: " if role else ""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise StcError(f"{lead}no such file {str(path)!r}") from None
    except OSError as e:
        raise StcError(f"{lead}{str(path)!r}: {e.strerror}") from None
    if stat.S_ISDIR(mode):
        raise StcError(f"{lead}{str(path)!r} is a directory, not a file")
    if not stat.S_ISREG(mode):
        raise StcError(f"{lead}{str(path)!r} is not a regular file (a FIFO, device or socket)")


def read_bounded(stream: IO[bytes], name: str, limit: int = MAX_IR_BYTES) -> bytes:
    """The bytes of a stream, at most `limit` of them; a longer stream is an error."""
    try:
        source = stream.read(limit + 1)
    except OSError as e:
        raise StcError(f"{name}: cannot be read: {e.strerror}") from None
    if len(source) > limit:
        raise StcError(f"{name}: larger than {limit} bytes, the most an IR file may hold")
    return source


def read_file(path: Path, role: str = "") -> bytes:
    """The bytes of the IR file `path` (a regular file of at most MAX_IR_BYTES); errors
    start with `role`, the argument that named it, when given."""
    check_regular_file(path, role)
    with path.open("rb") as stream:
        return read_bounded(stream, f"{role}: {str(path)!r}" if role else str(path))
