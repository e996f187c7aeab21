"""
The `stc-pipeline` pass: a network's whole path from a task graph to per-core programs
on a target, as one named pipeline:

    task-split{fit=T} → task-layer-group{target=T} → st-place{target=T} → st-route
        → st-lmem-alloc → isa-lower

On a one-core target (tpu-like) task-layer-group searches and slices the groups; on a
many-core target it makes every layer one group, and st-place holds the buffers between
layers on their readers' cores where local memory allows. `group=none` leaves it out, so
that every layer's activations go through global memory (layer by layer). With
`search=true`, and by default on set-8x8, st-search{target=T} replaces task-split,
task-layer-group and st-place: its schedule splits and places every layer itself.

    stc-opt net.mlir -p 'stc-pipeline{target=tianjicx}' -o net.isa.mlir
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from stc.compiler.heap import apply_in_turn
from stc.passes.isa_lower import IsaLowerPass
from stc.passes.st_lmem_alloc import StLmemAllocPass
from stc.passes.st_place import StPlacePass
from stc.passes.st_route import StRoutePass
from stc.passes.st_search import StSearchPass
from stc.passes.task_layer_group import TaskLayerGroupPass
from stc.passes.task_split import TaskSplitPass

SEARCHED_BY_DEFAULT = frozenset({"set-8x8"})
"""The targets whose default path is st-search: its schedules run faster on the machine and
compile within the rule's limit (docs/passes/st-search.md, "The default, decided again
(stop 31)")."""

DEFAULT_ROUNDS = 2
"""The searched default's budget: one chain of so many rounds that returns to its best tree
only at the end (docs/passes/st-search.md, "The default, decided again (stop 31)")."""


@dataclass(frozen=True)
class StcPipelinePass(ModulePass):
    """
    Compile every task graph of the module for a target.

    Options:

    - target: the hardware target (preset name or TOML path; default tianjicx).
    - seed: st-place's seed, or st-search's where it searches (default 0).
    - iterations: st-place's annealing moves (default 20000).
    - group: task-layer-group's strategy, "best" (default: the cheaper of the DP's and the
      greedy search's groups), "dp" or "greedy", or "none" for layer by layer (on a
      many-core target any value but "none" makes one group). It, `iterations`, `pipeline`
      and `delay` are st-place's path's: on set-8x8 they need `search=false`.
    - pipeline: task-layer-group's software pipelining of slices on a target whose DMA
      overlaps compute (default true).
    - delay: task-layer-group's delayed stores of group outputs on such a target, and
      st-place's late spills of a many-core group (default true).
    - search: st-search instead of task-split, task-layer-group and st-place. Unset, the
      target decides: set-8x8 searches (`SEARCHED_BY_DEFAULT`: ResNet-18 0.115 × st-place's
      cycles, compiled within the rule's limit), the others place; true runs st-search's
      defaults (two chains of 25 rounds per layer), false places
      (docs/passes/st-search.md, "The default, decided again (stop 31)").
    - rounds: st-search's annealing rounds per chain (default: 25 per layer under
      `search=true`, `DEFAULT_ROUNDS` where the search is the target's default).
    """

    name = "stc-pipeline"

    target: str = "tianjicx"
    seed: int = 0
    iterations: int = 20000
    group: str = "best"
    pipeline: bool = True
    delay: bool = True
    search: bool | None = None
    rounds: int | None = None

    def passes(self) -> list[ModulePass]:
        if self.search or (self.search is None and self.target in SEARCHED_BY_DEFAULT):
            return [self.st_search(), StRoutePass(), StLmemAllocPass(), IsaLowerPass(check=False)]
        grouping = TaskLayerGroupPass(target=self.target, strategy=self.group, pipeline=self.pipeline, delay=self.delay)
        return [
            TaskSplitPass(fit=self.target),
            *([grouping] if self.group != "none" else []),
            StPlacePass(seed=self.seed, iterations=self.iterations, target=self.target, delay=self.delay),
            StRoutePass(),
            StLmemAllocPass(),
            IsaLowerPass(check=False),
        ]

    def st_search(self) -> StSearchPass:
        """st-search's defaults under `search=true`; as the default, its own budget: one
        chain of `rounds` (`DEFAULT_ROUNDS`) that returns to its best tree only at the end,
        not polished (`polish.py`: ResNet-18 on set-8x8 compiled 0.15 s slower with it)."""
        if self.search:
            return StSearchPass(target=self.target, seed=self.seed, rounds=self.rounds)
        rounds = DEFAULT_ROUNDS if self.rounds is None else self.rounds
        return StSearchPass(target=self.target, seed=self.seed, rounds=rounds, chains=1, every=1.0, polish=False)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_in_turn(self.passes(), ctx, op)
