"""
The `st-lmem-alloc` pass: a local-memory address for every block a placed graph keeps on
a core (storage, result tiles, staging areas), from the blocks' lifetimes, as
`stc.compiler.memory.lmem` describes. Deterministic.

    stc-opt placed.mlir -p 'st-lmem-alloc'
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from stc.compiler.mapping.actions import mapped_graphs, mapping_target
from stc.compiler.memory.lmem import allocate_graph


@dataclass(frozen=True)
class StLmemAllocPass(ModulePass):
    """Allocate local memory for every mapped task graph. No options."""

    name = "st-lmem-alloc"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for mapping, graph in mapped_graphs(op, self.name):
            allocate_graph(graph, mapping_target(mapping))
