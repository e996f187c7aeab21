"""
The machine's speed on a multi-core conv layer of ResNet-18, against the golden executor
running the same layer as a task graph.

    python -m stc.tools.bench_machine [--runs N] [--target NAME] [--cores N]

The layer is ResNet-18's 56x56x64 -> 64 3x3 conv (pad 1), split by rows over cores that
swap halo rows over the NoC (stc.tools.isa_examples.conv_rows, cores along a snake
over the mesh). Both executors take the same inputs and must agree bit for bit; the
target ratio machine / golden is <= 1.5. A split that does not fit the target's local
memory ends with the verifier's message and the smallest core count that fits.

BLAS threads: OPENBLAS_NUM_THREADS or OMP_NUM_THREADS when set, else `--blas-threads` (default 1; `default`
leaves OpenBLAS its own, one thread per CPU). The output states the count, where it comes
from and the load average. One thread is the default because threaded BLAS measures the
scheduler rather than the executors on a machine busier than its CPUs: every BLAS call
then waits for descheduled threads at its barrier, and the machine makes one call per
core where the golden executor makes one for the whole layer (ResNet-18 conv, 4 cores of
set-8x8, load average 8 on 2 CPUs: ratio 1.07 with one thread, 4.3 with two).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from stc.tools.isa_examples import Example

TARGET_RATIO = 1.5
LAYER = {"height": 56, "width": 56, "channels": 64, "filters": 64, "shift": 10}


def seconds(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def paired_times(first: Callable[[], object], second: Callable[[], object], runs: int) -> list[tuple[float, float]]:
    """Wall times of `runs` alternating calls of both, after one warm-up call of each;
    alternating keeps a change in machine load from favouring one of them."""
    first()
    second()
    return [(seconds(first), seconds(second)) for _ in range(runs)]


def set_blas_threads(requested: str) -> str:
    """Set OpenBLAS's thread count before numpy loads; how many threads, and why."""
    for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
        if given := os.environ.get(variable):
            return f"{given} (from {variable})"
    if requested == "default":
        return f"{os.cpu_count()} (OpenBLAS's default, one per CPU)"
    os.environ["OPENBLAS_NUM_THREADS"] = requested
    if requested == "1":
        return "1 (the --blas-threads default: threaded BLAS waits for busy CPUs at every call)"
    return f"{requested} (--blas-threads)"


def verified_layer(target: str, cores: int) -> tuple[Example | None, str]:
    """The layer split over `cores` cores and verified, or None and the rule it breaks."""
    # Imported here: numpy, and with it BLAS, must load after the thread count is set.
    from xdsl.utils.exceptions import VerifyException

    from stc.compiler.diagnostics import first_paragraph
    from stc.tools.isa_examples import conv_rows

    try:
        example = conv_rows(target, cores=cores, **LAYER)
        example.module.verify()
    except (ValueError, VerifyException) as error:
        return None, first_paragraph(error)
    return example, ""


def fitting_layer(target: str, cores: int) -> Example:
    """The verified layer, or a SystemExit naming the rule it breaks and the smallest
    core count that fits."""
    example, problem = verified_layer(target, cores)
    if example is not None:
        return example
    fitting = (more for more in range(cores + 1, LAYER["height"] + 1) if verified_layer(target, more)[0] is not None)
    hint = f"; {more} cores fit" if (more := next(fitting, None)) is not None else ""
    raise SystemExit(f"bench_machine: error: the layer does not fit {cores} cores of {target}: {problem}{hint}")


def main() -> None:
    parser = argparse.ArgumentParser(description="The machine's speed against the golden executor.")
    parser.add_argument("--runs", type=int, default=31, help="timed runs of each executor")
    parser.add_argument("--target", default="set-8x8", help="the target of the isa program")
    parser.add_argument("--cores", type=int, default=4, help="cores the rows are split over")
    parser.add_argument("--blas-threads", default="1", help="BLAS threads, or `default` for OpenBLAS's own")
    args = parser.parse_args()
    threads = set_blas_threads(args.blas_threads)

    # numpy, and with it BLAS, loads only now, after the thread count is set.
    import numpy as np
    from xdsl.parser import Parser

    from stc.compiler.ir_files import stc_context
    from stc.runtime.golden import run_module
    from stc.runtime.machine import find_program, random_inputs, run_isa_module

    example = fitting_layer(args.target, args.cores)
    twin = Parser(stc_context(), example.twin).parse_module()
    twin.verify()
    inputs = random_inputs(find_program(example.module), seed=0)
    outputs, counters = run_isa_module(example.module, inputs)
    if not all(np.array_equal(outputs[name], golden) for name, golden in run_module(twin, inputs).items()):
        raise SystemExit("bench_machine: error: the machine and the golden executor disagree")

    load_before = os.getloadavg()[0]
    times = paired_times(lambda: run_isa_module(example.module, inputs), lambda: run_module(twin, inputs), args.runs)
    load_after = os.getloadavg()[0]
    machine = statistics.median(pair[0] for pair in times)
    golden = statistics.median(pair[1] for pair in times)
    ratio = statistics.median(pair[0] / pair[1] for pair in times)
    verdict = "within" if ratio <= TARGET_RATIO else "above"
    print(f"conv 56x56x64 -> 64, 3x3, pad 1, {args.cores} cores of {args.target}; {args.runs} runs")
    print(
        f"  BLAS threads {threads}; {os.cpu_count()} CPUs, load average "
        f"{load_before:.1f} before and {load_after:.1f} after"
    )
    print(f"  machine {machine * 1e3:.1f} ms, golden {golden * 1e3:.1f} ms (medians)")
    print(f"  ratio machine / golden {ratio:.2f} (median of paired runs; {verdict} the {TARGET_RATIO} target)")
    print(f"  counters: {json.dumps(counters)}")


if __name__ == "__main__":
    main()
