"""
Whether a unit's XY routes to its neighbours already placed obey the area groups that
constrain routes (contain_routing, exclusive_routing). Which rule each net of a unit
obeys is fixed before placement starts; whether a route between two cores breaks it is
then a question on grid positions, answered once per pair of cores.
"""

from __future__ import annotations

from stc.compiler.mapping.area_groups import breaking_tile
from stc.compiler.mapping.matrix import STMatrix
from stc.compiler.mapping.placement.cores import Cores
from stc.compiler.mapping.placement.units import Unit, Units
from stc.compiler.targets.hardware import xy_path

Rules = list[tuple[int, str]]
"""(area, rule) for every area whose rule a route obeys; see `area_groups.route_rule`."""


class RouteChecks:
    """The route rules of every unit's nets, and the answers for pairs of cores."""

    def __init__(self, matrix: STMatrix, cores: Cores, units: Units):
        self.matrix = matrix
        self.cores = cores
        self.units = units
        mesh = matrix.mesh
        self.areas = [
            (
                group,
                {(y, x) for y in range(mesh.rows) for x in range(mesh.columns) if group.contains(mesh.space_at(y, x))},
            )
            for group in matrix.groups
            if group.constrains_routes
        ]
        """Every group that constrains routes, with the grid positions inside it."""
        self.nets = [self.constrained_nets(unit) for unit in units] if self.areas else []
        """Per unit: (other unit or -1, fixed core or -1, whether the unit sends, rules) for
        every net some group constrains."""
        self.broken: dict[tuple[int, str, int, int], bool] = {}
        """Whether the route from one core to another breaks an area's rule, once asked."""

    def constrained_nets(self, unit: Unit) -> list[tuple[int, int, bool, Rules]]:
        checks: list[tuple[int, int, bool, Rules]] = []
        for net, other, fixed in unit.nets:
            rules: Rules = []
            for area, (group, _) in enumerate(self.areas):
                nodes = self.matrix.nodes(group)
                if (rule := group.route_rule(net.source in nodes, net.destination in nodes)) is not None:
                    rules.append((area, rule))
            if rules:
                checks.append((other, fixed, self.units.unit_of.get(net.source) == unit.index, rules))
        return checks

    def ok(self, unit: Unit) -> bool:
        """Whether the routes from a unit to its placed neighbours obey the area groups."""
        if not self.areas:
            return True
        for other, fixed, sends, rules in self.nets[unit.index]:
            core = self.units.neighbour_core(other, fixed)
            if core < 0:
                continue
            source, destination = (unit.core, core) if sends else (core, unit.core)
            for area, rule in rules:
                if self.breaks(area, rule, source, destination):
                    return False
        return True

    def breaks(self, area: int, rule: str, source: int, destination: int) -> bool:
        """Whether the XY route from core `source` to core `destination` breaks `rule` of an area."""
        key = (area, rule, source, destination)
        if (broken := self.broken.get(key)) is None:
            inside = self.areas[area][1]
            path = xy_path(self.cores.grid[source], self.cores.grid[destination])
            broken = self.broken[key] = breaking_tile(rule, path, inside.__contains__) is not None
        return broken
