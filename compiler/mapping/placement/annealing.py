"""
Simulated annealing of a greedy placement: a bounded number of moves and swaps of units
within their phase, each taken when the cost does not rise and with probability
exp(−Δ/T) when it does, T falling linearly from the median net's bytes to 0. A unit takes
the bytes it reserves for held buffers in earlier phases along (`holds`), and a producer
moving changes the reservations it writes into in place; a move after which they do not
fit is refused. The moves are drawn from a seeded generator, so the
result is deterministic, and the best placement seen is kept. Pinned units and network
inputs and outputs do not move.
"""

from __future__ import annotations

import math
import random

import numpy as np

from stc.compiler.mapping.placement.cost import move_cost
from stc.compiler.mapping.placement.layers import Layer
from stc.compiler.mapping.placement.state import PlacerState
from stc.compiler.mapping.placement.units import Unit
from stc.compiler.progress import track


class Annealing:
    """The annealing of one placement; see the module docstring."""

    def __init__(self, state: PlacerState, rng: random.Random, iterations: int):
        self.state = state
        self.rng = rng
        self.iterations = iterations

    def run(self) -> None:
        state = self.state
        movable = [u for u in state.units if u.kind != "io" and u.fixed_core is None and u.neighbours]
        if not movable or self.iterations <= 0:
            return
        choices = {u.index: np.flatnonzero(state.candidates.masks[u.index]) for u in movable}
        sizes = sorted(nbytes for u in movable for _, _, nbytes in u.neighbours)
        start_temperature = float(sizes[len(sizes) // 2])
        cost = best = 0.0
        best_cores = [u.core for u in movable]
        for iteration in track(range(self.iterations), "st-place: annealing"):
            unit = movable[self.rng.randrange(len(movable))]
            cores = choices[unit.index]
            target = int(cores[self.rng.randrange(len(cores))])
            if target == unit.core:
                continue
            cost += self.try_move(unit, target, start_temperature * (1 - iteration / self.iterations))
            if cost < best:
                best, best_cores = cost, [u.core for u in movable]
        for unit in movable:
            state.layers.at(unit.step, unit.phase).release(unit, unit.core)
            state.holds.take(unit, unit.core, -1)
        for unit, core in zip(movable, best_cores, strict=True):
            unit.core = core
            state.layers.at(unit.step, unit.phase).take(unit, core)
        for unit in movable:
            state.holds.take(unit, unit.core)
        for unit in movable:
            state.holds.moved(unit)

    def try_move(self, unit: Unit, target: int, temperature: float) -> float:
        """Move `unit` to `target` (swapping with the unit there) if the annealing accepts
        it; return the change of the total cost."""
        state = self.state
        layer = state.layers.at(unit.step, unit.phase)
        partner = self.partner_at(unit, target, layer)
        if partner is False:
            return 0.0
        other = partner if isinstance(partner, Unit) else None
        source = unit.core
        if other is not None and (other.fixed_core is not None or not state.candidates.masks[other.index][source]):
            return 0.0
        free_target = layer.memory[target] + (other.memory if other else 0)
        free_source = layer.memory[source] + unit.memory
        if free_target < unit.memory or (other is not None and free_source < other.memory):
            return 0.0
        delta = move_cost(unit, target, other, state.units, state.cores)
        readers = self.relocate(layer, unit, other, source, target)
        legal = state.routes.ok(unit) and (other is None or state.routes.ok(other))
        legal = legal and all(state.holds.fits(each) for each in (unit, other, *readers))
        accept = delta <= 0 or (temperature > 0 and self.rng.random() < math.exp(-delta / temperature))
        if legal and accept:
            return delta
        self.relocate(layer, unit, other, target, source)
        return 0.0

    def partner_at(self, unit: Unit, core: int, layer: Layer) -> Unit | None | bool:
        """None when the unit's stage is free at `core`, the unit to swap with when it is
        taken by a movable unit, False when it is taken by a pinned block."""
        if unit.kind == "storage" or layer.stage_free(unit.kind)[core]:
            return None
        occupants = [layer.axon[core]] if unit.kind == "axon" else list(layer.soma[core])
        occupant = occupants[self.rng.randrange(len(occupants))]
        return False if occupant < 0 else self.state.units[occupant]

    def relocate(self, layer: Layer, unit: Unit, other: Unit | None, source: int, target: int) -> list[Unit]:
        """Move `unit` from `source` to `target` and `other`, if any, the other way, with
        the bytes they reserve for held buffers in earlier phases; the readers whose
        reservation changed because a producer writing into it in place moved."""
        holds = self.state.holds
        layer.release(unit, source)
        holds.take(unit, source, -1)
        if other is not None:
            layer.release(other, target)
            holds.take(other, target, -1)
            layer.take(other, source)
            holds.take(other, source)
            other.core = source
        layer.take(unit, target)
        holds.take(unit, target)
        unit.core = target
        return holds.moved(unit) + holds.moved(other)
