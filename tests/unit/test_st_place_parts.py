"""The parts of st-place that compute on plain data agree with the definitions they stand
for: route checks on grid positions with the area-group table, the annealing's cost with
the cost vector, cheapest-first ranks with a lexsort, the core arrays with the mesh."""

import itertools
import random

import hypothesis.strategies as hs
import numpy as np
from conftest import parse
from hypothesis import given, settings
from test_st_place import CHAIN

from stc.compiler.mapping.area_groups import AVOIDING, CONTAINED, AreaGroup, Rect, breaking_tile
from stc.compiler.mapping.matrix import STMatrix
from stc.compiler.mapping.mesh import MeshGeometry
from stc.compiler.mapping.placement.cores import Cores
from stc.compiler.mapping.placement.cost import cost_vector, in_rank_order, lexsort_rank, move_cost
from stc.compiler.mapping.placement.routes import RouteChecks
from stc.compiler.mapping.placement.units import Units
from stc.compiler.targets.hardware import load_target
from stc.dialects import task


def chain_matrix(target: str) -> STMatrix:
    graph = next(op for op in parse(CHAIN).ops if isinstance(op, task.GraphOp))
    return STMatrix(graph, load_target(target))


def test_breaking_tile_finds_the_first_tile_that_breaks_a_rule():
    inside = {1, 2, 3}.__contains__
    assert breaking_tile(CONTAINED, [1, 2, 3], inside) is None
    assert breaking_tile(CONTAINED, [1, 4, 5], inside) == 4
    assert breaking_tile(AVOIDING, [1, 4, 2], inside) is None
    assert breaking_tile(AVOIDING, [5, 4, 2, 3], inside) == 2


def test_route_rule_follows_columns_3_to_5_of_the_table():
    group = AreaGroup("g", set(), [], contain_routing=True, exclusive_routing=True)
    rules = {(s, d): group.route_rule(s, d) for s, d in itertools.product((True, False), repeat=2)}
    assert rules == {(True, True): CONTAINED, (True, False): None, (False, True): None, (False, False): AVOIDING}
    assert AreaGroup("h", set(), []).route_rule(True, True) is None


def test_route_checks_agree_with_route_problem():
    """On aie-ml (shim, memory and aie tiles), for a sample of core pairs: a route breaks
    a group's rule on grid positions exactly when the group finds a problem with it."""
    matrix = chain_matrix("aie-ml")
    rects = [Rect("aie_tile", (3, 6), (4, 9)), Rect("memory_tile", (1, 2), (4, 9))]
    matrix.add_group("t", AreaGroup("contain", {2}, rects, contain_routing=True))
    matrix.add_group("t", AreaGroup("exclusive", {4}, rects[:1], exclusive_routing=True))
    cores = Cores(matrix.mesh)
    checks = RouteChecks(matrix, cores, Units(matrix, cores.index))
    assert [group.name for group, _ in checks.areas] == ["contain", "exclusive"]
    pairs = random.Random(0).sample(list(itertools.product(range(len(cores)), repeat=2)), 3000)
    for (area, (group, _)), (source, destination) in itertools.product(enumerate(checks.areas), pairs):
        path = matrix.mesh.xy_path(cores.spaces[source], cores.spaces[destination])
        for ends in itertools.product((True, False), repeat=2):
            if (rule := group.route_rule(*ends)) is not None:
                expected = group.route_problem(*ends, path) is not None
                assert checks.breaks(area, rule, source, destination) == expected


@given(seed=hs.integers(0, 2**32 - 1))
@settings(max_examples=25, deadline=None)
def test_a_moves_cost_is_the_change_of_the_cost_vectors_at_the_cores(seed: int):
    """`move_cost` of a move or a swap equals Σ bytes × hops of the two units (from
    `cost_vector`, read at their cores) after it minus before it: the annealing takes
    the same moves as when it summed both units' nets before and after."""
    matrix = chain_matrix("tianjicx")
    cores = Cores(matrix.mesh)
    units = Units(matrix, cores.index)
    rng = random.Random(seed)
    for unit in units:
        unit.core = rng.randrange(len(cores))
    unit, partner = rng.sample(list(units), 2)
    partner = partner if rng.random() < 0.5 else None
    target = partner.core if partner is not None else rng.randrange(len(cores))
    moved = [u for u in (unit, partner) if u is not None]

    def total() -> int:
        return sum(int(cost_vector(u, units, cores)[u.core]) for u in moved)

    before, source = total(), unit.core
    delta = move_cost(unit, target, partner, units, cores)
    unit.core = target
    if partner is not None:
        partner.core = source
    assert delta == total() - before


@given(
    keys=hs.lists(hs.tuples(hs.integers(0, 3), hs.floats(0, 10, allow_nan=False)), min_size=1, max_size=40),
    data=hs.data(),
)
def test_cores_in_rank_order_are_the_lexsort_of_the_subset(keys: list[tuple[int, float]], data: hs.DataObject):
    penalty, cost = (np.array(column) for column in zip(*keys, strict=True))
    snake = np.array(data.draw(hs.permutations(range(len(keys)))))
    choices = np.array(sorted(data.draw(hs.sets(hs.integers(0, len(keys) - 1)))), dtype=np.int64)
    rank = lexsort_rank((snake, cost, penalty))
    expected = choices[np.lexsort((snake[choices], cost[choices], penalty[choices]))]
    assert in_rank_order(choices, rank).tolist() == expected.tolist()


def test_the_core_arrays_read_the_mesh():
    target = load_target("aie-ml")
    mesh = MeshGeometry(target)
    cores = Cores(mesh)
    assert cores.spaces == mesh.row_major
    assert [cores.spaces[i] for i in np.argsort(cores.snake_rank)] == mesh.snake
    for index, space in enumerate(cores.spaces):
        assert cores.grid[index] == mesh.position(space) == (cores.rows[index], cores.columns[index])
        assert cores.capacity[index] == mesh.capacity(space)
        assert cores.computes[index] == mesh.tile(space).computes
        assert cores.hops_to(index).tolist() == [mesh.hops(other, space) for other in cores.spaces]
