"""
The `st-apply` pass: run every `st.mapping` script of a module on its task graph.

Actions run in order. Splits call task-split; puts and takes are checked against the
rules of seed 000 and stc's own (see `stc.compiler.mapping.matrix`): the first violation
stops the pass with a message naming the action, the block, the coordinate and the
numbers. Afterwards every placed block carries its coordinate, storage blocks a phase
range, and area-group members the names of their groups:

```mlir
%w = task.weight 1 #task.random<1> : tensor<32x1x1x32xi8>
    {st.coord = #st.coord<(0, 0, 0, 0), (0, 0 to 1, memory)>}
```

The mapping is then marked `applied`, and a second run leaves it alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from stc.compiler.mapping.actions import apply_mapping
from stc.dialects.st import MappingOp


@dataclass(frozen=True)
class StApplyPass(ModulePass):
    """Execute the module's `st.mapping` scripts. No options."""

    name = "st-apply"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for mapping in [child for child in op.ops if isinstance(child, MappingOp)]:
            apply_mapping(mapping)
