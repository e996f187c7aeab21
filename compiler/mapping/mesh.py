"""
The cores of a target as one grid: chips side by side, so that a route between chips is
an XY route like any other (x first, then y): `hardware.xy_path` on the grid.

    >>> from stc.compiler.targets.hardware import load_target
    >>> mesh = MeshGeometry(load_target("tianjicx"))
    >>> mesh.hops((0, 0, 0, 0), (0, 0, 2, 3))
    5
    >>> mesh.xy_path((0, 0, 0, 0), (0, 0, 1, 1))
    ((0, 0, 0, 0), (0, 0, 0, 1), (0, 0, 1, 1))
"""

from __future__ import annotations

from stc.compiler.targets.components import TileType
from stc.compiler.targets.hardware import HardwareTarget, xy_path
from stc.dialects.st import Space


class MeshGeometry:
    """Positions, distances, routes and capacities of every tile of a target."""

    def __init__(self, target: HardwareTarget):
        self.target = target
        mesh = target.mesh
        self.rows = mesh.chips_y * mesh.cores_y
        self.columns = mesh.chips_x * mesh.cores_x
        self.row_major: list[Space] = [
            space
            for y in range(self.rows)
            for x in range(self.columns)
            if target.core_exists(*(space := self.space_at(y, x))[2:])
        ]
        """Every tile, row by row."""
        self.snake: list[Space] = sorted(
            self.row_major,
            key=lambda s: (self.position(s)[0], self.position(s)[1] * (-1) ** self.position(s)[0]),
        )
        """Every tile, row by row, odd grid rows right to left: neighbours in the list are
        neighbours on the mesh."""
        self.paths: dict[tuple[Space, Space], tuple[Space, ...]] = {}
        """`xy_path` of each pair of tiles asked for."""

    def position(self, space: Space) -> tuple[int, int]:
        """(row, column) of a tile in the grid of all chips."""
        chip_y, chip_x, y, x = space
        return chip_y * self.target.mesh.cores_y + y, chip_x * self.target.mesh.cores_x + x

    def space_at(self, row: int, column: int) -> Space:
        mesh = self.target.mesh
        return (
            row // mesh.cores_y,
            column // mesh.cores_x,
            row % mesh.cores_y,
            column % mesh.cores_x,
        )

    def hops(self, source: Space, destination: Space) -> int:
        (y0, x0), (y1, x1) = self.position(source), self.position(destination)
        return abs(y0 - y1) + abs(x0 - x1)

    def xy_path(self, source: Space, destination: Space) -> tuple[Space, ...]:
        """Every tile an XY route passes, both ends included: along x first, then along y
        (worked out once per pair: st-route asks for one per net, 176,910 on a searched
        ResNet-18 on tianjicx's 160 cores)."""
        if (path := self.paths.get((source, destination))) is None:
            grid = xy_path(self.position(source), self.position(destination))
            path = self.paths[(source, destination)] = tuple(self.space_at(y, x) for y, x in grid)
        return path

    def tile(self, space: Space) -> TileType:
        return self.target.tile_type_at(space[2], space[3])

    def capacity(self, space: Space) -> int:
        """Local-memory bytes buffers may use on a tile: the usable memory of a computing
        tile, the whole memory of the others (AIE memory tiles)."""
        tile = self.tile(space)
        return self.target.usable_memory_bytes if tile.computes else tile.memory_bytes
