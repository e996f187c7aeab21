"""
Where one block is or goes in a mapping: a core, a step, its phases as ranges and a stage.

    Place.at((0, 0, 2, 3), 0, 1, Stage.MEMORY, last_phase=3).text()
    # '(0, 0, 2, 3), (0, 1 to 3, memory)'
"""

from __future__ import annotations

from attrs import frozen

from stc.compiler.mapping.phase_ranges import Ranges, format_ranges, holds
from stc.dialects import task
from stc.dialects.st import CoordAttr, Space, Stage, format_coord, format_space


@frozen
class Place:
    """Where one block is or goes: a core, a step, its phases as ranges (several phases, even
    several ranges, for storage) and a stage."""

    space: Space
    step: int
    ranges: Ranges
    stage: Stage

    @classmethod
    def at(cls, space: Space, step: int, phase: int, stage: Stage, last_phase: int | None = None) -> Place:
        return cls(space, step, ((phase, phase if last_phase is None else last_phase),), stage)

    @property
    def phase(self) -> int:
        return self.ranges[0][0]

    @property
    def last_phase(self) -> int:
        return self.ranges[-1][1]

    @property
    def contiguous(self) -> bool:
        return len(self.ranges) == 1

    def holds(self, phase: int) -> bool:
        return holds(self.ranges, phase)

    def coord(self) -> CoordAttr:
        return CoordAttr(self.space, self.step, self.phase, self.stage, self.last_phase)

    def text(self) -> str:
        """`(0, 0, 2, 3), (0, 1 to 3, memory)`; phases that are not one range are listed."""
        if self.contiguous:
            return format_coord(self.space, self.step, self.phase, self.last_phase, self.stage)
        phases = format_ranges(self.ranges)
        return f"{format_space(self.space)}, ({self.step}, phases {phases}, {self.stage.value})"


Put = tuple[task.TaskOp, Place]
"""A block and where to put it."""
