"""
Which cores a unit may take: its kind of tile (an IO tile, a tile with memory, a
computing tile), its pins and its area groups (inside for the groups that hold its
blocks, outside the exclusive_placement areas of the others). The checks are boolean
arrays over the cores, made once per unit; a message is built only when a unit has no
core left.
"""

from __future__ import annotations

import numpy as np

from stc.compiler.mapping.area_groups import AreaGroup
from stc.compiler.mapping.matrix import STMatrix
from stc.compiler.mapping.placement.cores import Cores
from stc.compiler.mapping.placement.errors import placement_error
from stc.compiler.mapping.placement.units import Unit, Units
from stc.dialects.st import format_space

TILE_NEEDED = {
    "io": "an IO tile",
    "storage": "a tile with memory",
    "axon": "a computing tile",
    "soma": "a computing tile",
}


class Candidates:
    """The cores every unit may take."""

    def __init__(self, matrix: STMatrix, cores: Cores, units: Units):
        self.matrix = matrix
        self.cores = cores
        self.units = units
        self.route_groups = [group for group in matrix.groups if group.constrains_routes]
        self.inside = {
            group.name: np.array([group.contains(space) for space in cores.spaces]) for group in matrix.groups
        }
        """The cores inside each area group."""
        self.masks = [self.allowed(unit) for unit in units]
        """The cores each unit may take."""
        for unit in units:
            self.check_allowed(unit)

    def tiles(self, unit: Unit) -> np.ndarray:
        """The cores of the kind of tile a unit needs: IO tiles (any tile when the target has
        none), tiles with memory or computing tiles."""
        cores = self.cores
        if unit.kind == "storage":
            return cores.capacity > 0
        if unit.kind != "io":
            return cores.computes.copy()
        io_tiles = ~cores.computes & (cores.capacity == 0)
        return io_tiles if io_tiles.any() else np.ones(len(cores), dtype=bool)

    def allowed(self, unit: Unit) -> np.ndarray:
        """The cores a unit may take: its kind of tile, its pins, its area groups."""
        mask = self.tiles(unit)
        if unit.fixed_core is not None:
            mask = np.zeros(len(self.cores), dtype=bool)
            mask[unit.fixed_core] = True
        for group in self.matrix.groups:
            mask &= self.group_mask(unit, group)
        return mask

    def group_mask(self, unit: Unit, group: AreaGroup) -> np.ndarray:
        inside = self.inside[group.name]
        nodes = self.matrix.nodes(group)
        members = [op.task_id in nodes for op in unit.blocks]
        if all(members):
            return inside
        if any(members):
            return inside & (not group.exclusive_placement)
        return ~inside if group.exclusive_placement else np.ones(len(self.cores), dtype=bool)

    def check_allowed(self, unit: Unit) -> None:
        """Fail, naming everything the unit needs, when no core suits it."""
        if self.masks[unit.index].any():
            return
        reasons = [TILE_NEEDED[unit.kind]]
        if unit.fixed_core is not None:
            reasons.append(f"core {format_space(self.cores.spaces[unit.fixed_core])}, where its pinned blocks are")
        for group in self.matrix.groups:
            nodes = self.matrix.nodes(group)
            members = [op.task_id in nodes for op in unit.blocks]
            if any(members):
                reasons.append(f"a core inside area group {group.name!r}")
            if not all(members) and group.exclusive_placement:
                reasons.append(f"a core outside exclusive_placement area group {group.name!r}")
        raise placement_error(f"no core suits {unit.describe()}: it needs {' and '.join(reasons)}")

    def foreign_areas(self, unit: Unit) -> np.ndarray:
        """How many exclusive_routing areas of which the unit holds no node cover each core:
        other blocks may sit there, but their routes may then have no way out."""
        count = np.zeros(len(self.cores), dtype=np.int64)
        for group in self.route_groups:
            nodes = self.matrix.nodes(group)
            if group.exclusive_routing and not any(op.task_id in nodes for op in unit.blocks):
                count += self.inside[group.name]
        return count
