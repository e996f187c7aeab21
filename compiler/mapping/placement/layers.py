"""
The room the placer has left: for one step and phase, the free local memory of every
core and which unit holds its axon and soma stages, starting from what the matrix holds.
"""

from __future__ import annotations

import bisect

import numpy as np

from stc.compiler.mapping.matrix import STMatrix
from stc.compiler.mapping.placement.cores import Cores
from stc.compiler.mapping.placement.units import Unit
from stc.dialects.st import Space, Stage

PINNED = -2
"""The holder of a stage taken by a block the matrix already holds."""
FREE = -1


class Layer:
    """Free memory and stages of every core in one step and phase."""

    def __init__(self, matrix: STMatrix, cores: Cores, step: int, phase: int):
        used = np.array([matrix.used_bytes(space, step, phase) for space in cores.spaces], dtype=np.int64)
        self.memory = cores.capacity - used

        def holder(space: Space, stage: Stage) -> int:
            return PINNED if (space, step, phase, stage) in matrix.slots else FREE

        self.axon = np.array([holder(space, Stage.AXON) for space in cores.spaces])
        """The unit at the axon of every core."""
        self.soma = np.array([[holder(space, Stage.SOMA1), holder(space, Stage.SOMA2)] for space in cores.spaces])
        """The units at soma1 and soma2 of every core."""

    def stage_free(self, kind: str) -> np.ndarray:
        """The cores where a unit of this kind finds its stage free; storage needs none."""
        if kind == "axon":
            return self.axon == FREE
        if kind == "soma":
            return (self.soma == FREE).any(axis=1)
        return np.ones(len(self.memory), dtype=bool)

    def take(self, unit: Unit, core: int) -> None:
        self.memory[core] -= unit.memory
        if unit.kind == "axon":
            self.axon[core] = unit.index
        elif unit.kind == "soma":
            column = int(np.flatnonzero(self.soma[core] == FREE)[0])
            self.soma[core, column] = unit.index

    def release(self, unit: Unit, core: int) -> None:
        self.memory[core] += unit.memory
        if unit.kind == "axon":
            self.axon[core] = FREE
        elif unit.kind == "soma":
            self.soma[core][self.soma[core] == unit.index] = FREE


class Layers:
    """The layer of every step and phase, made on first use."""

    def __init__(self, matrix: STMatrix, cores: Cores):
        self.matrix = matrix
        self.cores = cores
        self.made: dict[tuple[int, int], Layer] = {}
        self.changes: dict[int, list[int]] = {}
        """By step, in order, the phases (as counted by `PhasePlan`) where a layer was asked
        for and the phases after them: between two of them (and the matrix's `changes`)
        every phase looks the same."""

    def at(self, step: int, phase: int) -> Layer:
        """The layer of a step and phase; a phase past the target's is counted on into the
        next steps (see `PhasePlan`)."""
        changes = self.changes.setdefault(step, [])
        for point in (phase, phase + 1):
            if (index := bisect.bisect_left(changes, point)) == len(changes) or changes[index] != point:
                changes.insert(index, point)
        step, phase = step_and_phase(step, phase, self.matrix.target.max_phases)
        if (key := (step, phase)) not in self.made:
            self.made[key] = Layer(self.matrix, self.cores, step, phase)
        return self.made[key]


def step_and_phase(step: int, phase: int, span: int | None) -> tuple[int, int]:
    """A step and a phase counted on from it over steps of `span` phases, as a step and a
    phase within it.

    >>> step_and_phase(0, 40, 32)
    (1, 8)
    """
    if span is None:
        return step, phase
    return step + phase // span, phase % span
