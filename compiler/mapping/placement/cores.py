"""
The tiles of a target as the placer indexes them: row-major, with their grid positions,
their rank along the mesh's snake order and what they hold, read once into arrays so
that choosing a core is arithmetic on integers.
"""

from __future__ import annotations

import numpy as np

from stc.compiler.mapping.mesh import MeshGeometry
from stc.dialects.st import Space


class Cores:
    """Every tile of a mesh by index, in row-major order, and arrays over them."""

    def __init__(self, mesh: MeshGeometry):
        self.spaces: list[Space] = mesh.row_major
        self.index = {space: index for index, space in enumerate(self.spaces)}
        self.grid = [mesh.position(space) for space in self.spaces]
        """(row, column) of every core in the grid of all chips."""
        positions = np.array(self.grid)
        self.rows, self.columns = positions[:, 0], positions[:, 1]
        rank = {space: index for index, space in enumerate(mesh.snake)}
        self.snake_rank = np.array([rank[space] for space in self.spaces])
        self.capacity = np.array([mesh.capacity(space) for space in self.spaces], dtype=np.int64)
        """The local-memory bytes storage may use on each core."""
        self.computes = np.array([mesh.tile(space).computes for space in self.spaces])

    def __len__(self) -> int:
        return len(self.spaces)

    def hops_to(self, core: int) -> np.ndarray:
        """The hops from every core to `core`."""
        return np.abs(self.rows - self.rows[core]) + np.abs(self.columns - self.columns[core])
