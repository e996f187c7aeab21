"""
What the parts of the placer share while they place one graph: the matrix, its cores,
the units, where each may go, the phase plan, the room left in every phase, the
route checks and the held input buffers. When
every unit has a core and a phase, `commit` puts them through the matrix.
"""

from __future__ import annotations

from attrs import frozen

from stc.compiler.mapping.block_stages import allowed_stages
from stc.compiler.mapping.matrix import STMatrix
from stc.compiler.mapping.place import Place
from stc.compiler.mapping.placement.candidates import Candidates
from stc.compiler.mapping.placement.cores import Cores
from stc.compiler.mapping.placement.errors import ACTION
from stc.compiler.mapping.placement.holds import Holds
from stc.compiler.mapping.placement.layers import Layers, step_and_phase
from stc.compiler.mapping.placement.phases import PhasePlan
from stc.compiler.mapping.placement.routes import RouteChecks
from stc.compiler.mapping.placement.units import Units
from stc.dialects import task
from stc.dialects.st import Space, Stage


@frozen
class PlacerState:
    """One graph being placed."""

    matrix: STMatrix
    cores: Cores
    units: Units
    candidates: Candidates
    phases: PhasePlan
    layers: Layers
    routes: RouteChecks
    holds: Holds

    def commit(self) -> None:
        """Put every unit through the matrix, which checks all the rules again."""
        span = self.matrix.target.max_phases
        for unit in self.units:
            space = self.cores.spaces[unit.core]
            step, phase = step_and_phase(unit.step, unit.phase, span)
            puts = [(op, Place.at(space, step, phase, self.stage_for(op, space, step, phase))) for op in unit.blocks]
            self.matrix.put(ACTION, puts)

    def stage_for(self, op: task.TaskOp, space: Space, step: int, phase: int) -> Stage:
        """The first of a block's stages that is free on its core, or the first."""
        stages = allowed_stages(op)
        free = [s for s in stages if (space, step, phase, s) not in self.matrix.slots]
        return free[0] if free else stages[0]
