"""
`st.mapping`, the mapping script of one task graph on a target, and `ActionOp`, the base
of the actions it holds.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import StringAttr, SymbolNameConstraint, UnitAttr
from xdsl.ir import Block, Operation, Region
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
)
from xdsl.traits import HasParent, IsolatedFromAbove, NoTerminator
from xdsl.utils.exceptions import VerifyException

from stc.compiler.diagnostics import StcError
from stc.compiler.references import referenced_target
from stc.compiler.targets.reading import TargetError
from stc.dialects.st.attrs import COORD, CoordAttr, coord_problem
from stc.dialects.st.local_memory import verify_local_memory
from stc.dialects.syntax import Body
from stc.dialects.task.graph import GraphOp

RELAY_LOADS = "st.relay_loads"
"""The discardable attribute of a mapping whose program relays shared loads
(`GlobalMemory.relay_loads`): st-search sets it where its model priced them so."""


@irdl_op_definition
class MappingOp(IRDLOperation):
    """
    The mapping script of the task graph `@name` on a hardware target: actions executed in
    order by `st-apply`, which then marks the mapping `applied`.

    ```mlir
    st.mapping @tiny target "tianjicx" {
      st.split_task 4 by [2, 1, 1, 1]
      st.put_group_in 17 at (0, 0, 0, 1), (0, 0, axon)
    }
    ```
    """

    name = "st.mapping"
    graph = prop_def(SymbolNameConstraint())
    target = prop_def(StringAttr)
    applied = opt_prop_def(UnitAttr)
    body = region_def("single_block")
    traits = traits_def(NoTerminator(), IsolatedFromAbove())
    assembly_format = "$graph `target` $target (`applied` $applied^)? attr-dict-with-keyword custom<Body>($body)"
    custom_directives = (Body,)

    def __init__(
        self,
        graph: str,
        target: str,
        actions: Region | Sequence[Operation] = (),
        applied: bool = False,
    ):
        body = actions if isinstance(actions, Region) else Region(Block(actions))
        if not body.blocks:
            body.add_block(Block())
        super().__init__(
            properties={
                "graph": StringAttr(graph),
                "target": StringAttr(target),
                "applied": UnitAttr() if applied else None,
            },
            regions=[body],
        )

    @property
    def graph_name(self) -> str:
        return self.graph.data

    @property
    def target_name(self) -> str:
        return self.target.data

    def find_graph(self) -> GraphOp | None:
        """The mapped `task.graph`, a sibling of this op."""
        siblings = self.parent.ops if self.parent is not None else ()
        return next(
            (op for op in siblings if isinstance(op, GraphOp) and op.graph_name == self.graph_name),
            None,
        )

    def verify_(self) -> None:
        prefix = f"st.mapping @{self.graph_name}"
        try:
            target = referenced_target(self.target_name, prefix)
        except TargetError as error:
            raise VerifyException(f"{prefix}: {error}") from None
        except StcError as error:  # a target file outside the IR file's directory
            raise VerifyException(str(error)) from None
        for action in self.body.block.ops:
            if not isinstance(action, ActionOp):
                raise VerifyException(f"{prefix} holds only st actions, got {action.name}")
            for coord in action.coords():
                if problem := coord_problem(target, coord):
                    raise VerifyException(f"{prefix}: {action.name} at {coord.text()}: {problem}")
        graph = self.find_graph()
        if graph is None:
            raise VerifyException(f"{prefix}: the module has no task.graph @{self.graph_name}")
        placed: set[int] = set()  # the coordinates found places of the target (blocks share them)
        for op in graph.tasks():
            coord = op.attributes.get(COORD)
            if coord is None or id(coord) in placed:
                continue
            if not isinstance(coord, CoordAttr):
                raise VerifyException(f"{op.name} {op.task_id}: {COORD} must be a #st.coord, got {coord}")
            if problem := coord_problem(target, coord):
                raise VerifyException(f"{op.name} {op.task_id} at {coord.text()}: {problem}")
            placed.add(id(coord))
        try:
            verify_local_memory(graph, target)
        except VerifyException as error:
            raise VerifyException(f"{prefix}: local memory: {error}") from None


class ActionOp(IRDLOperation):
    """An action of a mapping script."""

    traits = traits_def(HasParent(MappingOp))

    def coords(self) -> list[CoordAttr]:
        """The coordinates the action names."""
        return [value for value in self.properties.values() if isinstance(value, CoordAttr)]

    def verify_(self) -> None:
        for coord in self.coords():
            if coord.is_range:
                raise VerifyException(
                    f"{self.name}: coordinate {coord.text()} must be one phase; give an end coordinate"
                )
