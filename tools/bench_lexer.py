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
- `xdsl-opt`: xdsl-opt (with stc's universe) reading a module that holds the literal as
  an attribute, in seconds and peak RSS. The file ends in a stray `)`, so that xdsl-opt
  parses the literal and then prints a one-line parse error rather than the literal
  (xDSL prints a string attribute character by character, 20 s for 20 MB).

A measurement that exceeds the timeout is printed as such and not repeated: upstream's
pattern backtracks exponentially on an unterminated literal.
"""

from __future__ import annotations

import itertools
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import click

from stc.compiler.xdsl_fixes import UNROLLED_STRING_LITERAL, UPSTREAM_STRING_LITERAL

PATTERNS = {
    "upstream": UPSTREAM_STRING_LITERAL,
    "unrolled (stc now)": UNROLLED_STRING_LITERAL,
    "per-character (stc before)": r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"',
}

LEVELS = ("match", "xdsl-opt")

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


def run_once(command: list[str], timeout: float) -> tuple[float, float] | None:
    """The seconds and bytes the measuring process prints last, or None on timeout."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return None
    seconds, nbytes = (done.stdout or done.stderr).split()[-2:]
    return float(seconds), float(nbytes)


def summary(results: list[tuple[float, float] | None], timeout: float) -> str:
    """`min / median` of the seconds and of the memory."""
    if None in results:
        return f"timeout (> {timeout:g} s)"
    seconds = [r[0] for r in results if r is not None]
    memory = [r[1] / 2**20 for r in results if r is not None]
    return (
        f"{min(seconds):7.3f} / {statistics.median(seconds):7.3f} s   "
        f"{min(memory):7.0f} / {statistics.median(memory):7.0f} MiB"
    )


def module_text(literal: str) -> str:
    """A module holding the literal as an attribute (the literal ends its line), then a
    stray `)`."""
    return f"builtin.module attributes {{text = {literal}\n}} {{\n}}\n)\n"


@click.command()
@click.option("--megabytes", default=20, show_default=True, help="Length of the literal in millions of characters.")
@click.option("--runs", default=3, show_default=True, help="Runs per measurement; min and median are printed.")
@click.option("--timeout", default=20.0, show_default=True, help="Seconds before a run is abandoned.")
def main(megabytes: int, runs: int, timeout: float) -> None:
    size = megabytes * 10**6
    print(f"a {megabytes} MB string literal; min / median of {runs} runs: time, memory")
    results: dict[tuple[str, str, str], list[tuple[float, float] | None]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for literal, make in LITERALS.items():
            (Path(folder) / f"{literal}.mlir").write_text(module_text(make(size)))
        # Round robin, so that a change in the machine's load touches every pattern alike.
        for _ in range(runs):
            for literal, name, level in itertools.product(LITERALS, PATTERNS, LEVELS):
                measured = results.setdefault((literal, name, level), [])
                if None in measured:
                    continue
                pattern, path = PATTERNS[name], str(Path(folder) / f"{literal}.mlir")
                command = [sys.executable, "-c", MATCH, pattern, literal, str(size)]
                if level == "xdsl-opt":
                    command = [sys.executable, "-c", XDSL_OPT, pattern, path]
                measured.append(run_once(command, timeout))
    for (literal, name, level), measured in results.items():
        first = level == LEVELS[0]
        print(f"{literal if first else '':>12} {name if first else '':<27} {level:<9} {summary(measured, timeout)}")


if __name__ == "__main__":
    main()
