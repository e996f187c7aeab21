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


def move_cost(unit: Unit, target: int, partner: Unit | None, units: Units, cores: Cores) -> int:
    """The change of Σ bytes × hops when `unit` moves to core `target` and `partner`, if
    any, to the unit's core: only their nets to the other units change (the hops between
    the two stay), so each neighbour is read once, on Python integers (the annealing
    asks for every move).

    ```
    unit u on core 0 with neighbours v (core 2, 10 bytes) and p (core 1, 5 bytes):
    u to core 1, swapping with p: 10 × (|1 − 2| − |0 − 2|) + (p's nets other than u's)
    ```
    """
    source = unit.core
    delta = shift_cost(unit, source, target, partner, units, cores)
    if partner is not None:
        delta += shift_cost(partner, target, source, unit, units, cores)
    return delta


def shift_cost(unit: Unit, source: int, target: int, partner: Unit | None, units: Units, cores: Cores) -> int:
    """The change of Σ bytes × hops of a unit's nets, the partner's aside, from `source` to `target`."""
    row, column = cores.grid[source]
    new_row, new_column = cores.grid[target]
    skipped = partner.index if partner is not None else -2  # -1 marks a placed block's core
    total = 0
    for other, fixed, nbytes in unit.neighbours:
        if other == skipped:
            continue
        core = units.all[other].core if other >= 0 else fixed
        if core >= 0:
            other_row, other_column = cores.grid[core]
            total += nbytes * (
                abs(new_row - other_row)
                + abs(new_column - other_column)
                - abs(row - other_row)
                - abs(column - other_column)
            )
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
