"""
The `task-split` pass: TianjicX's `split_task` and `split_group` actions (seed 000).

A compute block is cut into a grid of pieces along its output rows (y), output columns
(x), output channels (f) and reduced input channels (r, conv and fc only). Each piece
reads its own input buffers, assembled from the original input buffer's producers (with
halo rows and columns for windowed blocks), and its own weight, bias and table blocks,
which hold the same data reference narrowed to the piece's box or replicated whole.
Pieces write their boxes of the original output buffers, which are not split. Along r
the pieces write raw int32 partial sums to one buffer per r-slice, and a `task.add`
joins them, adding the bias once and applying the shift; an r split whose pieces could
overflow int32 is refused. See docs/passes/task-split.md.

```mlir
%c = task.conv 3 %in, %w bias %b pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x32xi8>
%out = task.buffer 4 so %c : tensor<1x8x8x32xi8>
```

split by `2,1,1,1` becomes two convs reading 5-row blocks of the input (two halo rows),
each with its own replica of the weight and bias:

```mlir
%in = task.buffer 7 sic %x[0:1, 0:5, 0:8, 0:32] : tensor<1x5x8x32xi8>
%w = task.weight 8 #task.random<1> : tensor<32x3x3x32xi8>
%b = task.bias 9 #task.random<2> : tensor<32xi32>
%c = task.conv 10 %in, %w bias %b pad [1, 0, 1, 1] shift 9 : tensor<1x4x8x32xi8>
%in_1 = task.buffer 11 sic %x[0:1, 3:8, 0:8, 0:32] : tensor<1x5x8x32xi8>
...
%c_1 = task.conv 14 %in_1, %w_1 bias %b_1 pad [0, 1, 1, 1] shift 9 : tensor<1x4x8x32xi8>
%out = task.buffer 4 so %c, %c_1[0:1, 0:4, 0:8, 0:32] at [0, 4, 0, 0] : tensor<1x8x8x32xi8>
```
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.targets.hardware import load_target
from stc.compiler.tiling.fit import split_module_to_fit
from stc.compiler.tiling.split import named_twice_at, split_module


def check_integers(option: str, values: Sequence[int]) -> None:
    """Refuse booleans, which the option parser hands over as integers (true is 1)."""
    if any(isinstance(value, bool) for value in values):
        written = ",".join(str(value).lower() for value in values)
        raise PassFailedException(f"task-split: `{option}` takes integers, got {written}")


@dataclass(frozen=True)
class TaskSplitPass(ModulePass):
    """
    Split compute blocks of the module's task graphs (TianjicX split_task / split_group).

    Options:

    - task: the id of one block to split (split_task).
    - tasks: the ids of blocks to split in order, all by the same vector (split_group); an
      id may name a block an earlier split of the same run created.
    - vector: split counts ny,nx,nf,nr (or ny,nx,nf,nr,1,1).
    - fit: a hardware target (preset name or TOML path): split every block whose input
      storage exceeds a core's local memory by the smallest vector whose pieces fit, then
      the partial-sum adds such splits create, until everything fits
      (`stc.compiler.tiling.fit`).

    With no options, every block with a hint `split = array<i64: ny, nx, nf, nr>` is
    split by it, in graph order, and the hint is removed. Each graph the run splits blocks
    of gets `split_created = array<i64: ...>`: the ids of the blocks this run and earlier
    runs created that are still in the graph.
    """

    name = "task-split"

    task: int | None = None
    tasks: tuple[int, ...] = ()
    vector: tuple[int, ...] = ()
    fit: str | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.fit is not None:
            self.split_to_fit(op, self.fit)
            return
        split_module(op, self.task_ids(), self.vector)

    def split_to_fit(self, module: ModuleOp, target_name: str) -> None:
        if self.task is not None or self.tasks or self.vector:
            raise PassFailedException("task-split: `fit` chooses the vectors itself; give no task, tasks or vector")
        split_module_to_fit(module, load_target(target_name))

    def task_ids(self) -> tuple[int, ...]:
        """The ids the options name, after checking the options fit together."""
        if self.task is not None and self.tasks:
            raise PassFailedException("task-split: give `task` or `tasks`, not both")
        task_ids = self.tasks if self.task is None else (self.task,)
        check_integers("tasks" if self.tasks else "task", task_ids)
        check_integers("vector", self.vector)
        if task_ids and not self.vector:
            raise PassFailedException("task-split: `task` and `tasks` need a `vector`")
        if self.vector and not task_ids:
            raise PassFailedException("task-split: `vector` needs `task` or `tasks`; hints carry their own vectors")
        if (index := named_twice_at(task_ids)) is not None:
            raise PassFailedException(f"task-split: block {task_ids[index]} is named twice in `tasks`")
        return task_ids
