"""
`isa.core`, one core's instruction stream, and what every instruction shares: the
`Instruction` base class and `isa.sync`, which ends a phase.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import I64, IntegerAttr, i64
from xdsl.ir import Attribute, Operation, Region
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    prop_def,
    region_def,
    traits_def,
)
from xdsl.traits import HasParent, NoTerminator
from xdsl.utils.exceptions import VerifyException

from stc.dialects.created import filled
from stc.dialects.integers import i64_array, i64_attr
from stc.dialects.isa.access import Access
from stc.dialects.isa.attrs import Coord, CoreCoord, format_coord, i64_array_def, ints
from stc.dialects.isa.base import held_by_program, single_block_region
from stc.dialects.syntax import Body, IntValue


@irdl_op_definition
class CoreOp(IRDLOperation):
    """
    The program of one core, at `(y, x)` on the target's mesh. Its instructions run in
    order; `isa.sync p` ends phase p, and every phase a core uses must be ended.

    ```mlir
    isa.core (0, 1) {
      isa.dma_load sizes [512] from global 0 to local 0
      isa.sync 0
      isa.relu 0 : tensor<1x4x8x16xi8> -> 512 : tensor<1x4x8x16xi8>
      isa.sync 1
    }
    ```
    """

    name = "isa.core"
    coord_ = i64_array_def("coord", prop_name="coord")
    body = region_def("single_block")
    traits = held_by_program(NoTerminator())
    assembly_format = "custom<CoreCoord>($coord) attr-dict-with-keyword custom<Body>($body)"
    custom_directives = (CoreCoord, Body)

    def __init__(self, coord: Coord, body: Region | Sequence[Operation] = ()):
        super().__init__(properties={"coord": i64_array(coord)}, regions=[single_block_region(body)])

    @property
    def coord(self) -> Coord:
        y, x = ints(self.coord_)
        return y, x

    def phases(self) -> list[list[Instruction]]:
        """The instructions of each phase, without the syncs that end them."""
        phases: list[list[Instruction]] = [[]]
        for op in self.body.block.ops:
            if isinstance(op, SyncOp):
                phases.append([])
            elif isinstance(op, Instruction):
                phases[-1].append(op)
        return phases[:-1]

    def numbered_instructions(self) -> list[tuple[int, int, Instruction]]:
        """(phase, position in the core, instruction) of every instruction but the syncs."""
        numbered: list[tuple[int, int, Instruction]] = []
        phase = 0
        for index, op in enumerate(self.body.block.ops):
            if isinstance(op, SyncOp):
                phase += 1
            elif isinstance(op, Instruction):
                numbered.append((phase, index, op))
        return numbered

    def verify_(self) -> None:
        coord = ints(self.coord_)
        if len(coord) != 2 or min(coord) < 0:
            raise VerifyException(f"isa.core: a coordinate is (y, x) with y, x >= 0, got {list(coord)}")
        name = f"core {format_coord(coord)}"
        phase = 0
        for op in self.body.block.ops:
            if not isinstance(op, Instruction):
                raise VerifyException(f"{name} holds instructions, not {op.name}")
            if not isinstance(op, SyncOp):
                continue
            if op.phase_value != phase:
                raise VerifyException(f"{name}: isa.sync {op.phase_value} ends phase {phase}; syncs count up from 0")
            phase += 1
        if (last := self.body.block.last_op) is not None and not isinstance(last, SyncOp):
            raise VerifyException(f"{name}: phase {phase} is not ended by isa.sync {phase}")


def where(coord: Coord, phase: int, index: int, op: Operation) -> str:
    """How diagnostics name an instruction: its core, phase and position."""
    return f"core {format_coord(coord)}, phase {phase}, #{index} {op.name}"


class Instruction(IRDLOperation):
    """An instruction of a core's program."""

    traits = traits_def(HasParent(CoreOp))

    COMPUTES: ClassVar[bool] = False
    """Whether it runs on the core's compute units, its MAC array or vector unit (not
    allowed on tiles that do not compute)."""

    def __init__(self, *, properties: Mapping[str, Attribute | None]):
        """`IRDLOperation.__init__` for an op of properties alone (None ones left out),
        without its argument lists (`created`): isa-lower builds one per instruction,
        151,200 transfers for a searched ResNet-18 on tianjicx."""
        filled(self, properties={name: value for name, value in properties.items() if value is not None})

    def site(self) -> str:
        """Where the instruction is, as diagnostics name it: its core, phase and position
        when it sits in a core with a valid coordinate, else just its name."""
        core = self.parent_op()
        if not isinstance(core, CoreOp) or core.coord_.elt_type != i64 or len(coord := ints(core.coord_)) != 2:
            return self.name
        for phase, index, op in core.numbered_instructions():
            if op is self:
                return where((coord[0], coord[1]), phase, index, self)
        return self.name

    def error(self, message: str) -> VerifyException:
        """A verifier error that names the instruction's site (looked up only on failure)."""
        return VerifyException(f"{self.site()}: {message}")

    def local_accesses(self) -> list[Access]:
        """The byte ranges of local memory it reads or writes."""
        return []

    def global_accesses(self) -> list[Access]:
        """The byte ranges of global memory it reads or writes."""
        return []


@irdl_op_definition
class SyncOp(Instruction):
    """
    The end of a phase: the core waits until every core has ended it.

    ```mlir
    isa.sync 0
    ```
    """

    name = "isa.sync"
    phase = prop_def(IntegerAttr[I64])
    assembly_format = "custom<IntValue>($phase) attr-dict"
    custom_directives = (IntValue,)

    def __init__(self, phase: int):
        super().__init__(properties={"phase": i64_attr(phase)})

    @property
    def phase_value(self) -> int:
        return self.phase.value.data
