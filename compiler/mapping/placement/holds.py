"""
The room the placer keeps for held buffers. A buffer whose producers run in earlier
phases than its reader may be held on its reader's core from its first producer's phase,
so that each producer sends its part there as it makes it instead of storing it to
global memory (a layer group's intermediates on a many-core target,
`stc.compiler.grouping.hold`). When a reader's unit takes a core, the placer takes the
bytes of its held input buffers on that core in those earlier phases too, preferring the
cores that have room for them; where none has, the unit is placed without them and the
buffer waits in global memory as it would layer by layer.

```
conv 4 on core (0, 1) in phase 0, relu 6 reads buffer 5 (12544 B), filled by conv 4:
relu 6's unit tries the cores with 12544 B free in phase 0 first, and takes them there
```
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from stc.compiler.mapping.matrix import STMatrix
from stc.compiler.mapping.placement.layers import Layer, Layers, step_and_phase
from stc.compiler.mapping.placement.units import Unit, Units

Reservation = list[tuple[int, int]]
"""(phase as the phase plan counts it, bytes) for every earlier phase a unit holds bytes in."""


class Holds:
    """The held input buffers of every compute unit, and the room they take."""

    def __init__(self, matrix: STMatrix, units: Units, held: Mapping[int, Sequence[int]]):
        self.units = units
        self.span = matrix.target.max_phases
        self.enabled = True
        """False once a placement that kept room for holds ran out of room: placed again without."""
        self.reserved: dict[int, list[tuple[Layer, int]]] = {}
        """Per unit placed with room for its held buffers: the earlier phases' layers and bytes."""
        self.inputs: dict[int, list[tuple[int, list[int]]]] = {}
        """Per compute unit: (bytes, producers being placed) of each input buffer it may hold."""
        for unit in units:
            for op in unit.blocks[1:] if unit.computes else ():
                producers = [p for p in held.get(op.task_id, ()) if p in units.unit_of]
                if producers:
                    self.inputs.setdefault(unit.index, []).append((matrix.sizes[op.task_id], producers))

    def wanted(self, unit: Unit, phase: int) -> Reservation:
        """The bytes a unit placed in `phase` would hold in each earlier phase of its step:
        each held buffer from its first producer's phase on."""
        if not self.enabled or unit.index not in self.inputs:
            return []
        step = step_and_phase(unit.step, phase, self.span)[0]
        need: dict[int, int] = {}
        for size, producers in self.inputs[unit.index]:
            phases = [
                other.phase
                for other in (self.units[self.units.unit_of[p]] for p in producers)
                if other.phase >= 0 and step_and_phase(other.step, other.phase, self.span)[0] == step
            ]
            for earlier in range(min(phases, default=phase), phase):
                need[earlier] = need.get(earlier, 0) + size
        return sorted(need.items())

    def room(self, layers: Layers, step: int, reservation: Reservation) -> np.ndarray:
        """The cores with the reserved bytes free in every phase of a reservation."""
        free = np.ones(len(layers.cores), dtype=bool)
        for phase, size in reservation:
            free &= layers.at(step, phase).memory >= size
        return free

    def keep(self, layers: Layers, unit: Unit, reservation: Reservation) -> None:
        """Take a reservation on the unit's core, for as long as the unit stays there."""
        self.reserved[unit.index] = [(layers.at(unit.step, phase), size) for phase, size in reservation]
        self.take(unit, unit.core)

    def take(self, unit: Unit, core: int, sign: int = 1) -> None:
        """Take (or, with sign −1, give back) a unit's reserved bytes on a core."""
        for layer, size in self.reserved.get(unit.index, ()):
            layer.memory[core] -= sign * size

    def fits(self, unit: Unit | None) -> bool:
        """Whether no phase a unit reserves bytes in is over-full on its core."""
        if unit is None:
            return True
        return all(layer.memory[unit.core] >= 0 for layer, _ in self.reserved.get(unit.index, ()))
