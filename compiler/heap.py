"""
The garbage collector during a compilation. A module's IR lives until the run ends, yet every
full collection scans all of it: ResNet-50 at batch 8 for tianjicx spent 6.4 of 32 s in
about 15 such scans. Between passes, the objects alive are frozen (`gc.freeze`), so that
later collections scan only what the passes after them create; on exit everything is
collectable again.

    with frozen_between_passes() as settle:
        for stage in stages:
            stage.apply(ctx, module)
            settle()

Nothing is frozen when the caller froze objects itself or disabled the collector: their
heap is left as they set it. Within a pass or a file read, `collection_paused` stops the
collector while objects are created in bulk (a file's ops, a split's pieces), and moves them
into the oldest generation on exit (`aged`), so the young generations' collections that would
follow at once do not walk them all twice.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # not imported at start-up (tools/launch.py imports this module first)
    from xdsl.context import Context
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.passes import ModulePass


@contextmanager
def frozen_between_passes() -> Iterator[Callable[[], None]]:
    """Yield `settle`, which freezes every object alive now; unfreeze them all on exit."""
    if gc.get_freeze_count() or not gc.isenabled():
        yield lambda: None
        return
    try:
        yield gc.freeze
    finally:
        gc.unfreeze()


def apply_in_turn(passes: Sequence[ModulePass], ctx: Context, module: ModuleOp) -> None:
    """Apply passes in order as a pipeline of them runs: each with the collector paused
    (a searched schedule's lowering creates ops by the hundred thousand, and collections
    walking them were a sixth of its time), the objects alive frozen after each."""
    with frozen_between_passes() as settle:
        for stage in passes:
            with collection_paused():
                stage.apply(ctx, module)
            settle()


@contextmanager
def collection_paused() -> Iterator[None]:
    """
    Pause Python's cyclic garbage collector. Reading a file or splitting a block creates
    objects by the million, and nearly all of them stay (ops, values, attributes): each
    collection of the older generations walks all of them again, a tenth of the time of
    reading a 100,000-op file. What is left as garbage is freed by reference counting or,
    once the collector runs again, by it.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            aged()
            gc.enable()


def aged() -> None:
    """
    Move every object alive into the oldest generation, without a collection (`gc.freeze`,
    then `gc.unfreeze`), unless the caller froze objects itself. After objects were created
    in bulk with the collector paused, the youngest generation holds them all, and the
    collections that would follow at once would walk them twice (once in each young
    generation) only to keep them.
    """
    if not gc.get_freeze_count():
        gc.freeze()
        gc.unfreeze()
