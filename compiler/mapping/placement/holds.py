"""
The room the placer keeps for held buffers. A buffer whose producers run in earlier
phases than its reader may be held on its reader's core from its first producer's phase,
so that each producer sends its part there as it makes it instead of storing it to
global memory (a layer group's intermediates on a many-core target,
`stc.compiler.grouping.hold`). When a reader's unit takes a core, the placer takes the
bytes of its held input buffers on that core in those earlier phases too, preferring the
cores that have room for them; where none has, the unit is placed without them and the
buffer waits in global memory as it would layer by layer.

A producer on the reader's core whose result only the buffer takes, whole, writes it
there in place (`compiler/memory/plan.py`), so on that core its result tile, which its own
unit counts, is not counted again in its phase: the reservation takes that many bytes
less there, and is taken again whenever the annealing moves the producer. (A result that
several buffers take lands in place in the first that qualifies, which the placement
decides: it is counted in full.)

```
conv 4 on core (0, 1) in phase 0, relu 6 reads buffer 5 (12544 B), filled by conv 4:
relu 6's unit tries the cores with 12544 B free in phase 0 first (on core (0, 1), whose
conv 4 writes its 12544 B result into buffer 5, with 0 B more free), and takes them there
```
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from stc.compiler.mapping.matrix import STMatrix
from stc.compiler.mapping.placement.layers import Layer, Layers, step_and_phase
from stc.compiler.mapping.placement.units import Unit, Units
from stc.compiler.memory.plan import takes_whole
from stc.dialects import task

Reservation = list[tuple[int, int, tuple[int, ...]]]
"""(phase as the phase plan counts it, bytes, the producer units of that phase whose result
lands in place in a held buffer) for every earlier phase a unit holds bytes in."""


class Holds:
    """The held input buffers of every compute unit, and the room they take."""

    def __init__(self, matrix: STMatrix, units: Units, held: Mapping[int, Sequence[int]]):
        self.units = units
        self.span = matrix.target.max_phases
        self.enabled = True
        """False once a placement that kept room for holds ran out of room: placed again without."""
        self.reserved: dict[int, list[tuple[Layer, int, tuple[int, ...]]]] = {}
        """Per unit placed with room for its held buffers: the earlier phases' layers, bytes
        and producer units writing in place there."""
        self.taken: dict[int, tuple[int, list[tuple[Layer, int]]]] = {}
        """Per unit whose reservation is taken: its core and the bytes taken in each layer."""
        self.readers: dict[int, set[int]] = {}
        """Per producer unit: the units whose reservation it writes in place."""
        self.inputs: dict[int, list[tuple[int, list[int], set[int]]]] = {}
        """Per compute unit: (bytes, producers being placed, those whose result only this
        buffer takes, whole) of each input buffer it may hold."""
        for unit in units:
            for op in unit.blocks[1:] if unit.computes else ():
                producers = [p for p in held.get(op.task_id, ()) if p in units.unit_of]
                if producers and isinstance(op, task.BufferOp):
                    whole = {
                        value.owner.task_id
                        for value, box, offset in op.pieces
                        if isinstance(value.owner, task.ComputeBlock)
                        and value.owner.task_id in producers
                        and value.has_one_use()
                        and takes_whole(value.owner, (op, box, offset), matrix.target)
                    }
                    self.inputs.setdefault(unit.index, []).append((matrix.sizes[op.task_id], producers, whole))

    def wanted(self, unit: Unit, phase: int) -> Reservation:
        """The bytes a unit placed in `phase` would hold in each earlier phase of its step:
        each held buffer from its first producer's phase on."""
        if not self.enabled or unit.index not in self.inputs:
            return []
        step = step_and_phase(unit.step, phase, self.span)[0]
        need: dict[int, int] = {}
        in_place: dict[int, list[int]] = {}
        for size, producers, whole in self.inputs[unit.index]:
            placed = [(p, self.units[self.units.unit_of[p]]) for p in producers]
            earlier = [
                (p, other)
                for p, other in placed
                if other.phase >= 0 and step_and_phase(other.step, other.phase, self.span)[0] == step
            ]
            for held in range(min((other.phase for _, other in earlier), default=phase), phase):
                need[held] = need.get(held, 0) + size
            for p, other in earlier:
                if p in whole and other.phase < phase:
                    in_place.setdefault(other.phase, []).append(other.index)
        return [(held, size, tuple(in_place.get(held, ()))) for held, size in sorted(need.items())]

    def bytes_on(self, core: int, size: int, in_place: tuple[int, ...]) -> int:
        """The bytes a reservation takes on `core` in one phase: less the result tiles that
        producers on that core write into the held buffers."""
        saved = sum(self.units[index].result for index in in_place if self.units[index].core == core)
        return max(size - saved, 0)

    def room(self, layers: Layers, step: int, reservation: Reservation) -> np.ndarray:
        """The cores with the reserved bytes free in every phase of a reservation."""
        free = np.ones(len(layers.cores), dtype=bool)
        for phase, size, in_place in reservation:
            need = np.full(len(layers.cores), size)
            for index in in_place:
                producer = self.units[index]
                need[producer.core] = self.bytes_on(producer.core, size, in_place)
            free &= layers.at(step, phase).memory >= need
        return free

    def keep(self, layers: Layers, unit: Unit, reservation: Reservation) -> None:
        """Take a reservation on the unit's core, for as long as the unit stays there."""
        self.reserved[unit.index] = [(layers.at(unit.step, phase), size, ins) for phase, size, ins in reservation]
        for _, _, in_place in reservation:
            for index in in_place:
                self.readers.setdefault(index, set()).add(unit.index)
        self.take(unit, unit.core)

    def take(self, unit: Unit, core: int, sign: int = 1) -> None:
        """Take a unit's reserved bytes on a core, or (with sign −1) give back what it took."""
        if sign < 0:
            taken_on, taken = self.taken.pop(unit.index, (core, []))
            for layer, size in taken:
                layer.memory[taken_on] += size
            return
        if unit.index not in self.reserved:
            return
        taken = [(layer, self.bytes_on(core, size, ins)) for layer, size, ins in self.reserved[unit.index]]
        for layer, size in taken:
            layer.memory[core] -= size
        self.taken[unit.index] = (core, taken)

    def moved(self, producer: Unit | None) -> list[Unit]:
        """Take again the reservations a producer writes in place, now that it has moved;
        the units whose reservation it changed."""
        if producer is None:
            return []
        readers = [self.units[index] for index in self.readers.get(producer.index, ()) if index in self.taken]
        for reader in readers:
            self.take(reader, reader.core, -1)
            self.take(reader, reader.core)
        return readers

    def clear(self) -> None:
        """Forget every reservation, to place again."""
        self.reserved.clear()
        self.taken.clear()
        self.readers.clear()

    def fits(self, unit: Unit | None) -> bool:
        """Whether no phase a unit reserves bytes in is over-full on its core."""
        if unit is None:
            return True
        return all(layer.memory[unit.core] >= 0 for layer, _, _ in self.reserved.get(unit.index, ()))
