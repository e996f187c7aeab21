"""
The `task-split` pass: TianjicX's `split_task` and `split_group` (seed 000) on the
module's task graphs, by explicit vectors, by hints, or until every block fits a core
(`fit`). The algorithm is `stc.compiler.tiling.split`; see docs/passes/task-split.md.

    stc-opt net.mlir -p 'task-split{task=3 vector=2,1,1,1}'
    stc-opt net.mlir -p 'task-split{fit=tianjicx}'
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
    - vector: split counts ny,nx,nf,nr; nn,ny,nx,nf,nr to split the batch too; or the
      seed's ny,nx,nf,nr,1,1.
    - fit: a hardware target (preset name or TOML path): split every block whose input
      storage exceeds a core's local memory by the smallest vector whose pieces fit (the
      batch first on many-core targets), then the partial-sum adds such splits create,
      until everything fits (`stc.compiler.tiling.fit`).

    With no options, every block with a hint `split = array<i64: ny, nx, nf, nr>` is
    split by it, in graph order, and the hint is removed. Each graph the run splits blocks
    of gets `split_created = array<i64: ...>`: the ids of the blocks this run and earlier
    runs created that are still in the graph. `fit` adds none of its own, and only drops
    from an earlier list the blocks it erased.
    """

    name = "task-split"

    task: int | None = None
    tasks: tuple[int, ...] = ()
    vector: tuple[int, ...] = ()
    fit: str | None = None

    def __post_init__(self) -> None:
        # A frozen pass is hashable: `vector=[2, 1, 1, 1]` is kept as a tuple.
        object.__setattr__(self, "tasks", tuple(self.tasks))
        object.__setattr__(self, "vector", tuple(self.vector))

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
