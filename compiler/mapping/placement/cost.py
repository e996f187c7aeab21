"""
What the placer minimises: Σ bytes × hops between a unit and its neighbours already
placed, for every core at once (to choose one) or at the unit's core (to move it).
"""

from __future__ import annotations

import numpy as np

from stc.compiler.mapping.placement.candidates import Candidates
from stc.compiler.mapping.placement.cores import Cores
from stc.compiler.mapping.placement.units import Unit, Units


def cost_vector(unit: Unit, units: Units, cores: Cores) -> np.ndarray:
    """Σ bytes × hops from every core to the unit's placed neighbours."""
    cost = np.zeros(len(cores))
    for other, fixed, nbytes in unit.neighbours:
        core = units.neighbour_core(other, fixed)
        if core >= 0:
            cost += nbytes * cores.hops_to(core)
    return cost


def unit_cost(unit: Unit, units: Units, cores: Cores) -> float:
    """Σ bytes × hops from the unit's core to its placed neighbours, on Python integers
    (the annealing calls it for every move)."""
    total = 0.0
    row, column = cores.grid[unit.core]
    for other, fixed, nbytes in unit.neighbours:
        core = units.all[other].core if other >= 0 else fixed
        if core >= 0:
            other_row, other_column = cores.grid[core]
            total += nbytes * (abs(row - other_row) + abs(column - other_column))
    return total


def cheapest_first(unit: Unit, units: Units, cores: Cores, candidates: Candidates) -> np.ndarray:
    """The rank of every core for a unit: fewest foreign exclusive_routing areas first (see
    `Candidates.foreign_areas`), then least Σ bytes × hops, then along the mesh's snake."""
    return lexsort_rank((cores.snake_rank, cost_vector(unit, units, cores), candidates.foreign_areas(unit)))


def lexsort_rank(keys: tuple[np.ndarray, ...]) -> np.ndarray:
    """The position of every element in `np.lexsort(keys)` (the last key sorts first)."""
    order = np.lexsort(keys)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank


def in_rank_order(choices: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """`choices` (core indices) sorted by their rank: for distinct ranks, the order a
    lexsort of the keys restricted to `choices` gives."""
    return choices[np.argsort(rank[choices])]
