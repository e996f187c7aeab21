"""
Greedy placement, one unit at a time: a unit takes the first core, in its strategy's
order, that it may take, whose stage is free and memory large enough in the phase, and
from which its routes to the units already placed obey the area groups; it tries its
phases in the order of `PhasePlan.candidates`, and in each the cores with room for its
held input buffers in the earlier phases first (`holds`). The `greedy` strategy tries the cheapest
cores first (`cost.cheapest_first`), then improves the cores by annealing and places the
network inputs and outputs again.
"""

from __future__ import annotations

import random

import numpy as np
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.mapping.placement.annealing import Annealing
from stc.compiler.mapping.placement.cost import cheapest_first, in_rank_order
from stc.compiler.mapping.placement.errors import NoRoom, placement_error
from stc.compiler.mapping.placement.network_io import place_io
from stc.compiler.mapping.placement.phases import Run
from stc.compiler.mapping.placement.state import PlacerState
from stc.compiler.mapping.placement.strategy import Strategy
from stc.compiler.mapping.placement.units import Unit
from stc.dialects.st import format_space


def place_greedily(state: PlacerState, unit: Unit, strategy: Strategy) -> None:
    """Give a compute or storage unit its core and phase; see the module docstring."""
    plan = state.phases
    runs = plan.candidates(unit, plan.placed, state.layers.changes.get(unit.step, []))
    if not runs:
        raise placement_error(plan.conflict(unit, plan.placed))
    allowed = state.candidates.masks[unit.index]
    rank = strategy.rank(state, unit)
    bad_routes = 0
    for phase, _ in runs:
        layer = state.layers.at(unit.step, phase)
        feasible = allowed & layer.stage_free(unit.kind) & (layer.memory >= unit.memory)
        reservation = state.holds.wanted(unit, phase)
        roomy = feasible & state.holds.room(state.layers, unit.step, reservation)
        for cores, reserved in ((roomy, reservation), (feasible & ~roomy, [])):
            for core in in_rank_order(np.flatnonzero(cores), rank):
                unit.core, unit.phase = int(core), phase
                if state.routes.ok(unit):
                    layer.take(unit, unit.core)
                    state.holds.keep(state.layers, unit, reserved)
                    if unit.computes:
                        plan.placed[unit.head.task_id] = phase
                    return
                bad_routes += 1
        unit.core = unit.phase = -1
    raise nothing_fits(state, unit, runs, bad_routes)


def nothing_fits(state: PlacerState, unit: Unit, runs: list[Run], bad_routes: int) -> PassFailedException:
    """What the cores a unit may take lack in its phases: room for its memory, a free stage,
    routes that obey the area groups; `NoRoom` unless the unit is larger than a core."""
    allowed = state.candidates.masks[unit.index]
    capacity = int(state.cores.capacity[allowed].max())
    what = f"{unit.describe()} needs {unit.memory} B of local memory"
    if unit.memory > capacity:
        return placement_error(f"{what}, more than the {capacity} B a core holds; split it further")
    stage_full = memory_full = 0
    best = (-1, 0, 0)
    for run in runs:
        layer = state.layers.at(unit.step, run.phase)
        free = allowed & layer.stage_free(unit.kind)
        stage_full += int((allowed & ~free).sum()) * run.count
        memory_full += int((free & (layer.memory < unit.memory)).sum()) * run.count
        if free.any():
            core = int(np.flatnonzero(free)[np.argmax(layer.memory[free])])
            best = max(best, (int(layer.memory[core]), core, run.run[1]))
    first, last = min(run.run[0] for run in runs), max(run.run[1] for run in runs)
    where = f"phase {first}" if first == last else f"phases {first} to {last}"
    stage = {"axon": "axon", "soma": "soma1 and soma2", "storage": "memory"}[unit.kind]
    text = (
        f"{what} but no allowed core has room in {where}: {stage} stage taken on "
        f"{stage_full} core-phases, too little free memory on {memory_full}"
    )
    room, core, phase = best
    if room >= 0:
        text += f" (at most {room} B free, core {format_space(state.cores.spaces[core])} phase {phase})"
    if bad_routes:
        text += f"; on {bad_routes} others its routes would break an area group's routing rules"
    return NoRoom(text)


class Greedy(Strategy):
    """Cheapest cores first, then simulated annealing (`iterations` moves, seeded)."""

    def __init__(self, seed: int, iterations: int):
        self.rng = random.Random(seed)
        self.iterations = iterations

    def rank(self, state: PlacerState, unit: Unit) -> np.ndarray:
        return cheapest_first(unit, state.units, state.cores, state.candidates)

    def improve(self, state: PlacerState) -> None:
        """Anneal, then place the network inputs and outputs again next to their buffers' new cores."""
        Annealing(state, self.rng, self.iterations).run()
        for unit in state.units.io:
            place_io(state, unit)
