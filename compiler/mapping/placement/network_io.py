"""
Network inputs and outputs: each goes on the IO tile (a tile that neither computes nor
stores, like AIE shim tiles; any tile when the target has none) nearest its buffers, in
their first phase (an input) or their last (an output), at a router stage no other one
holds there.
"""

from __future__ import annotations

import numpy as np

from stc.compiler.mapping.block_stages import allowed_stages
from stc.compiler.mapping.placement.cost import cheapest_first, in_rank_order
from stc.compiler.mapping.placement.errors import placement_error
from stc.compiler.mapping.placement.layers import step_and_phase
from stc.compiler.mapping.placement.state import PlacerState
from stc.compiler.mapping.placement.units import Unit
from stc.dialects import task


def place_io(state: PlacerState, unit: Unit) -> None:
    """Give an IO unit its phase and the cheapest free IO tile whose routes obey the area groups."""
    units, cores = state.units, state.cores
    is_input = isinstance(unit.head, task.InputOp)
    unit.phase = units.neighbour_phase(unit, latest=not is_input)
    stage = allowed_stages(unit.head)[0]
    allowed = np.flatnonzero(state.candidates.masks[unit.index])
    rank = cheapest_first(unit, units, cores, state.candidates)
    time = step_and_phase(unit.step, unit.phase, state.matrix.target.max_phases)
    taken = {(u.core, u.phase, allowed_stages(u.head)[0]) for u in units.io if u.core >= 0 and u is not unit}
    busy = bad_routes = 0
    for core in in_rank_order(allowed, rank):
        unit.core = int(core)
        space = cores.spaces[unit.core]
        if (unit.core, unit.phase, stage) in taken or (space, *time, stage) in state.matrix.slots:
            busy += 1
        elif state.routes.ok(unit):
            return
        else:
            bad_routes += 1
    raise placement_error(
        f"no tile suits {unit.describe()} in phase {unit.phase}: of {len(allowed)} "
        f"allowed tiles, {busy} have their {stage.value} stage taken and on {bad_routes} its "
        "routes would break an area group's routing rules"
    )
