"""
The core mesh as the cost model sees it: cores in snake order, directed links, the bytes
XY routes put on each link, and the DRAM ports on the left and right columns.

Cores are numbered along a snake: row 0 left to right, row 1 right to left, and so on,
so a range of consecutive numbers is a compact region (SET's cluster order with stride 1).

    mesh = MeshModel.of(load_target("set-8x8"))
    mesh.order[:3]                                         # ((0, 0), (0, 1), (0, 2))
    mesh.xy_loads(np.array([0]), np.array([9]), np.array([64.0]))   # 64 B on two links
"""

from __future__ import annotations

import functools

import numpy as np

from stc.compiler.targets.hardware import Coord, HardwareTarget

EAST, WEST, SOUTH, NORTH = range(4)
"""The directions of a link, as the planes of `MeshModel.xy_loads`'s difference arrays."""


class MeshModel:
    """One chip's cores, links and routes; see the module docstring."""

    def __init__(self, target: HardwareTarget):
        cores_y, cores_x = target.mesh.cores_y, target.mesh.cores_x
        self.cores_y = cores_y
        self.cores_x = cores_x
        self.order: tuple[Coord, ...] = tuple(
            (y, x) for y in range(cores_y) for x in (range(cores_x) if y % 2 == 0 else reversed(range(cores_x)))
        )
        self.index = {coord: i for i, coord in enumerate(self.order)}
        self.ys = np.array([y for y, _ in self.order])
        self.xs = np.array([x for _, x in self.order])
        links, planes = [], []
        for y in range(cores_y):
            for x in range(cores_x):
                for direction, (dy, dx) in enumerate(((0, 1), (0, -1), (1, 0), (-1, 0))):
                    if 0 <= y + dy < cores_y and 0 <= x + dx < cores_x:
                        links.append(((y, x), (y + dy, x + dx)))
                        planes.append((direction * (cores_y + 1) + y) * (cores_x + 1) + x)
        self.links: tuple[tuple[Coord, Coord], ...] = tuple(links)
        self.link_plane = np.array(planes, dtype=np.int64)
        """Each link's place in the flattened (direction, y, x) planes of `xy_loads`."""
        self.hops = np.abs(self.ys[:, None] - self.ys[None, :]) + np.abs(self.xs[:, None] - self.xs[None, :])
        """hops[i, j]: the links of the XY route from core i to core j."""
        self.port_core = np.array([self.index[target.dram_port(coord)] for coord in self.order], dtype=np.int64)
        """The core beside the DRAM port nearest to each core (same row, nearer edge)."""

    @staticmethod
    @functools.cache
    def of(target: HardwareTarget) -> MeshModel:
        return MeshModel(target)

    @property
    def core_count(self) -> int:
        return len(self.order)

    def xy_loads(self, sources: np.ndarray, destinations: np.ndarray, volumes: np.ndarray) -> np.ndarray:
        """Bytes on each link (in `links` order) when core `sources[i]` sends `volumes[i]`
        bytes to core `destinations[i]` over its XY route (along x on the source's row, then
        along y on the destination's column): difference arrays per direction, summed up
        along the routes, in time linear in the pairs and the links."""
        y1, x1, y2, x2 = self.ys[sources], self.xs[sources], self.ys[destinations], self.xs[destinations]
        width, size = self.cores_x + 1, (self.cores_y + 1) * (self.cores_x + 1)
        starts, stops, weights = [], [], []
        legs = (
            (EAST, x2 > x1, y1, x1, y1, x2),
            (WEST, x2 < x1, y1, x2 + 1, y1, x1 + 1),
            (SOUTH, y2 > y1, y1, x2, y2, x2),
            (NORTH, y2 < y1, y2 + 1, x2, y1 + 1, x2),
        )
        for direction, taken, first_y, first_x, stop_y, stop_x in legs:
            base = direction * size
            starts.append(base + first_y[taken] * width + first_x[taken])
            stops.append(base + stop_y[taken] * width + stop_x[taken])
            weights.append(volumes[taken])
        moved = np.concatenate(weights).astype(float)
        diff = np.bincount(np.concatenate(starts), moved, 4 * size) - np.bincount(
            np.concatenate(stops), moved, 4 * size
        )
        planes = diff.reshape(4, self.cores_y + 1, width)
        summed = np.concatenate([planes[:2].cumsum(axis=2), planes[2:].cumsum(axis=1)])
        return summed.reshape(-1)[self.link_plane]
