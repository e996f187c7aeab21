"""
Speed and quality of the local-memory allocator (`stc.compiler.memory.allocation`) on
synthetic workloads, for each strategy on its own and for `allocate` (the strategies, then
the squeaky-wheel rounds when none is within 3 % of the lower bound):

- uniform: 2000 requests over 200 time steps, each live 1 to 8 steps from a random start,
  sizes log-uniform from 64 B to 16 KB (16 or 128 B aligned); a tenth of them are weights
  of 0.5 to 16 KB live from a random step to the end;
- flat: 2000 requests over 200 time steps, each live 1 to 16 steps, sizes uniform from
  64 B to 16 KB: harder to pack, so the squeaky-wheel rounds run (the slowest case);
- network: a chain of 200 compute blocks on one core, one per step. Each block writes an
  activation tile of 1 to 64 KB (16 B rows) read by the next block or, one time in five,
  by a block 2 to 6 steps on; three times in ten int32 partial sums of 128 B to 8 KB for
  its step; seven times in ten a weight of 256 B to 16 KB and a bias of 16 B to 1 KB
  loaded one step ahead, freed after the block or, for one block in ten, resident to the
  end (a sliced layer group);
- tianjicx: the network workload on one TianjicX core (143,360 B usable in banks of 64,
  64 and 16 KB), tiles scaled so the peak live bytes are 90 % of the capacity, each
  block's output tile asked to be in another bank than its input tile;
- tianjicx chip: 160 such cores of 16 blocks each (about 7000 requests), filled to 70 %
  and to 90 % at their peak: the time for the whole chip and how many cores fail;
- then `--draws` network workloads of 2 to 40 blocks, all weights resident or none (the
  distribution of the unit tests' 5 % property): the peak address over the peak live
  bytes of the seed's strategy alone and of `allocate`, in a memory twice the bound.

    python -m stc.tools.bench_allocation [--runs 3] [--seed 0] [--draws 1000]

Times are CPU seconds (`time.process_time`, steady on a busy machine), min and median of the runs.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable, Hashable
from functools import partial
from typing import TypeVar

from stc.compiler.memory.allocation import allocate, place
from stc.compiler.memory.packing import STRATEGIES, Strategy
from stc.compiler.memory.rectangles import AllocationError, Memory, Request, check_allocation, peak_live_bytes

Result = TypeVar("Result")

STEPS = 200
TIANJICX = Memory(143360, (65536, 65536, 16384))
CORES = 160


def uniform_workload(rng: random.Random, count: int = 2000, steps: int = STEPS) -> list[Request]:
    requests: list[Request] = []
    for key in range(count):
        if rng.random() < 0.1:
            size = 32 * rng.randint(16, 512)
            start = rng.randrange(steps)
            requests.append(Request(key, size, 32, start, steps - 1, f"weight {key} ({size} B)"))
            continue
        alignment = rng.choice((16, 16, 128))
        size = alignment * max(1, round(2 ** rng.uniform(6, 14) / alignment))
        start = rng.randrange(steps)
        end = min(steps - 1, start + rng.randint(0, 7))
        requests.append(Request(key, size, alignment, start, end, f"buffer {key} ({size} B)"))
    return requests


def flat_workload(rng: random.Random, count: int = 2000, steps: int = STEPS) -> list[Request]:
    requests: list[Request] = []
    for key in range(count):
        size = 16 * rng.randint(4, 1024)
        start = rng.randrange(steps)
        end = min(steps - 1, start + rng.randint(0, 15))
        requests.append(Request(key, size, 16, start, end, f"buffer {key} ({size} B)"))
    return requests


def network_workload(
    rng: random.Random, steps: int = STEPS, resident: float = 0.1, scale: float = 1.0, apart: bool = False
) -> list[Request]:
    """A chain of `steps` compute blocks on one core; a block's weight and bias stay to the
    end with probability `resident`; sizes are multiplied by `scale`."""
    requests: list[Request] = []

    def add(kind: str, size: int, alignment: int, start: int, end: int, apart_from: frozenset[Hashable]) -> int:
        size = alignment * max(1, math.ceil(size * scale / alignment))
        key = len(requests)
        label = f"block {key} ({kind}, {size} B)"
        requests.append(Request(key, size, alignment, start, min(end, steps - 1), label, apart_from))
        return key

    tile = add("task.buffer", 16 * rng.randint(64, 4096), 16, 0, 0, frozenset())
    for step in range(steps):
        reader = step + 1 if rng.random() < 0.8 else step + rng.randint(2, 6)
        tile = add("task.buffer", 16 * rng.randint(64, 4096), 16, step, reader, frozenset({tile} if apart else ()))
        if rng.random() < 0.3:
            add("partial sums", 128 * rng.randint(1, 64), 128, step, step, frozenset())
        if rng.random() < 0.7:
            last = steps - 1 if rng.random() < resident else step
            add("task.weight", 32 * rng.randint(8, 512), 32, max(0, step - 1), last, frozenset())
            add("task.bias", 16 * rng.randint(1, 64), 16, max(0, step - 1), last, frozenset())
    return requests


def tianjicx_workload(seed: int, steps: int = STEPS, fill: float = 0.9) -> tuple[list[Request], Memory]:
    unscaled = peak_live_bytes(network_workload(random.Random(seed), steps))
    requests = network_workload(random.Random(seed), steps, scale=fill * TIANJICX.capacity / unscaled, apart=True)
    return requests, TIANJICX


def most_live(requests: list[Request]) -> int:
    changes: dict[int, int] = {}
    for r in requests:
        changes[r.start] = changes.get(r.start, 0) + 1
        changes[r.end + 1] = changes.get(r.end + 1, 0) - 1
    live = peak = 0
    for t in sorted(changes):
        live += changes[t]
        peak = max(peak, live)
    return peak


def timed(work: Callable[[], Result], runs: int) -> tuple[float, float, Result]:
    """Min and median CPU seconds of `work`, and what it returned the last time."""
    seconds: list[float] = []
    for _ in range(runs):
        start = time.process_time()
        result = work()
        seconds.append(time.process_time() - start)
    return min(seconds), statistics.median(seconds), result


def apart_pairs(requests: list[Request], addresses: dict[Hashable, int], memory: Memory) -> str:
    """How many `apart_from` pairs ended in different banks."""
    bank_lows = [low for low, _ in memory.bank_ranges]

    def bank(key: Hashable) -> int:
        return max(i for i, low in enumerate(bank_lows) if low <= addresses[key])

    pairs = [(r.key, other) for r in requests for other in r.apart_from]
    if not pairs:
        return ""
    apart = sum(1 for key, other in pairs if bank(key) != bank(other))
    return f", apart_from pairs in different banks: {apart} of {len(pairs)}"


def strategy_addresses(requests: list[Request], memory: Memory, strategy: Strategy) -> dict[Hashable, int] | None:
    """The addresses one strategy finds on its own, or None when it leaves a request out."""
    placement = place(requests, memory, strategy)
    return placement.addresses if placement.complete else None


def bench(name: str, requests: list[Request], memory: Memory, runs: int) -> None:
    bound = peak_live_bytes(requests)
    steps = len({r.start for r in requests})
    print(f"{name}: {len(requests)} requests over {steps} time steps, at most {most_live(requests)} live at once,")
    print(f"  {bound} B peak live in {memory.capacity} B usable")
    print(f"  {'':18s} {'min ms':>8s} {'median ms':>10s}  peak address / peak live")
    rows: list[tuple[str, Callable[[], dict[Hashable, int] | None]]] = [
        (strategy.name, partial(strategy_addresses, requests, memory, strategy)) for strategy in STRATEGIES
    ]
    rows.append(("allocate", lambda: allocate(requests, memory)))
    for label, work in rows:
        fastest, median, addresses = timed(work, runs)
        quality = "no room"
        if addresses is not None:
            check_allocation(requests, addresses, memory)
            peak = max(addresses[r.key] + r.size for r in requests)
            quality = f"{peak / bound:.3f}" + apart_pairs(requests, addresses, memory)
        print(f"  {label:18s} {fastest * 1e3:8.1f} {median * 1e3:10.1f}  {quality}")


def bench_chip(seed: int, runs: int, fill: float) -> None:
    """160 TianjicX cores of 16 blocks each, filled to `fill` of the capacity at their peak."""
    workloads = [tianjicx_workload(seed * CORES + core, steps=16, fill=fill) for core in range(CORES)]
    failed: list[int] = []

    def allocate_all() -> None:
        failed.clear()
        for core, (requests, memory) in enumerate(workloads):
            try:
                allocate(requests, memory)
            except AllocationError:
                failed.append(core)

    fastest, median, _ = timed(allocate_all, runs)
    count = sum(len(requests) for requests, _ in workloads)
    print(
        f"tianjicx chip at {fill:.0%}: {CORES} cores of 16 blocks, {count} requests: {fastest * 1e3:.1f} ms min"
        f" {median * 1e3:.1f} ms median, {len(failed)} cores fail"
    )


def bench_draws(seed: int, draws: int) -> None:
    rng = random.Random(seed)
    seed_ratios: list[float] = []
    ratios: list[float] = []
    start = time.process_time()
    for _ in range(draws):
        requests = network_workload(rng, steps=rng.randint(2, 40), resident=rng.choice((0.0, 1.0)))
        bound = peak_live_bytes(requests)
        memory = Memory(2 * bound)
        seed_ratios.append(place(requests, memory, STRATEGIES[0]).peak / bound)
        addresses = allocate(requests, memory)
        ratios.append(max(addresses[r.key] + r.size for r in requests) / bound)
    seconds = time.process_time() - start
    print(f"{draws} network workloads of 2 to 40 blocks, peak address / peak live ({seconds:.1f} s in all):")
    for label, values in ((STRATEGIES[0].name, seed_ratios), ("allocate", ratios)):
        values.sort()
        over = sum(1 for v in values if v > 1.05)
        p99 = values[min(len(values) - 1, int(0.99 * len(values)))]
        print(
            f"  {label:18s} mean {statistics.mean(values):.4f}  median {statistics.median(values):.4f}"
            f"  p99 {p99:.4f}  max {values[-1]:.4f}  above 1.05: {over}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description="Speed and quality of the local-memory allocator.")
    parser.add_argument("--runs", type=int, default=3, help="timed runs (min and median are shown)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the synthetic workloads")
    parser.add_argument("--draws", type=int, default=1000, help="random network workloads for the quality figures")
    args = parser.parse_args()

    uniform = uniform_workload(random.Random(args.seed))
    bench("uniform", uniform, Memory(2 * peak_live_bytes(uniform)), args.runs)
    flat = flat_workload(random.Random(args.seed))
    bench("flat", flat, Memory(2 * peak_live_bytes(flat)), args.runs)
    network = network_workload(random.Random(args.seed))
    bench("network", network, Memory(2 * peak_live_bytes(network)), args.runs)
    bench("tianjicx", *tianjicx_workload(args.seed), args.runs)
    for fill in (0.7, 0.9):
        bench_chip(args.seed, args.runs, fill)
    if args.draws:
        bench_draws(args.seed, args.draws)


if __name__ == "__main__":
    main()
