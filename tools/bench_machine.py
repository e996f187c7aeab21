"""
The machine's speed on a multi-core conv layer of ResNet-18, against the golden executor
running the same layer as a task graph.

    python -m stc.tools.bench_machine [--runs N] [--target NAME] [--cores N]

The layer is ResNet-18's 56x56x64 -> 64 3x3 conv (pad 1), split by rows over cores that
swap halo rows over the NoC (stc.compiler.isa_examples.conv_rows). Both executors take
the same inputs and must agree bit for bit; the target ratio machine / golden is <= 1.5.

BLAS runs on one thread unless OPENBLAS_NUM_THREADS or OMP_NUM_THREADS says otherwise:
on a small machine shared with other jobs, threaded BLAS spends its time waiting for
busy cores, and far more so for the machine's per-core matrices than for the golden
executor's one large matrix, which measures the scheduler rather than the executors.
"""

import argparse
import os
import statistics
import time
from collections.abc import Callable

TARGET_RATIO = 1.5


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


def main() -> None:
    parser = argparse.ArgumentParser(description="The machine's speed against the golden executor.")
    parser.add_argument("--runs", type=int, default=31, help="timed runs of each executor")
    parser.add_argument("--target", default="set-8x8", help="the target of the isa program")
    parser.add_argument("--cores", type=int, default=4, help="cores the rows are split over")
    args = parser.parse_args()
    threads = os.environ.setdefault("OPENBLAS_NUM_THREADS", os.environ.get("OMP_NUM_THREADS", "1"))

    # numpy, and with it BLAS, loads only now, after the thread count is set.
    import json

    import numpy as np
    from xdsl.parser import Parser

    from stc.compiler.ir_files import stc_context
    from stc.compiler.isa_examples import conv_rows
    from stc.runtime.golden import run_module
    from stc.runtime.machine import find_program, random_inputs, run_isa_module

    example = conv_rows(args.target, height=56, width=56, channels=64, filters=64, cores=args.cores, shift=10)
    example.module.verify()
    twin = Parser(stc_context(), example.twin).parse_module()
    twin.verify()
    inputs = random_inputs(find_program(example.module), seed=0)
    outputs, counters = run_isa_module(example.module, inputs)
    if not all(np.array_equal(outputs[name], golden) for name, golden in run_module(twin, inputs).items()):
        raise SystemExit("the machine and the golden executor disagree")

    times = paired_times(lambda: run_isa_module(example.module, inputs), lambda: run_module(twin, inputs), args.runs)
    machine = statistics.median(pair[0] for pair in times)
    golden = statistics.median(pair[1] for pair in times)
    ratio = statistics.median(pair[0] / pair[1] for pair in times)
    verdict = "within" if ratio <= TARGET_RATIO else "above"
    print(
        f"conv 56x56x64 -> 64, 3x3, pad 1, {args.cores} cores of {args.target}; "
        f"{args.runs} runs, BLAS threads {threads}"
    )
    print(f"  machine {machine * 1e3:.1f} ms, golden {golden * 1e3:.1f} ms (medians)")
    print(f"  ratio machine / golden {ratio:.2f} (median of paired runs; {verdict} the {TARGET_RATIO} target)")
    print(f"  counters: {json.dumps(counters)}")


if __name__ == "__main__":
    main()
