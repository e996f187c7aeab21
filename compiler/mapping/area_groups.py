"""
Area location constraints (UG1079 area groups) and the permission table they imply.

A group holds member blocks and one rectangle per tile type, the same on every chip.
Its nodes are the members plus the input storage blocks of member compute blocks (which
share their core). UG1079's table of the 8 flag combinations reads, per column:

1. members are placed inside the area: always;
2. other blocks placed inside: forbidden with exclusive_placement, else allowed;
3. routes among members: inside the area with contain_routing, else anywhere;
4. routes between a member and another block: always allowed;
5. routes among other blocks: not through the area with exclusive_routing, else anywhere.

A route between members must keep every tile it uses, its ends included, inside the
area; a route between other blocks passes "through the area" when a tile between its
ends lies in it (its ends may: an exclusive_routing area without exclusive_placement may
hold other blocks, and their routes have to start somewhere).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from attrs import define

from stc.compiler.targets.hardware import HardwareTarget
from stc.dialects.st import AreaGroupOp, Space

Tile = TypeVar("Tile")

CONTAINED = "contained"
"""The rule of a route between nodes of a contain_routing group: every tile it uses, its
ends included, lies inside the area."""
AVOIDING = "avoiding"
"""The rule of a route between other blocks of an exclusive_routing group: no tile
between its ends lies inside the area."""


def breaking_tile(rule: str, path: Sequence[Tile], inside: Callable[[Tile], bool]) -> Tile | None:
    """The first tile of `path` that breaks `rule` (CONTAINED or AVOIDING), given which
    tiles are `inside` the area, or None."""
    if rule == CONTAINED:
        return next((tile for tile in path if not inside(tile)), None)
    return next((tile for tile in path[1:-1] if inside(tile)), None)


@define
class Rect:
    """A rectangle in absolute core coordinates, bounds inclusive."""

    tile_type: str
    rows: tuple[int, int]
    columns: tuple[int, int]

    def contains(self, y: int, x: int) -> bool:
        return self.rows[0] <= y <= self.rows[1] and self.columns[0] <= x <= self.columns[1]


@define
class AreaGroup:
    """One area group as the passes check it."""

    name: str
    members: set[int]
    rects: list[Rect]
    contain_routing: bool = False
    exclusive_routing: bool = False
    exclusive_placement: bool = False

    def contains(self, space: Space) -> bool:
        return any(rect.contains(space[2], space[3]) for rect in self.rects)

    @property
    def constrains_routes(self) -> bool:
        return self.contain_routing or self.exclusive_routing

    def placement_problem(self, is_node: bool, space: Space) -> str | None:
        """Why a block may not sit at `space` (columns 1 and 2 of the table), or None."""
        inside = self.contains(space)
        if is_node and not inside:
            return f"a node of area group {self.name!r} must be placed inside it"
        if not is_node and inside and self.exclusive_placement:
            return f"area group {self.name!r} is exclusive_placement and the block is not one of its nodes"
        return None

    def route_rule(self, source_is_node: bool, destination_is_node: bool) -> str | None:
        """The rule a route between such ends obeys (columns 3 to 5 of the table):
        CONTAINED, AVOIDING or None (anywhere)."""
        if source_is_node and destination_is_node and self.contain_routing:
            return CONTAINED
        if not source_is_node and not destination_is_node and self.exclusive_routing:
            return AVOIDING
        return None

    def route_problem(self, source_is_node: bool, destination_is_node: bool, path: Sequence[Space]) -> str | None:
        """Why a route may not take `path` (columns 3 to 5 of the table), or None."""
        rule = self.route_rule(source_is_node, destination_is_node)
        if rule is None or (tile := breaking_tile(rule, path, self.contains)) is None:
            return None
        if rule == CONTAINED:
            return f"area group {self.name!r} is contain_routing and the route between its nodes leaves it at {tile}"
        return f"area group {self.name!r} is exclusive_routing and the route between other blocks passes {tile}"


def area_group_of(op: AreaGroupOp, target: HardwareTarget) -> AreaGroup | str:
    """The group `op` declares on `target`, or why it does not fit the target."""
    rects: list[Rect] = []
    tile_types = {tile.name: tile for tile in target.tile_types}
    for rect in op.rects:
        tile = tile_types.get(rect.tile_type)
        if tile is None:
            return f"{target.name} has no tile type {rect.tile_type!r}; it has {', '.join(tile_types)}"
        height = tile.row_max - tile.row_min + 1
        width = tile.column_max - tile.column_min + 1
        if rect.rows[1] >= height or rect.columns[1] >= width:
            return f"{rect.text()} is outside the {width} columns x {height} rows of {tile.name} tiles"
        rows = (tile.row_min + rect.rows[0], tile.row_min + rect.rows[1])
        columns = (tile.column_min + rect.columns[0], tile.column_min + rect.columns[1])
        rects.append(Rect(tile.name, rows, columns))
    return AreaGroup(
        op.group_name.data,
        set(op.member_ids),
        rects,
        op.flag("contain_routing"),
        op.flag("exclusive_routing"),
        op.flag("exclusive_placement"),
    )
