"""
Progress bars for long work (splitting to fit, annealing, searches, calibration): a bar
on stderr when stderr is a terminal, nothing at all otherwise, so that logs, pipes and
tests see only the tools' own output. tqdm draws the bar; it is imported only when a bar
is drawn, so the registries stay fast to import.

    for iteration in track(range(iterations), "st-place: annealing"):
        ...

    with progress("task-split: fit", total=len(pending)) as bar:
        bar.add_total(len(created))
        bar.advance()
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")


def stderr_is_terminal() -> bool:
    """Whether a person is watching stderr (a closed or replaced stream is not one)."""
    isatty = getattr(sys.stderr, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:
        return False


class Progress:
    """A count of finished work out of a total that may grow; silent without a bar."""

    def __init__(self, bar: Any = None):
        self.bar = bar

    def advance(self, steps: int = 1) -> None:
        if self.bar is not None:
            self.bar.update(steps)

    def add_total(self, steps: int) -> None:
        """Count `steps` more pieces of work found along the way."""
        if self.bar is not None and steps:
            self.bar.total += steps
            self.bar.refresh()


@contextmanager
def progress(description: str, total: int) -> Iterator[Progress]:
    """A bar for `total` pieces of work, or a silent `Progress` when stderr is not a terminal."""
    if not stderr_is_terminal():
        yield Progress()
        return
    from tqdm import tqdm

    with tqdm(total=total, desc=description, file=sys.stderr, leave=False, dynamic_ncols=True) as bar:
        yield Progress(bar)


def track(items: Iterable[T], description: str, total: int | None = None) -> Iterator[T]:
    """The items of `items`, with a bar of how many were taken when stderr is a terminal."""
    if not stderr_is_terminal():
        yield from items
        return
    from tqdm import tqdm

    yield from tqdm(items, desc=description, total=total, file=sys.stderr, leave=False, dynamic_ncols=True)
