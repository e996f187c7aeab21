"""
Time of `task-split`, in CPU seconds (median of several runs):

- a whole zoo network with every compute block split by up to `limit` along each dimension
  it has and can cut (ResNet-50 by up to 2,2,2,2), then the module verified;
- ResNet-18 split by up to 4,4,4,4;
- two chained relus over 1xHx2x2, each split into H one-row pieces by split_group, for
  H = 256 ... 2048: the time per piece stays flat when the cost is linear in the pieces.

    python -m stc.tools.bench_task_split [--network resnet50] [--limit 2] [--runs 3]

Ops per second count the ops of the split module per second of split plus verification.
"""

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial

from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, i64
from xdsl.parser import Parser

from stc.compiler.ir_files import stc_context
from stc.compiler.tiling.pieces import axis_lengths
from stc.compiler.tiling.split import split_group
from stc.compiler.zoo import build_network
from stc.dialects import task
from stc.passes.task_split import TaskSplitPass

CHAIN_HEIGHTS = (256, 512, 1024, 2048)


def hinted_network(name: str, limit: int) -> ModuleOp:
    """The network with a split hint on every compute block: `limit` pieces where possible."""
    module = build_network(name)
    for op in module.walk():
        if not isinstance(op, task.ComputeBlock):
            continue
        vector = [1 if length is None else min(length, limit) for length in axis_lengths(op).values()]
        op.attributes["split"] = DenseArrayBase.from_list(i64, vector)
    return module


def relu_chain(height: int) -> ModuleOp:
    """Two relus (ids 2 and 4) in a row over a 1 x height x 2 x 2 input."""
    typ = f"tensor<1x{height}x2x2xi8>"
    text = f"""task.graph @chain {{
      %x = task.input 0 "x" : {typ}
      %a = task.buffer 1 si %x : {typ}
      %r = task.relu 2 %a : {typ}
      %b = task.buffer 3 si %r : {typ}
      %s = task.relu 4 %b : {typ}
      %out = task.buffer 5 so %s : {typ}
      task.output 6 "y" %out
    }}"""
    return Parser(stc_context(), text).parse_module()


def cpu_time(work: Callable[[], object]) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def count_ops(module: ModuleOp) -> int:
    return sum(1 for op in module.walk() if isinstance(op, task.TaskOp))


def bench_network(name: str, limit: int, runs: int) -> None:
    ctx = stc_context()
    original = build_network(name)
    before = count_ops(original)
    blocks = sum(1 for op in original.walk() if isinstance(op, task.ComputeBlock))
    after = before
    split_times: list[float] = []
    verify_times: list[float] = []
    for _ in range(runs):
        module = hinted_network(name, limit)
        split_times.append(cpu_time(partial(TaskSplitPass().apply, ctx, module)))
        verify_times.append(cpu_time(module.verify))
        after = count_ops(module)
    split, verify = statistics.median(split_times), statistics.median(verify_times)
    total = split + verify
    print(f"{name}: {blocks} compute blocks split by up to {limit} per dimension")
    print(f"  ops: {before} before, {after} after")
    print(f"  split {split:.3f} s + verify {verify:.3f} s = {total:.3f} s, {after / total:.0f} ops/s")


def bench_chain(runs: int) -> None:
    print("two chained relus over 1xHx2x2, each split into H pieces (split_group):")
    for height in CHAIN_HEIGHTS:
        times: list[float] = []
        for _ in range(runs):
            graph = next(op for op in relu_chain(height).ops if isinstance(op, task.GraphOp))
            times.append(cpu_time(partial(split_group, graph, [2, 4], (height, 1, 1, 1))))
        seconds = statistics.median(times)
        print(f"  H={height:5d}: {seconds:.3f} s, {seconds / (2 * height) * 1e6:.0f} us per piece")


def main() -> None:
    parser = argparse.ArgumentParser(description="Time of task-split (CPU seconds, median of several runs).")
    parser.add_argument("--network", default="resnet50", help="zoo network name")
    parser.add_argument("--limit", type=int, default=2, help="most pieces along each dimension")
    parser.add_argument("--runs", type=int, default=3, help="timed runs (the median is shown)")
    args = parser.parse_args()

    bench_network(args.network, args.limit, args.runs)
    bench_network("resnet18", 4, args.runs)
    bench_chain(args.runs)


if __name__ == "__main__":
    main()
