"""
The `row-major` strategy, the baseline the benchmark compares against: every unit takes
the first core it may take in row-major order, and nothing moves afterwards.
"""

from __future__ import annotations

import numpy as np

from stc.compiler.mapping.placement.state import PlacerState
from stc.compiler.mapping.placement.strategy import Strategy
from stc.compiler.mapping.placement.units import Unit


class RowMajor(Strategy):
    """Row-major order, no improvement."""

    def rank(self, state: PlacerState, unit: Unit) -> np.ndarray:
        return np.arange(len(state.cores))

    def improve(self, state: PlacerState) -> None:
        """The baseline keeps its first placement."""
