"""
Automatic placement of a task graph on a core mesh: what `st-place` does.

The blocks a mapping left unplaced are grouped into units that must share a core and a
phase (`units`). Placement then

1. gives every compute unit a target phase: its depth in the graph, packed into the
   target's phases (over several steps when one step would be too full, or when a unit
   found no room in the steps planned: then placement starts again with one step more,
   `RETRIES` times at most), moved by the pins (`phases`);
2. places the units greedily (`greedy`), pinned ones first, then by target phase and
   graph order, each on the first core, in the strategy's order, that it may take
   (`candidates`: tile type, pins, area groups) with a free stage and enough free memory
   (`layers`) and routes that obey the area groups (`routes`), preferring the cores with
   room for its held input buffers in their producers' phases (`holds`; when a unit then
   finds no room at all, everything is placed again without holds); then the storage no
   compute block reads, in the last phase of its neighbours;
3. puts each network input and output on the IO tile nearest its buffers (`network_io`);
4. lets the strategy improve the cores (`strategy`): the `greedy` strategy tries the
   cores that minimise Σ bytes × hops to the neighbours already placed first (`cost`),
   then anneals (`annealing`) and places the IO blocks again; the `row-major` baseline
   takes the first core in row-major order and stops there (`row_major`);
5. commits everything through the `STMatrix`, which checks every rule once more.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from stc.compiler.mapping.matrix import STMatrix
from stc.compiler.mapping.placement.candidates import Candidates
from stc.compiler.mapping.placement.cores import Cores
from stc.compiler.mapping.placement.errors import NoRoom, placement_error
from stc.compiler.mapping.placement.greedy import Greedy, place_greedily
from stc.compiler.mapping.placement.holds import Holds
from stc.compiler.mapping.placement.layers import Layers
from stc.compiler.mapping.placement.network_io import place_io
from stc.compiler.mapping.placement.phases import PhasePlan, spreads, steps_for
from stc.compiler.mapping.placement.routes import RouteChecks
from stc.compiler.mapping.placement.row_major import RowMajor
from stc.compiler.mapping.placement.state import PlacerState
from stc.compiler.mapping.placement.strategy import Strategy
from stc.compiler.mapping.placement.units import Units

STRATEGIES = ("greedy", "row-major")
RETRIES = 2
"""How many times st-place tries again with one step more when a unit finds no room in
the steps planned (`FILL` is an estimate: phases packed unevenly or units larger than half
a core leave room no unit can use)."""


def check_options(iterations: int, strategy: str) -> None:
    if strategy not in STRATEGIES:
        raise placement_error(f"unknown strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")
    if iterations < 0:
        raise placement_error(f"iterations={iterations}; the annealing takes 0 or more moves")


def strategy_named(name: str, seed: int, iterations: int) -> Strategy:
    return RowMajor() if name == "row-major" else Greedy(seed, iterations)


def place(
    matrix: STMatrix,
    seed: int = 0,
    iterations: int = 20000,
    strategy: str = "greedy",
    held: Mapping[int, Sequence[int]] | None = None,
) -> None:
    """Place every unplaced block of the matrix's graph (see the module docstring); `held`:
    the buffers that may be held from their producers' phases, with those producers."""
    check_options(iterations, strategy)
    cores = Cores(matrix.mesh)
    units = Units(matrix, cores.index)
    candidates = Candidates(matrix, cores, units)
    if not units:
        return
    routes = RouteChecks(matrix, cores, units)
    holds = Holds(matrix, units, held or {})
    chosen = strategy_named(strategy, seed, iterations)
    steps = steps_for(matrix, units, cores)
    retries = RETRIES
    while True:
        plan = PhasePlan(matrix, units, steps)
        state = PlacerState(matrix, cores, units, candidates, plan, Layers(matrix, cores), routes, holds)
        try:
            place_every_unit(state, chosen)
            break
        except NoRoom:
            if holds.enabled and holds.inputs:
                holds.enabled = False
            elif retries == 0 or not spreads(matrix):
                raise
            else:
                retries -= 1
                steps += 1
            units.unplace()
            holds.clear()
    chosen.improve(state)
    state.commit()


def place_every_unit(state: PlacerState, chosen: Strategy) -> None:
    """Compute units and pinned storage, then the storage no compute block reads, then the
    network inputs and outputs."""
    units = state.units
    compute = [u for u in units if u.computes or u.fixed_core is not None]
    for unit in sorted(compute, key=lambda u: (u.fixed_core is None, u.target_phase, u.order)):
        place_greedily(state, unit, chosen)
    for unit in [u for u in units if u.kind == "storage" and u.fixed_core is None]:
        unit.target_phase = units.neighbour_phase(unit, latest=True)
        place_greedily(state, unit, chosen)
    for unit in units.io:
        place_io(state, unit)
