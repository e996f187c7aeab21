"""
Paths written in IR — a `#task.npz` archive, the target file of an `st.mapping` or an
`isa.program` — name files inside the IR file's directory only, unless the user widens
that with `--data-dir`: running someone else's IR must not open any file on the machine,
nor tell whether one exists. The tools set the directories (`references_within`); the
verifiers, passes and runtime that follow a path ask `referenced_file`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from stc.compiler.diagnostics import StcError
from stc.compiler.targets.hardware import HardwareTarget, load_target, names_a_file

REFERENCE_ROOTS: ContextVar[tuple[Path, ...]] = ContextVar("REFERENCE_ROOTS", default=())
"""The directories in which a path written in IR may name a file, the first one the IR
file's own (relative paths start there); empty means the current directory."""


@contextmanager
def references_within(roots: Sequence[Path]) -> Iterator[None]:
    """Confine the paths written in IR read inside the block to `roots` (the IR file's
    directory, then each `--data-dir`)."""
    token = REFERENCE_ROOTS.set(tuple(roots))
    try:
        yield
    finally:
        REFERENCE_ROOTS.reset(token)


def referenced_file(reference: str, what: str, roots: Sequence[Path] = ()) -> Path:
    """
    The file a path written in IR names (`#task.npz<"w.npz", ...>`, an `st.mapping`
    target): relative to the first root, and, with `..` and links resolved, inside one
    of them (`roots`, else those of `references_within`, else the current directory).
    A path outside is one error whether or not the file exists, so IR cannot probe the
    machine's files.

        >>> referenced_file("../etc/passwd", "npz file", [Path("/srv/net")])
        Traceback (most recent call last):
        stc.compiler.diagnostics.StcError: npz file '../etc/passwd' is outside /srv/net (...)
    """
    roots = tuple(roots) or REFERENCE_ROOTS.get() or (Path.cwd(),)
    path = (roots[0] / reference).resolve()
    if any(path.is_relative_to(root.resolve()) for root in roots):
        return path
    where = ", ".join(str(root) for root in roots)
    raise StcError(f"{what} {reference!r} is outside {where} (the IR file's directory; --data-dir widens it)")


def referenced_target(name: str, what: str, roots: Sequence[Path] = ()) -> HardwareTarget:
    """The target a name written in IR names (an `st.mapping` or `isa.program`'s): a
    preset, or a TOML file confined as `referenced_file` confines paths."""
    if names_a_file(name):
        name = str(referenced_file(name, f"{what}: target file", roots))
    return load_target(name)
