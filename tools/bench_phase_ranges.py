"""
What a long or far phase range costs an `STEnv` session (the mapping's `STMatrix`): a
storage block put in one phase, over phases 0 to 10^8, and over 2^40 to 2^40 + 10^8 on
`aie-ml` (no phase limit), then taken out again; the minimum and median of the runs.
Phases are kept as ranges (`stc.compiler.mapping.phase_ranges`), so the three cost the
same; before, every phase of a range was counted (some 40 µs each).

    python -m stc.tools.bench_phase_ranges [--runs 200]
"""

from __future__ import annotations

import statistics
import time

import click
from xdsl.parser import Parser

from stc.compiler.ir_files import stc_context
from stc.compiler.mapping.env import PIIndex, STCoord, STEnv

GRAPH = """task.graph @g {
  %x = task.input 0 "x" : tensor<1x4x4x32xi8>
  %b = task.buffer 1 si %x : tensor<1x4x4x32xi8>
  %r = task.relu 2 %b : tensor<1x4x4x32xi8>
  %o = task.buffer 3 so %r : tensor<1x4x4x32xi8>
  task.output 4 "y" %o
}
"""

RANGES = {"1 phase": (0, 0), "0 to 10^8": (0, 10**8), "2^40 to 2^40 + 10^8": (2**40, 2**40 + 10**8)}


def put_and_take(first: int, last: int, runs: int) -> list[float]:
    """Seconds of each put_in and take_out of block 1 over phases `first` to `last`."""
    env = STEnv(Parser(stc_context(), GRAPH).parse_module(), "aie-ml")
    start, end = (STCoord((0, 0, 1, 0), (0, phase, PIIndex.MEMORY)) for phase in (first, last))
    seconds: list[float] = []
    for _ in range(runs):
        began = time.perf_counter()
        env.put_in(start, 1, end)
        env.take_out(start, 1, end)
        seconds.append(time.perf_counter() - began)
    return seconds


@click.command()
@click.option("--runs", default=200, show_default=True, help="puts and take-outs per range")
def main(runs: int) -> None:
    base = None
    for label, (first, last) in RANGES.items():
        seconds = put_and_take(first, last, runs)
        low, median = min(seconds), statistics.median(seconds)
        base = base or median
        print(f"{label}: min {low * 1e6:.0f} µs, median {median * 1e6:.0f} µs ({median / base:.2f}× one phase)")


if __name__ == "__main__":
    main()
