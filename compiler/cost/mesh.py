"""
The core mesh as the cost model sees it: cores in snake order, directed links, XY routes
as link masks, multicast trees and the DRAM ports on the left and right columns.

Cores are numbered along a snake: row 0 left to right, row 1 right to left, and so on,
so a range of consecutive numbers is a compact region (SET's cluster order with stride 1).

    mesh = MeshModel.of(load_target("set-8x8"))
    mesh.order[:3]                 # ((0, 0), (0, 1), (0, 2))
    mesh.multicast(0, [1, 15])     # link mask of the XY multicast tree from core 0
"""

from __future__ import annotations

import functools

import numpy as np

from stc.compiler.targets.hardware import Coord, HardwareTarget


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
        links = []
        for y in range(cores_y):
            for x in range(cores_x):
                for dy, dx in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                    if 0 <= y + dy < cores_y and 0 <= x + dx < cores_x:
                        links.append(((y, x), (y + dy, x + dx)))
        self.links: tuple[tuple[Coord, Coord], ...] = tuple(links)
        link_index = {link: i for i, link in enumerate(links)}
        count = len(self.order)
        self.routes = np.zeros((count, count, len(links)), dtype=bool)
        """routes[i, j]: the links of the XY route from core i to core j (x first)."""
        self.hops = np.zeros((count, count), dtype=np.int64)
        for i, source in enumerate(self.order):
            for j, destination in enumerate(self.order):
                route = target.xy_route(source, destination)
                self.routes[i, j, [link_index[link] for link in route]] = True
                self.hops[i, j] = len(route)
        self.reached = np.zeros((count, count + 1, len(links)), dtype=np.int16)
        """reached[i, j]: how many of the routes from core i to cores 0 … j − 1 use each link."""
        self.reached[:, 1:] = self.routes.cumsum(axis=1)
        self.port_core = np.array([self.index[target.dram_port(coord)] for coord in self.order], dtype=np.int64)
        """The core beside the DRAM port nearest to each core (same row, nearer edge)."""

    @staticmethod
    @functools.cache
    def of(target: HardwareTarget) -> MeshModel:
        return MeshModel(target)

    @property
    def core_count(self) -> int:
        return len(self.order)

    def range_multicast(self, sources: np.ndarray, firsts: np.ndarray, length: int) -> np.ndarray:
        """Row i: the links of the XY multicast tree from core `sources[i]` to the
        consecutive cores `firsts[i]` … `firsts[i] + length − 1` (one row of link flags)."""
        return self.reached[sources, firsts + length] > self.reached[sources, firsts]

    def multicast(self, source: int, destinations: np.ndarray) -> np.ndarray:
        """The links of the XY multicast tree from a core to several: the union of the
        XY routes, each link carrying the data once."""
        return self.routes[source, destinations].any(axis=0)
