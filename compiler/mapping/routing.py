"""
XY routes for every producer→consumer edge of a placed task graph, kept on the consumer
as `st.routes` (one `#st.route` per producer) and checked against the routing columns of
the area-group table.

```mlir
%b = task.buffer 5 si %c : tensor<1x8x8x32xi8> {st.coord = ...,
    st.routes = [#st.route<from 4, 2048 bytes, [(0, 0, 0, 0), (0, 0, 0, 1)]>]}
```
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.mapping.action_errors import describe
from stc.compiler.mapping.matrix import STMatrix
from stc.compiler.mapping.nets import graph_nets
from stc.dialects.st import ROUTES, RouteAttr, format_space


def route_graph(matrix: STMatrix) -> None:
    """Route every net of the matrix's graph and record the routes on their consumers."""
    check_placed(matrix)
    routes: dict[int, list[RouteAttr]] = {}
    for net in graph_nets(matrix.graph):
        source, destination = matrix.places[net.source].space, matrix.places[net.destination].space
        path = matrix.mesh.xy_path(source, destination)
        for group in matrix.groups:
            nodes = matrix.nodes(group)
            if problem := group.route_problem(net.source in nodes, net.destination in nodes, path):
                sender = f"{describe(matrix.blocks[net.source])} at {format_space(source)}"
                receiver = f"{describe(matrix.blocks[net.destination])} at {format_space(destination)}"
                raise PassFailedException(f"st-route: route from {sender} to {receiver} ({net.nbytes} B): {problem}")
        routes.setdefault(net.destination, []).append(RouteAttr.of(net.source, net.nbytes, path))
    for op in matrix.graph.tasks():
        op.attributes.pop(ROUTES, None)
        if op.task_id in routes:
            op.attributes[ROUTES] = ArrayAttr(routes[op.task_id])


def check_placed(matrix: STMatrix, shown: int = 5) -> None:
    """Every block of the graph has a place, or the error names the unplaced ones."""
    unplaced = [op for op in matrix.graph.tasks() if op.task_id not in matrix.places]
    if not unplaced:
        return
    names = ", ".join(f"{op.task_id} ({op.name})" for op in unplaced[:shown])
    more = ", ..." if len(unplaced) > shown else ""
    raise PassFailedException(
        f"st-route: {len(unplaced)} of {len(matrix.blocks)} blocks of task.graph @{matrix.graph.graph_name} "
        f"are not placed: {names}{more}; run st-place first"
    )
