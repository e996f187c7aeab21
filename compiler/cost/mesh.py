"""
The core mesh as the cost model sees it: cores in snake order, directed links, the bytes
XY routes put on each link, multicast trees and the DRAM ports on the left and right columns.

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

    def multicast(self, source: int, destinations: np.ndarray) -> np.ndarray:
        """The links of the XY multicast tree from a core to several: the union of the
        XY routes, each link carrying the data once."""
        return self.routes[source, destinations].any(axis=0)

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
        links = self.link_of[step] if axis == 1 else self.link_of[step].T
        used = links >= 0
        loads[links[used]] += per_position[used]
