"""
The `st-route` pass: an XY route for every producer→consumer edge of every placed task
graph, kept on the consumer as `st.routes`, one `#st.route` per producer, and checked
against the routing columns of the area-group table.

```mlir
%b = task.buffer 5 si %c : tensor<1x8x8x32xi8> {st.coord = ...,
    st.routes = [#st.route<from 4, 2048 bytes, [(0, 0, 0, 0), (0, 0, 0, 1)]>]}
```
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from stc.compiler.mapping.actions import apply_mapping
from stc.compiler.mapping.routing import route_graph
from stc.dialects.st import MappingOp


@dataclass(frozen=True)
class StRoutePass(ModulePass):
    """Route the edges of every mapped task graph. No options."""

    name = "st-route"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for mapping in [child for child in op.ops if isinstance(child, MappingOp)]:
            route_graph(apply_mapping(mapping))
