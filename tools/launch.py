"""
The console scripts' entry points. Each imports its tool with Python's cyclic garbage
collector paused: the imports create some hundred thousand objects that live until the
process ends (xDSL's and stc's classes, functions and dataclasses), and every collection
during them walked all those made so far again, about a tenth of `stc-run`'s imports. The
tool itself then runs with the collector as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from stc.compiler.heap import collection_paused


def entry(module: str) -> Callable[[], Any]:
    """The entry point that imports `module`, collector paused, and runs its `main()`
    (whose result is the exit status)."""

    def main() -> Any:
        with collection_paused():
            tool = import_module(module)
        return tool.main()

    return main


stc_opt = entry("stc.tools.stc_opt")
stc_run = entry("stc.tools.stc_run")
stc_zoo = entry("stc.tools.stc_zoo")
stc_report = entry("stc.tools.stc_report")
stc_import = entry("stc.tools.stc_import")
