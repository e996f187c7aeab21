"""
The console scripts' entry points. Each imports its tool with Python's cyclic garbage
collector paused: the imports create some hundred thousand objects that live until the
process ends (xDSL's and stc's classes, functions and dataclasses), and every collection
during them walked all those made so far again, about a tenth of `stc-run`'s imports. The
tool itself then runs with the collector as it was.

The imports also compile each method text that `dataclasses` generates once
(`generated_code_shared`): xDSL's and stc's dataclasses generate 1,044 methods in
`stc-run`'s imports, of 576 distinct texts, and compiling them was a quarter of the imports.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import import_module
from types import CodeType
from typing import Any

from stc.compiler.heap import collection_paused


@contextmanager
def generated_code_shared() -> Iterator[None]:
    """
    While open, `dataclasses` compiles each text of the methods it generates once and runs
    the same code for every class that generates that text again (the functions stay one
    per class). The code is what `exec` of the text compiles: the same file name, and no
    `__future__` flag of this module (the annotations of `__init__` stay objects). Left
    alone when something else set `dataclasses.exec`.
    """
    if hasattr(dataclasses, "exec"):
        yield
        return
    codes: dict[str, CodeType] = {}

    def shared_exec(source: str | CodeType, globals: dict[str, Any], locals: dict[str, Any]) -> None:
        if isinstance(source, str):
            if (code := codes.get(source)) is None:
                code = codes[source] = compile(source, "<string>", "exec", dont_inherit=True)
            source = code
        exec(source, globals, locals)

    dataclasses.exec = shared_exec  # pyright: ignore[reportAttributeAccessIssue]
    try:
        yield
    finally:
        del dataclasses.exec  # pyright: ignore[reportAttributeAccessIssue]


def entry(module: str) -> Callable[[], Any]:
    """The entry point that imports `module`, collector paused and generated code shared,
    and runs its `main()` (whose result is the exit status)."""

    def main() -> Any:
        with collection_paused(), generated_code_shared():
            tool = import_module(module)
        return tool.main()

    return main


stc_opt = entry("stc.tools.stc_opt")
stc_run = entry("stc.tools.stc_run")
stc_zoo = entry("stc.tools.stc_zoo")
stc_report = entry("stc.tools.stc_report")
stc_import = entry("stc.tools.stc_import")
