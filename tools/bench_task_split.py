"""
Time of `task-split` on a whole zoo network: every compute block split by 2 along each
dimension it has and can cut (ny, nx, nf, nr up to 2,2,2,2), then the module verified.

    python -m stc.tools.bench_task_split [--network resnet50] [--limit 2] [--runs 3]

Ops per second count the ops of the split module per second of split plus verification.
"""

import argparse
import statistics
import time

from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, i64

from stc.compiler.ir_files import stc_context
from stc.compiler.zoo import build_network
from stc.dialects import task
from stc.passes.task_split import TaskSplitPass, axis_lengths


def hinted_network(name: str, limit: int) -> ModuleOp:
    """The network with a split hint on every compute block: `limit` pieces where possible."""
    module = build_network(name)
    for op in module.walk():
        if not isinstance(op, task.ComputeBlock):
            continue
        vector = [1 if length is None else min(length, limit) for length in axis_lengths(op).values()]
        op.attributes["split"] = DenseArrayBase.from_list(i64, vector)
    return module


def count_ops(module: ModuleOp) -> int:
    return sum(1 for op in module.walk() if isinstance(op, task.TaskOp))


def main() -> None:
    parser = argparse.ArgumentParser(description="Time of task-split on a whole zoo network.")
    parser.add_argument("--network", default="resnet50", help="zoo network name")
    parser.add_argument("--limit", type=int, default=2, help="most pieces along each dimension")
    parser.add_argument("--runs", type=int, default=3, help="timed runs (the median is shown)")
    args = parser.parse_args()

    ctx = stc_context()
    original = build_network(args.network)
    before = count_ops(original)
    blocks = sum(1 for op in original.walk() if isinstance(op, task.ComputeBlock))
    after = before
    split_times: list[float] = []
    verify_times: list[float] = []
    for _ in range(args.runs):
        module = hinted_network(args.network, args.limit)
        start = time.perf_counter()
        TaskSplitPass().apply(ctx, module)
        split_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        module.verify()
        verify_times.append(time.perf_counter() - start)
        after = count_ops(module)
    split, verify = statistics.median(split_times), statistics.median(verify_times)
    print(f"{args.network}: {blocks} compute blocks split by up to {args.limit} per dimension")
    print(f"ops: {before} before, {after} after")
    print(f"split {split:.3f} s + verify {verify:.3f} s = {split + verify:.3f} s (median of {args.runs} runs)")
    print(f"{after / (split + verify):.0f} ops/s")


if __name__ == "__main__":
    main()
