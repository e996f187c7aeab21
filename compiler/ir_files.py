"""Reading and writing stc IR files with every stc dialect available."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer

from stc.compiler.diagnostics import StcError
from stc.compiler.universe import get_all_dialects


def stc_context() -> Context:
    """A context with the builtin dialect and stc's dialects (loaded on first use)."""
    ctx = Context()
    ctx.load_dialect(Builtin)
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx


def read_module(path: Path) -> ModuleOp:
    """Parse and verify an IR file."""
    if not path.is_file():
        raise StcError(f"no such file: {path}")
    module = Parser(stc_context(), path.read_text(), str(path)).parse_module()
    module.verify()
    return module


def module_text(module: ModuleOp) -> str:
    """The module in custom syntax, as stc-opt prints it."""
    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue() + "\n"
