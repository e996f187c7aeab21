"""
The `isa-lower` pass: every placed, routed and allocated task graph of the module
becomes one `isa.program` (see `stc.compiler.lowering.program`); the graphs and their
mappings are replaced by the programs.

    stc-opt allocated.mlir -p 'isa-lower' -o programs.mlir
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from stc.compiler.lowering.program import lower_graph
from stc.compiler.mapping.actions import check_applied, mapped_graphs, mapping_target


@dataclass(frozen=True)
class IsaLowerPass(ModulePass):
    """
    Lower every mapped task graph to an isa.program.

    Options:

    - check: read an applied mapping's coordinates again with every rule first (default
      true: an edited coordinate is an error; stc-pipeline passes false, its st-route read
      them with every rule just before).
    """

    name = "isa-lower"

    check: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for mapping, graph in mapped_graphs(op, self.name):
            if self.check:
                check_applied(mapping, graph)
            program = lower_graph(graph, mapping_target(mapping), mapping.target_name)
            op.body.block.insert_op_before(program, graph)
            graph.detach()
            mapping.detach()
