"""
Throughput of the NCHW <-> NC1HWC0 transforms built from `vec_trans_scatter`.

    python -m stc.tools.bench_vec_trans_scatter [--runs N]

Bytes per second count the NCHW tensor's bytes once per transform.
"""

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

from stc.runtime.kernels.layout import nc1hwc0_to_nchw, nchw_to_nc1hwc0

SHAPE = (1, 64, 56, 56)


def median_seconds(transform: Callable[[], object], runs: int) -> float:
    """The median wall time of `runs` calls, after one warm-up call."""
    transform()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        transform()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="timed runs per transform")
    runs = parser.parse_args().runs

    x = np.random.default_rng(0).integers(-128, 128, SHAPE, dtype=np.int8)
    y = nchw_to_nc1hwc0(x)
    label = "x".join(str(size) for size in SHAPE) + " int8"
    forward = median_seconds(lambda: nchw_to_nc1hwc0(x), runs)
    backward = median_seconds(lambda: nc1hwc0_to_nchw(y, SHAPE[1]), runs)
    print(f"NCHW -> NC1HWC0 {label}: {x.nbytes / forward:.3e} bytes/s (median of {runs} runs)")
    print(f"NC1HWC0 -> NCHW {label}: {x.nbytes / backward:.3e} bytes/s (median of {runs} runs)")


if __name__ == "__main__":
    main()
