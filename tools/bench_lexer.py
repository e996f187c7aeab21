"""
xDSL's string-literal lexing on one long literal, with upstream's pattern, the
per-character pattern stc used before, and the unrolled pattern stc installs now
(`stc.compiler.xdsl_fixes`).

    python -m stc.tools.bench_lexer [--megabytes 20] [--runs 3] [--timeout 20]

Inputs: a closed literal of plain characters, the same with an escape every 16
characters, and an unterminated one. Each measurement runs in a fresh process; the
minimum and median of the runs are printed:

- `match`: the lexer's regex on the literal alone, in seconds, and the memory the match
  takes above the input's (peak RSS after less before);
- `xdsl-opt`: xdsl-opt (with stc's universe) parsing and printing a module that holds
  the literal as an attribute, in seconds and peak RSS.

A measurement that exceeds the timeout is printed as such and not repeated: upstream's
pattern backtracks exponentially on an unterminated literal.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import click

from stc.compiler.xdsl_fixes import UNROLLED_STRING_LITERAL, UPSTREAM_STRING_LITERAL

PATTERNS = {
    "upstream": UPSTREAM_STRING_LITERAL,
    "per-character (stc before)": r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"',
    "unrolled (stc now)": UNROLLED_STRING_LITERAL,
}

LITERALS = {
    "closed": lambda size: '"' + "a" * size + '"',
    "escaped": lambda size: '"' + ("a" * 14 + r"\"") * (size // 16) + '"',
    "unterminated": lambda size: '"' + "a" * size + "\n",
}

MATCH = """
import re, resource, sys, time
from stc.tools.bench_lexer import LITERALS
text = LITERALS[sys.argv[2]](int(sys.argv[3]))
regex = re.compile(sys.argv[1])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
regex.match(text)
seconds = time.perf_counter() - start
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(seconds, (after - before) * 1024)
"""

XDSL_OPT = """
import os, re, resource, sys, time
import stc.compiler.xdsl_fixes  # applied now, so that the pattern set below stays
from xdsl.utils.mlir_lexer import MLIRLexer
from xdsl.xdsl_opt_main import xDSLOptMain
MLIRLexer._unescaped_characters_regex = re.compile(sys.argv[1])
sys.stdout = open(os.devnull, "w")
start = time.perf_counter()
xDSLOptMain(args=[sys.argv[2], "--parsing-diagnostics", "-o", os.devnull]).run()
seconds = time.perf_counter() - start
print(seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, file=sys.stderr)
"""


def measure(command: list[str], runs: int, timeout: float) -> str:
    """`min / median` of the two numbers the command prints last, over `runs` runs."""
    seconds: list[float] = []
    memory: list[float] = []
    for _ in range(runs):
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=True)
        except subprocess.TimeoutExpired:
            return f"timeout (> {timeout:g} s)"
        time, nbytes = (done.stdout or done.stderr).split()[-2:]
        seconds.append(float(time))
        memory.append(float(nbytes) / 2**20)
    return (
        f"{min(seconds):7.3f} / {statistics.median(seconds):7.3f} s   "
        f"{min(memory):7.0f} / {statistics.median(memory):7.0f} MiB"
    )


def module_text(literal: str) -> str:
    """A module holding the literal as an attribute (the literal ends its line)."""
    return f"builtin.module attributes {{text = {literal}\n}} {{\n}}\n"


@click.command()
@click.option("--megabytes", default=20, show_default=True, help="Length of the literal in millions of characters.")
@click.option("--runs", default=3, show_default=True, help="Runs per measurement; min and median are printed.")
@click.option("--timeout", default=20.0, show_default=True, help="Seconds before a run is abandoned.")
def main(megabytes: int, runs: int, timeout: float) -> None:
    size = megabytes * 10**6
    print(f"a {megabytes} MB string literal; min / median of {runs} runs: time, memory")
    with tempfile.TemporaryDirectory() as folder:
        for literal, make in LITERALS.items():
            path = Path(folder) / f"{literal}.mlir"
            path.write_text(module_text(make(size)))
            for name, pattern in PATTERNS.items():
                match_command = [sys.executable, "-c", MATCH, pattern, literal, str(size)]
                print(f"{literal:>12} {name:<27} match     {measure(match_command, runs, timeout)}", flush=True)
                opt_command = [sys.executable, "-c", XDSL_OPT, pattern, str(path)]
                print(f"{'':>12} {'':<27} xdsl-opt  {measure(opt_command, runs, timeout)}", flush=True)
            os.remove(path)


if __name__ == "__main__":
    main()
