"""
The core mesh as the cost model sees it: cores in snake order, directed links, the bytes
XY routes and XY multicast trees put on each link, and the DRAM ports on the left and right
columns.

Cores are the tiles that compute, numbered along a snake: row 0 left to right, row 1 right
to left, and so on, so a range of consecutive numbers is a compact region (SET's cluster
order with stride 1). Tiles that do not compute (AIE shim and memory tiles) carry routes
but get no number.

    mesh = MeshModel.of(load_target("set-8x8"))
    mesh.order[:3]                                          # ((0, 0), (0, 1), (0, 2))
    mesh.xy_loads(np.array([0]), np.array([9]), np.array([64.0]))  # 64 B on (0,0)→(0,1)→(0,2)→(1,2)
"""

from __future__ import annotations

import functools

import numpy as np

from stc.compiler.targets.hardware import Coord, HardwareTarget

EAST, WEST, SOUTH, NORTH = (0, 1), (0, -1), (1, 0), (-1, 0)


class MeshModel:
    """One chip's cores, links and routes; see the module docstring."""

    def __init__(self, target: HardwareTarget):
        cores_y, cores_x = target.mesh.cores_y, target.mesh.cores_x
        self.target = target
        self.cores_y = cores_y
        self.cores_x = cores_x
        self.order: tuple[Coord, ...] = tuple(
            (y, x)
            for y in range(cores_y)
            for x in (range(cores_x) if y % 2 == 0 else reversed(range(cores_x)))
            if target.tile_type_at(y, x).computes
        )
        self.index = {coord: i for i, coord in enumerate(self.order)}
        self.ys = np.array([y for y, _ in self.order], dtype=np.int64)
        self.xs = np.array([x for _, x in self.order], dtype=np.int64)
        links = []
        self.link_of: dict[tuple[int, int], np.ndarray] = {
            step: np.full((cores_y, cores_x), -1, dtype=np.int64) for step in (EAST, WEST, SOUTH, NORTH)
        }
        """link_of[(dy, dx)][y, x]: the index of the link from (y, x) to (y + dy, x + dx)."""
        for y in range(cores_y):
            for x in range(cores_x):
                for dy, dx in (EAST, WEST, SOUTH, NORTH):
                    if 0 <= y + dy < cores_y and 0 <= x + dx < cores_x:
                        self.link_of[(dy, dx)][y, x] = len(links)
                        links.append(((y, x), (y + dy, x + dx)))
        self.links: tuple[tuple[Coord, Coord], ...] = tuple(links)
        self._runs: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        """Per step, the links along its lines (rows east and west, columns south and
        north) and where they are (a mask of the lines' positions), for `_add_runs`."""
        for step, grid in self.link_of.items():
            along = grid if step in (EAST, WEST) else grid.T
            self._runs[step] = (along[along >= 0], along >= 0)
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

    @functools.cached_property
    def routes(self) -> np.ndarray:
        """routes[i, j]: the links of the XY route from core i to core j (x first), as flags."""
        count = self.core_count
        link_index = {link: i for i, link in enumerate(self.links)}
        routes = np.zeros((count, count, len(self.links)), dtype=bool)
        for i, source in enumerate(self.order):
            for j, destination in enumerate(self.order):
                routes[i, j, [link_index[link] for link in self.target.xy_route(source, destination)]] = True
        return routes

    def xy_loads(self, sources: np.ndarray, destinations: np.ndarray, volumes: np.ndarray) -> np.ndarray:
        """The bytes over each link when core `sources[i]` sends `volumes[i]` bytes to core
        `destinations[i]` along its XY route (x first, then y): Σ volumes[i]·routes[sources[i],
        destinations[i]], by difference arrays along each row and column, so it costs the
        pairs plus the links, not their product."""
        volumes = np.broadcast_to(np.asarray(volumes, dtype=float), np.shape(sources))
        y0, x0 = self.ys[sources], self.xs[sources]
        y1, x1 = self.ys[destinations], self.xs[destinations]
        loads = np.zeros(len(self.links))
        # along x in the source row, then along y in the destination column
        self._add_runs(loads, EAST, y0, x0, x1, volumes, axis=1)
        self._add_runs(loads, WEST, y0, x0, x1, volumes, axis=1)
        self._add_runs(loads, SOUTH, x1, y0, y1, volumes, axis=0)
        self._add_runs(loads, NORTH, x1, y0, y1, volumes, axis=0)
        return loads

    def tree_loads(
        self, sources: np.ndarray, destinations: np.ndarray, groups: np.ndarray, volumes: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """The bytes over each link when each group g sends `volumes[g]` bytes once along
        the XY multicast tree from its source to its destinations (pair i: core
        `sources[i]` to core `destinations[i]` in group `groups[i]`; a group's pairs share
        its source), and each tree's links. The tree is the union of the XY routes: along
        the source's row to its farthest destination columns east and west, then down and
        up each destination column to its farthest rows, so it is summed as those runs
        (by difference arrays, as `xy_loads`); a group of one pair is its XY route."""
        count = len(volumes)
        x1, y1 = self.xs[destinations], self.ys[destinations]
        source = np.zeros(count, dtype=np.int64)
        source[groups] = sources
        y0, x0 = self.ys[source], self.xs[source]
        east, west = x0.copy(), x0.copy()
        np.maximum.at(east, groups, x1)
        np.minimum.at(west, groups, x1)
        columns, column_of = distinct(groups * self.cores_x + x1, count * self.cores_x)
        group, column = columns // self.cores_x, columns % self.cores_x
        south, north = y0[group].copy(), y0[group].copy()
        np.maximum.at(south, column_of, y1)
        np.minimum.at(north, column_of, y1)
        loads = np.zeros(len(self.links))
        volumes = np.asarray(volumes, dtype=float)
        self._add_runs(loads, EAST, y0, x0, east, volumes, axis=1)
        self._add_runs(loads, WEST, y0, x0, west, volumes, axis=1)
        self._add_runs(loads, SOUTH, column, y0[group], south, volumes[group], axis=0)
        self._add_runs(loads, NORTH, column, y0[group], north, volumes[group], axis=0)
        vertical = np.bincount(group, south - north, minlength=count)
        return loads, (east - west) + vertical

    def _add_runs(
        self,
        loads: np.ndarray,
        step: tuple[int, int],
        line: np.ndarray,
        start: np.ndarray,
        stop: np.ndarray,
        volumes: np.ndarray,
        axis: int,
    ) -> None:
        """Add each run from `start` to `stop` along one line (a row for axis 1, a column
        for axis 0) in the direction of `step`: the links leaving positions start … stop − 1
        (forward) or start … stop + 1 (backward)."""
        forward = step[axis] > 0
        moving = stop > start if forward else stop < start
        if not moving.any():
            return
        line, start, stop, volume = line[moving], start[moving], stop[moving], volumes[moving]
        length = self.cores_x if axis == 1 else self.cores_y
        lines = self.cores_y if axis == 1 else self.cores_x
        first, last = (start, stop) if forward else (stop + 1, start + 1)
        size = lines * (length + 1)
        difference = np.bincount(line * (length + 1) + first, volume, size) - np.bincount(
            line * (length + 1) + last, volume, size
        )
        per_position = difference.reshape(lines, length + 1).cumsum(axis=1)[:, :length]
        links, used = self._runs[step]
        loads[links] += per_position[used]


def distinct(values: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """`np.unique(values, return_inverse=True)` for integers in [0, size), by marking them
    in an array of `size` flags instead of sorting them."""
    seen = np.zeros(size, dtype=bool)
    seen[values] = True
    rank = np.cumsum(seen) - 1
    return np.flatnonzero(seen), rank[values]
