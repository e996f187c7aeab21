"""
The placer interface: what tells one placement strategy from another, as mlir-aie
separates its sequential and annealing placers. Every strategy places the units greedily
(`greedy.place_greedily`); it chooses the order in which a unit tries the cores it may
take, and what happens once every unit has a core.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from stc.compiler.mapping.placement.state import PlacerState
from stc.compiler.mapping.placement.units import Unit


class Strategy(ABC):
    """A way to choose the cores of the units."""

    @abstractmethod
    def rank(self, state: PlacerState, unit: Unit) -> np.ndarray:
        """The rank of every core for `unit`, which tries its cores lowest rank first."""

    @abstractmethod
    def improve(self, state: PlacerState) -> None:
        """Move units once every unit has a core and a phase."""
