"""
stc's dialects: `task` (the task graph), `st` (the spatio-temporal mapping) and `isa`
(per-core programs). `get_all_dialects` gives them as lazy factories, as xDSL's own
registry does, so that a tool loads only the dialects its input uses; `stc_context`
is a context that knows them (docs/embedding.md). Importing it applies
`stc.compiler.xdsl_fixes`, so every use of stc's dialects and passes has them.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin
from xdsl.ir import Dialect

import stc.compiler.xdsl_fixes  # noqa: F401  (applied on import)


def get_task() -> Dialect:
    from stc.dialects.task import Task

    return Task


def get_st() -> Dialect:
    from stc.dialects.st import St

    return St


def get_isa() -> Dialect:
    from stc.dialects.isa import Isa

    return Isa


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    """stc's dialects by name, each behind a factory that imports it on first use."""
    return {"task": get_task, "st": get_st, "isa": get_isa}


def stc_context() -> Context:
    """
    A new context with the builtin dialect and stc's dialects, each loaded on first use.
    Register or load more dialects in it as usual:

    ```python
    ctx = stc_context()
    ctx.load_dialect(Arith)
    module = Parser(ctx, text).parse_module()
    ```
    """
    ctx = Context()
    ctx.load_dialect(Builtin)
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx
