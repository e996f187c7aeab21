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
    mesh.piece_cores(0, 16)[8:]  # pieces 8 … 15 on row 1 left to right: cores 15, 14, …, 8
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
        self._longest = max(cores_y, cores_x)
        self._width = self._longest + 1
        links_along, positions = [], []
        for direction, step in enumerate((EAST, WEST, SOUTH, NORTH)):
            grid = self.link_of[step]
            along = grid if step in (EAST, WEST) else grid.T
            line, position = np.nonzero(along >= 0)
            links_along.append(along[line, position])
            positions.append((direction * self._longest + line) * self._width + position)
        self._line_links = np.concatenate(links_along)
        self._line_positions = np.concatenate(positions)
        """Every link, and where `_run_loads`' lines hold its bytes: direction d's line l
        (a row east and west, a column south and north) at position p is entry
        (d·longest + l)·width + p."""
        self.hops = np.abs(self.ys[:, None] - self.ys[None, :]) + np.abs(self.xs[:, None] - self.xs[None, :])
        """hops[i, j]: the links of the XY route from core i to core j."""
        self.port_core = np.array([self.index[target.dram_port(coord)] for coord in self.order], dtype=np.int64)
        """The core beside the DRAM port nearest to each core (same row, nearer edge)."""
        self.by_rows = target.global_memory.multicast_loads and len(self.order) == cores_y * cores_x
        """Whether a leaf's pieces that fill whole rows are laid row by row (`piece_cores`)."""
        self._pieces: dict[tuple[int, int], np.ndarray] = {}

    @staticmethod
    @functools.cache
    def of(target: HardwareTarget) -> MeshModel:
        return MeshModel(target)

    @property
    def core_count(self) -> int:
        return len(self.order)

    def piece_cores(self, start: int, count: int) -> np.ndarray:
        """The cores of a leaf's pieces 0 … count − 1 from core `start`: the next ones in
        snake order, but where they fill whole rows of a mesh that multicasts its DRAM loads,
        row by row from the left (piece j on the row's column j mod width), so that pieces
        j, j + width, … share a column: partition.pieces gives them the same weight slice
        when pk divides the width, and its multicast tree from the port runs down that column
        (in the snake the odd rows mirror it into a second column). Callers must not write
        to the array."""
        key = (start, count)
        if key not in self._pieces:
            width = self.cores_x
            cores = np.arange(start, start + count)
            if self.by_rows and start % width == 0 and count % width == 0:
                row, column = np.divmod(cores, width)
                cores = row * width + np.where(row % 2 == 0, column, width - 1 - column)
            self._pieces[key] = cores
        return self._pieces[key]

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
        # along x in the source row, then along y in the destination column
        return self._run_loads(
            ((y0, x0, x1, volumes), (y0, x0, x1, volumes), (x1, y0, y1, volumes), (x1, y0, y1, volumes))
        )

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
        volumes = np.asarray(volumes, dtype=float)
        rows, by_column = y0[group], volumes[group]
        loads = self._run_loads(
            (
                (y0, x0, east, volumes),
                (y0, x0, west, volumes),
                (column, rows, south, by_column),
                (column, rows, north, by_column),
            )
        )
        vertical = np.bincount(group, south - north, minlength=count)
        return loads, (east - west) + vertical

    def _run_loads(self, runs: tuple[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], ...]) -> np.ndarray:
        """The bytes over each link of runs along lines, given per direction (east, west,
        south, north) as (line, start, stop, volumes): a run from `start` to `stop` along
        its line (a row east and west, a column south and north) loads the links leaving
        positions start … stop − 1 (forward) or start … stop + 1 (backward). One difference
        array over all four directions (`_lines`), each line padded to the longest."""
        firsts, lasts, moved = [], [], []
        width = self._width
        for direction, (line, start, stop, volumes) in enumerate(runs):
            forward = direction in (0, 2)
            moving = stop > start if forward else stop < start
            line, start, stop = line[moving], start[moving], stop[moving]
            first, last = (start, stop) if forward else (stop + 1, start + 1)
            row = (direction * self._longest + line) * width
            firsts.append(row + first)
            lasts.append(row + last)
            moved.append(volumes[moving])
        volume = np.concatenate(moved)
        size = 4 * self._longest * width
        difference = np.bincount(np.concatenate(firsts), volume, size) - np.bincount(
            np.concatenate(lasts), volume, size
        )
        loads = np.zeros(len(self.links))
        loads[self._line_links] += difference.reshape(-1, width).cumsum(axis=1).ravel()[self._line_positions]
        return loads


def distinct(values: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """`np.unique(values, return_inverse=True)` for integers in [0, size), by marking them
    in an array of `size` flags instead of sorting them."""
    seen = np.zeros(size, dtype=bool)
    seen[values] = True
    rank = np.cumsum(seen) - 1
    return np.flatnonzero(seen), rank[values]
