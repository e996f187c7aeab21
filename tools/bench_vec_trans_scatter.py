"""
Throughput of the NCHW <-> NC1HWC0 transforms built from `vec_trans_scatter`, the cost of
one in-place call at a low and a high address, and a layout round trip on the machine.

    python -m stc.tools.bench_vec_trans_scatter [--runs N]

Bytes per second count the NCHW tensor's bytes once per transform. The in-place calls
work inside one 16 MB buffer, as the machine passes a core's whole local memory; their
cost should not depend on the address. The machine figure runs NCHW -> NC1HWC0 -> NCHW
of a 1x3x224x224 int8 image on `tpu-like` (stc.tools.isa_examples.layout_round_trip).
"""

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

from stc.runtime.kernels.layout import nc1hwc0_to_nchw, nchw_to_nc1hwc0
from stc.runtime.kernels.vec_trans_scatter import vec_trans_scatter
from stc.runtime.machine import find_program, random_inputs, run_isa_module
from stc.tools.isa_examples import layout_round_trip

SHAPE = (1, 64, 56, 56)
IMAGE = (1, 3, 224, 224)
LOCAL_MEMORY_BYTES = 16 * 2**20
HIGH_ADDRESS = 15 * 2**20


def median_seconds(transform: Callable[[], object], runs: int) -> float:
    """The median wall time of `runs` calls, after one warm-up call."""
    transform()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        transform()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def in_place_calls(memory: np.ndarray, address: int) -> dict[str, Callable[[], None]]:
    """int8 calls of 255 repeats in one buffer: 16 rows of a 5HD tile into 16 planes
    apart from them, and a transpose block for block onto the same blocks."""
    rows = [address + 32 * lane for lane in range(16)]
    planes = [address + 512 * 255 + 255 * 32 * lane for lane in range(16)]
    return {
        "rows to planes": lambda: vec_trans_scatter(memory, memory, False, False, planes, rows, 255, 1, 16),
        "block for block": lambda: vec_trans_scatter(memory, memory, True, True, rows, rows, 255, 16, 16),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="timed runs per measurement")
    runs = parser.parse_args().runs

    x = np.random.default_rng(0).integers(-128, 128, SHAPE, dtype=np.int8)
    y = nchw_to_nc1hwc0(x)
    label = "x".join(str(size) for size in SHAPE) + " int8"
    forward = median_seconds(lambda: nchw_to_nc1hwc0(x), runs)
    backward = median_seconds(lambda: nc1hwc0_to_nchw(y, SHAPE[1]), runs)
    print(f"NCHW -> NC1HWC0 {label}: {x.nbytes / forward:.3e} bytes/s (median of {runs} runs)")
    print(f"NC1HWC0 -> NCHW {label}: {x.nbytes / backward:.3e} bytes/s (median of {runs} runs)")

    memory = np.zeros(LOCAL_MEMORY_BYTES, np.int8)
    for address in (0, HIGH_ADDRESS):
        for kind, call in in_place_calls(memory, address).items():
            seconds = median_seconds(call, runs)
            print(f"in-place call, {kind}, 255 repeats, at byte {address}: {seconds * 1e6:.0f} us (median)")

    example = layout_round_trip("tpu-like", IMAGE)
    inputs = random_inputs(find_program(example.module), seed=0)
    seconds = median_seconds(lambda: run_isa_module(example.module, inputs), runs)
    image = "x".join(str(size) for size in IMAGE)
    print(f"machine round trip NCHW -> NC1HWC0 -> NCHW, {image} int8 on tpu-like: {seconds * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
