"""
The `st-svg` target: a picture of a mapping, one panel per phase of the core mesh.

Each core shows the ids of the blocks at its axon (A), soma1/soma2 (S) and router (IO)
stages in step 0 and a bar of the local memory its storage uses in that phase (green
below 70 %, orange below 90 %, red above). Routes (`st.routes`, drawn in the phase of
their producer) are lines through the cores they pass, thicker for more bytes, with a
dot at the receiver; area groups are dashed outlines; tile types tint the background.

    stc-opt net.mlir -p 'st-apply,st-place,st-route' -t st-svg -o net.svg
    stc-opt net.mlir -p 'st-apply,st-place,st-route' -t 'st-svg{phase=3}' -o phase3.svg
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import IO
from xml.sax.saxutils import escape

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp
from xdsl.utils.exceptions import DiagnosticException
from xdsl.utils.target import Target

from stc.compiler.st_actions import apply_mapping
from stc.compiler.st_matrix import STMatrix
from stc.dialects.st import ROUTES, MappingOp, RouteAttr, Space, Stage

CELL = 56
GAP = 40
PANELS_PER_ROW = 4
TILE_COLOURS = ("#f4f6fb", "#fdf3e1", "#e9f5ec", "#f6e9f5")
ROUTE_COLOUR = "#1f5fbf"
GROUP_COLOUR = "#6a3fb5"
STAGE_LABELS = {
    "A": (Stage.AXON,),
    "S": (Stage.SOMA1, Stage.SOMA2),
    "IO": (Stage.ROUTER_RECV, Stage.ROUTER_SEND),
}
LEGEND = (
    "A: axon, S: soma1/soma2, IO: router stages (block ids); bar: local memory in use; "
    "lines: routes sent in this phase, dot at the receiver; dashed: area groups"
)


def element(tag: str, content: str = "", **attributes: object) -> str:
    """An SVG element; attribute names use `_` for `-`."""
    opening = " ".join([tag, *(f'{name.replace("_", "-")}="{value}"' for name, value in attributes.items())])
    return f"<{opening}>{content}</{tag}>" if content else f"<{opening}/>"


def memory_colour(fraction: float) -> str:
    return "#3a9b52" if fraction < 0.7 else "#e69a28" if fraction < 0.9 else "#d2392f"


class MeshPicture:
    """The SVG drawing of one mapping."""

    def __init__(self, matrix: STMatrix, phase: int | None):
        self.matrix = matrix
        self.mesh = matrix.mesh
        used = sorted({p for place in matrix.places.values() for p in place.phases})
        self.phases = [p for p in used if phase in (None, p)] or [phase or 0]
        self.width = self.mesh.columns * CELL
        self.height = self.mesh.rows * CELL
        self.columns = min(len(self.phases), PANELS_PER_ROW)
        self.tile_names = [tile.name for tile in matrix.target.tile_types]

    def origin(self, index: int) -> tuple[int, int]:
        row, column = divmod(index, self.columns)
        return GAP + column * (self.width + GAP), 2 * GAP + row * (self.height + GAP)

    def centre(self, space: Space, x0: int, y0: int) -> tuple[float, float]:
        row, column = self.mesh.position(space)
        return x0 + (column + 0.5) * CELL, y0 + (row + 0.5) * CELL

    def render(self) -> str:
        rows = math.ceil(len(self.phases) / self.columns)
        width = GAP + self.columns * (self.width + GAP)
        height = 2 * GAP + rows * (self.height + GAP)
        title = f"@{self.matrix.graph.graph_name} on {self.matrix.target.name}: {len(self.matrix.places)} blocks placed"
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            'font-family="sans-serif" font-size="9">',
            element("rect", width=width, height=height, fill="white"),
            element("text", escape(title), x=GAP, y=GAP - 18, font_size=16),
            element("text", escape(LEGEND), x=GAP, y=GAP - 4),
        ]
        for index, phase in enumerate(self.phases):
            parts += self.panel(phase, *self.origin(index))
        parts.append("</svg>")
        return "\n".join(parts) + "\n"

    def panel(self, phase: int, x0: int, y0: int) -> list[str]:
        parts = [element("text", f"phase {phase}", x=x0, y=y0 - 6, font_size=13)]
        for space in self.mesh.row_major:
            parts += self.core(space, phase, x0, y0)
        parts += self.area_groups(x0, y0)
        parts += self.routes(phase, x0, y0)
        return parts

    def core(self, space: Space, phase: int, x0: int, y0: int) -> list[str]:
        row, column = self.mesh.position(space)
        x, y = x0 + column * CELL, y0 + row * CELL
        colour = TILE_COLOURS[self.tile_names.index(self.mesh.tile(space).name) % len(TILE_COLOURS)]
        parts = [element("rect", x=x, y=y, width=CELL, height=CELL, fill=colour, stroke="#b8bcc6")]
        line = 0
        for label, stages in STAGE_LABELS.items():
            ids = [
                str(self.matrix.slots[key])
                for stage in stages
                if (key := (space, 0, phase, stage)) in self.matrix.slots
            ]
            if ids:
                line += 1
                parts.append(element("text", f"{label} {' '.join(ids)}", x=x + 3, y=y + 4 + 10 * line))
        used = self.matrix.used.get((space, 0, phase), 0)
        capacity = self.mesh.capacity(space)
        if not used or not capacity:
            return parts
        fraction = used / capacity
        title = element("title", f"{used} of {capacity} B")
        bar = f"{(CELL - 6) * min(fraction, 1.0):.1f}"
        colour = memory_colour(fraction)
        parts.append(element("rect", title, x=x + 3, y=y + CELL - 9, width=bar, height=6, fill=colour))
        return parts

    def area_groups(self, x0: int, y0: int) -> list[str]:
        parts: list[str] = []
        for group in self.matrix.groups:
            for rect, (chip_y, chip_x) in itertools.product(group.rects, self.chips()):
                top, left = self.mesh.position((chip_y, chip_x, rect.rows[0], rect.columns[0]))
                x, y = x0 + left * CELL, y0 + top * CELL
                height = (rect.rows[1] - rect.rows[0] + 1) * CELL
                width = (rect.columns[1] - rect.columns[0] + 1) * CELL
                parts.append(
                    element(
                        "rect",
                        x=x + 2,
                        y=y + 2,
                        width=width - 4,
                        height=height - 4,
                        fill="none",
                        stroke=GROUP_COLOUR,
                        stroke_width=2,
                        stroke_dasharray="6 3",
                    )
                )
                name = escape(group.name)
                parts.append(element("text", name, x=x + 5, y=y + height - 14, fill=GROUP_COLOUR))
        return parts

    def chips(self) -> list[tuple[int, int]]:
        mesh = self.matrix.target.mesh
        return list(itertools.product(range(mesh.chips_y), range(mesh.chips_x)))

    def routes(self, phase: int, x0: int, y0: int) -> list[str]:
        parts: list[str] = []
        for op in self.matrix.graph.tasks():
            routes = op.attributes.get(ROUTES)
            if not isinstance(routes, ArrayAttr):
                continue
            for route in routes.data:
                if isinstance(route, RouteAttr) and self.sent_in(route, phase):
                    parts += self.route(route, op.task_id, x0, y0)
        return parts

    def sent_in(self, route: RouteAttr, phase: int) -> bool:
        source = self.matrix.places.get(route.source)
        return source is not None and source.phase == phase and route.hops > 0

    def route(self, route: RouteAttr, destination: int, x0: int, y0: int) -> list[str]:
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in (self.centre(s, x0, y0) for s in route.path))
        width = 0.5 + math.log10(1 + route.nbytes) / 2
        title = element("title", f"{route.source} → {destination}: {route.nbytes} B, {route.hops} hops")
        x, y = self.centre(route.path[-1], x0, y0)
        return [
            element(
                "polyline",
                title,
                points=points,
                fill="none",
                stroke=ROUTE_COLOUR,
                stroke_opacity=0.45,
                stroke_width=f"{width:.2f}",
            ),
            element("circle", cx=f"{x:.1f}", cy=f"{y:.1f}", r=f"{width + 1:.1f}", fill=ROUTE_COLOUR),
        ]


@dataclass(frozen=True)
class StSvgTarget(Target):
    """
    Draw the module's mapping as SVG.

    Options:

    - phase: draw only this phase (default: every phase that holds a block).
    - graph: the task graph to draw, when the module maps several.
    """

    name = "st-svg"

    phase: int | None = None
    graph: str | None = None

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        mappings = [op for op in module.ops if isinstance(op, MappingOp) and self.graph in (None, op.graph_name)]
        if len(mappings) != 1:
            names = f"@{self.graph}" if self.graph else "a graph"
            raise DiagnosticException(
                f"st-svg: expected one st.mapping of {names}, found {len(mappings)}; use graph=NAME"
            )
        output.write(MeshPicture(apply_mapping(mappings[0]), self.phase).render())
