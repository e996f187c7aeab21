"""
The `task-layer-group` pass: TPU-MLIR's LayerGroup (seed 004). Runs of layers are sliced
along N, then H, so that their intermediate activations stay in local memory; the slices
become task-split pieces, each block gets its group, slice and timestep, and an
`st.mapping` puts it there. The algorithm is `stc.compiler.grouping`; see
docs/passes/task-layer-group.md.

    stc-opt net.mlir -p 'task-layer-group{target=tpu-like strategy=dp}'
    stc-opt net.mlir -p 'task-layer-group{target=tpu-like group=4,6,10 slices=1,2}'
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.grouping.choice import choose_groups, spatial_group
from stc.compiler.grouping.rewrite import write_groups, write_spatial_group
from stc.compiler.targets.hardware import load_target
from stc.dialects import task
from stc.dialects.st import MappingOp


@dataclass(frozen=True)
class TaskLayerGroupPass(ModulePass):
    """
    Group the layers of every task graph. On a one-core target the groups are searched,
    sliced and written with their timesteps as an st.mapping; on a many-core target the
    layers (or the named run) form one group, annotated for st-place, which holds the
    buffers between its members on their readers' cores.

    Options:

    - target: the hardware target (preset name or TOML path; default tpu-like).
    - strategy: the search, "dp" (interval DP over clusters, the default), "greedy" (tail
      to head) or "best" (both, keeping the one whose groups cost fewer cycles).
    - group: the ids of one run of consecutive layers to group instead of searching; the
      other layers run alone.
    - slices: n,h: slice that group so instead of at its coarsest slicing that fits.
    - pipeline: on a target whose DMA overlaps compute, load a group's inputs one
      timestep early where that pays (software pipelining; default true); false loads
      each in its reader's timestep.
    - delay: on such a target, store a group's results that later groups read in the
      timestep after the one making them where that pays (default true); false stores
      each in its own timestep.
    """

    name = "task-layer-group"

    target: str = "tpu-like"
    strategy: str = "dp"
    group: tuple[int, ...] = ()
    slices: tuple[int, ...] = ()
    pipeline: bool = True
    delay: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "group", tuple(self.group))
        object.__setattr__(self, "slices", tuple(self.slices))

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.strategy not in ("dp", "greedy", "best"):
            raise PassFailedException(
                f"task-layer-group: unknown strategy {self.strategy!r}; expected dp, greedy or best"
            )
        if self.slices and (not self.group or len(self.slices) != 2):
            raise PassFailedException("task-layer-group: `slices` is n,h and needs a `group`")
        hardware = load_target(self.target)
        mapped = {mapping.graph_name for mapping in op.ops if isinstance(mapping, MappingOp)}
        for graph in [child for child in op.ops if isinstance(child, task.GraphOp)]:
            if graph.graph_name in mapped:
                raise PassFailedException(
                    f"task-layer-group: task.graph @{graph.graph_name} already has an st.mapping; "
                    "layer groups are made before placement"
                )
            if hardware.mesh.core_count > 1:
                write_spatial_group(graph, spatial_group(graph, hardware, self.group, self.slices))
                continue
            groups = choose_groups(graph, hardware, self.strategy, self.group, self.slices, self.pipeline, self.delay)
            op.body.block.add_op(write_groups(graph, groups, self.target, hardware))
