"""
The `st-svg` target: a picture of a mapping, one panel per step and phase that holds a block.

A panel shows the core mesh with row 0 at the bottom (UG1079 counts rows up from the
lower left) and the rows and columns numbered. Each core lists the ids of the blocks at its
axon (A), soma1/soma2 (S), router (IO, in/out) and memory (M) stages, and a bar of the local
memory its storage uses (green below 70 %, orange below 90 %, red above); its tooltip lists
everything with sizes. Routes (`st.routes`, drawn in the step and phase of their producer)
are lines through the cores they pass, kept clear of the labels, thicker for more bytes,
with a dot at the receiver. Area groups are dashed outlines, one colour each; tile types
tint the cores. A legend at the top names the tile types, the groups and the marks.

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

from stc.compiler.mapping.actions import apply_mapping
from stc.compiler.mapping.matrix import STMatrix
from stc.compiler.mapping.phase_ranges import PhaseRange, Ranges, format_ranges, union
from stc.dialects.st import ROUTES, MappingOp, RouteAttr, Space, Stage, format_space

CELL = 64
"""The side of a core, in pixels."""
AXIS = 20
"""Room for the row and column numbers."""
GAP = 36
PANELS_PER_ROW = 4
MAX_PANELS = 256
"""The most panels (one step and phase each) a drawing holds; `phase=P` draws one phase."""
LINE = 10
CHAR = 5.2
"""The width of a character of the 9 px font, about."""
ROUTE_POINT = (0.88, 0.78)
"""Where a route passes a core, as fractions of its width and height from its top left:
right of and below the labels, above the memory bar."""
LABEL_WIDTH = ROUTE_POINT[0] * CELL - 7
"""The widest label, left of where routes pass."""
TILE_COLOURS = ("#eef1f8", "#fcf0da", "#e3f3e7", "#f4e4f3")
GROUP_COLOURS = ("#6a3fb5", "#c2185b", "#00838f", "#8d6e00")
ROUTE_COLOUR = "#1f5fbf"
STAGE_LABELS = {
    "A": (Stage.AXON,),
    "S": (Stage.SOMA1, Stage.SOMA2),
    "IO": (Stage.ROUTER_RECV, Stage.ROUTER_SEND),
}
MARKS = (
    "A axon, S soma1/soma2, IO router in/out, M memory: the ids of the blocks there (tooltip: all of them); "
    "bar: local memory in use, green < 70 %, orange < 90 %, red above; "
    "lines: routes sent in this phase, dot at the receiver; numbers: core y (row 0 at the bottom) and x"
)


def element(tag: str, content: str = "", **attributes: object) -> str:
    """An SVG element; attribute names use `_` for `-`."""
    opening = " ".join([tag, *(f'{name.replace("_", "-")}="{value}"' for name, value in attributes.items())])
    return f"<{opening}>{content}</{tag}>" if content else f"<{opening}/>"


def memory_colour(fraction: float) -> str:
    return "#3a9b52" if fraction < 0.7 else "#e69a28" if fraction < 0.9 else "#d2392f"


def fitting_ids(label: str, ids: list[int], width: float) -> str:
    """`label` and as many ids as fit `width` pixels, then `+n` for the others."""
    for shown in range(len(ids), 0, -1):
        more = f" +{len(ids) - shown}" if shown < len(ids) else ""
        text = f"{label} {' '.join(map(str, ids[:shown]))}{more}"
        if len(text) * CHAR <= width or shown == 1:
            return text
    return label


def used_phases(matrix: STMatrix) -> dict[int, Ranges]:
    """The phases some block is in, by step."""
    by_step: dict[int, list[PhaseRange]] = {}
    for place in matrix.places.values():
        by_step.setdefault(place.step, []).extend(place.ranges)
    return {step: union(tuple(ranges)) for step, ranges in sorted(by_step.items())}


def phase_count(used: dict[int, Ranges]) -> int:
    return sum(last - first + 1 for ranges in used.values() for first, last in ranges)


class MeshPicture:
    """The SVG drawing of one mapping."""

    def __init__(self, matrix: STMatrix, phase: int | None):
        self.matrix = matrix
        self.mesh = matrix.mesh
        used = used_phases(matrix)
        name = f"@{matrix.graph.graph_name}"
        if not used:
            raise DiagnosticException(f"st-svg: no block of {name} is placed; run st-place first")
        if phase is not None and phase < 0:
            raise DiagnosticException(f"st-svg: phase={phase}; phases count from 0")
        if phase is None and (count := phase_count(used)) > MAX_PANELS:
            raise DiagnosticException(
                f"st-svg: the blocks of {name} are in {count} phases; a drawing holds at most {MAX_PANELS}, "
                "give phase=P to draw one"
            )
        self.panels = [
            (step, p)
            for step, ranges in used.items()
            for first, last in ranges
            for p in (range(first, last + 1) if phase is None else [phase] if first <= phase <= last else [])
        ]
        if not self.panels:
            raise DiagnosticException(
                f"st-svg: no block of {name} is placed in phase {phase}; its blocks are in phases "
                f"{format_ranges(union(*used.values()))}"
            )
        self.columns = min(len(self.panels), PANELS_PER_ROW)
        self.panel_width = AXIS + self.mesh.columns * CELL
        self.panel_height = 2 * LINE + self.mesh.rows * CELL + AXIS
        self.tile_names = [tile.name for tile in matrix.target.tile_types]
        self.legend = self.legend_lines()

    def legend_lines(self) -> list[list[tuple[str, str, str]]]:
        """Lines of (kind, colour, text) entries: tile types, area groups, the marks."""
        tiles = [("tile", TILE_COLOURS[index % len(TILE_COLOURS)], name) for index, name in enumerate(self.tile_names)]
        groups = []
        for index, group in enumerate(self.matrix.groups):
            flags = [
                flag for flag in ("contain_routing", "exclusive_routing", "exclusive_placement") if getattr(group, flag)
            ]
            text = f"area group {group.name}" + (f" ({', '.join(flags)})" if flags else "")
            groups.append(("group", GROUP_COLOURS[index % len(GROUP_COLOURS)], text))
        return [tiles + groups, [("text", "", MARKS)]]

    def top(self) -> int:
        return 2 * GAP + LINE * 2 * len(self.legend)

    def origin(self, index: int) -> tuple[int, int]:
        """The top left of panel `index`'s grid."""
        row, column = divmod(index, self.columns)
        x = GAP + column * (self.panel_width + GAP) + AXIS
        y = self.top() + row * (self.panel_height + GAP) + 2 * LINE
        return x, y

    def cell(self, space: Space, x0: int, y0: int) -> tuple[int, int]:
        """The top left of a core's cell: row 0 at the bottom."""
        row, column = self.mesh.position(space)
        return x0 + column * CELL, y0 + (self.mesh.rows - 1 - row) * CELL

    def route_point(self, space: Space, x0: int, y0: int) -> tuple[float, float]:
        x, y = self.cell(space, x0, y0)
        return x + ROUTE_POINT[0] * CELL, y + ROUTE_POINT[1] * CELL

    def render(self) -> str:
        rows = math.ceil(len(self.panels) / self.columns)
        width = GAP + self.columns * (self.panel_width + GAP)
        height = self.top() + rows * (self.panel_height + GAP)
        steps = sorted({step for step, _ in self.panels})
        title = (
            f"@{self.matrix.graph.graph_name} on {self.matrix.target.name}: {len(self.matrix.places)} blocks placed; "
            f"{len(self.panels)} phases in step{'s' if len(steps) > 1 else ''} {', '.join(map(str, steps))}"
        )
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            'font-family="sans-serif" font-size="9">',
            element("rect", width=width, height=height, fill="white"),
            element("text", escape(title), x=GAP, y=GAP, font_size=16),
        ]
        for index, line in enumerate(self.legend):
            parts += self.legend_line(line, GAP + LINE * (2 * index + 2))
        for index, (step, phase) in enumerate(self.panels):
            parts += self.panel(step, phase, *self.origin(index))
        parts.append("</svg>")
        return "\n".join(parts) + "\n"

    def legend_line(self, entries: list[tuple[str, str, str]], y: int) -> list[str]:
        parts: list[str] = []
        x = GAP
        for kind, colour, text in entries:
            if kind == "tile":
                parts.append(element("rect", x=x, y=y - 9, width=12, height=12, fill=colour, stroke="#b8bcc6"))
                x += 16
            elif kind == "group":
                parts.append(
                    element(
                        "rect",
                        x=x,
                        y=y - 9,
                        width=12,
                        height=12,
                        fill="none",
                        stroke=colour,
                        stroke_width=2,
                        stroke_dasharray="4 2",
                    )
                )
                x += 16
            parts.append(element("text", escape(text), x=x, y=y, font_size=11))
            x += int(len(text) * CHAR * 11 / 9) + 18
        return parts

    def panel(self, step: int, phase: int, x0: int, y0: int) -> list[str]:
        parts = [element("text", f"step {step}, phase {phase}", x=x0, y=y0 - LINE, font_size=13)]
        parts += self.axes(x0, y0)
        for space in self.mesh.row_major:
            parts += self.tile(space, step, phase, x0, y0)
        parts += self.area_groups(x0, y0)
        parts += self.routes(step, phase, x0, y0)
        for space in self.mesh.row_major:
            parts += self.labels(space, step, phase, x0, y0)
        return parts

    def axes(self, x0: int, y0: int) -> list[str]:
        bottom = y0 + self.mesh.rows * CELL + 13
        parts = [
            element("text", str(column), x=x0 + column * CELL + CELL // 2, y=bottom, text_anchor="middle", fill="#666")
            for column in range(self.mesh.columns)
        ]
        parts += [
            element(
                "text",
                str(row),
                x=x0 - 4,
                y=y0 + (self.mesh.rows - row - 0.5) * CELL + 3,
                text_anchor="end",
                fill="#666",
            )
            for row in range(self.mesh.rows)
        ]
        return parts

    def stage_ids(self, space: Space, step: int, phase: int) -> dict[str, list[int]]:
        ids = {
            label: [
                self.matrix.slots[key] for stage in stages if (key := (space, step, phase, stage)) in self.matrix.slots
            ]
            for label, stages in STAGE_LABELS.items()
        }
        ids["M"] = self.matrix.storage_at(space, step, phase)
        return ids

    def tile(self, space: Space, step: int, phase: int, x0: int, y0: int) -> list[str]:
        x, y = self.cell(space, x0, y0)
        tile = self.mesh.tile(space)
        colour = TILE_COLOURS[self.tile_names.index(tile.name) % len(TILE_COLOURS)]
        ids = self.stage_ids(space, step, phase)
        blocks = [
            f"{self.matrix.blocks[task_id].name} {task_id}"
            + (f" ({self.matrix.sizes[task_id]} B)" if label == "M" else "")
            for label, task_ids in ids.items()
            for task_id in task_ids
        ]
        used, capacity = self.matrix.used_bytes(space, step, phase), self.mesh.capacity(space)
        tooltip = f"core {format_space(space)} ({tile.name}), step {step}, phase {phase}"
        if blocks:
            tooltip += ": " + ", ".join(blocks)
        if blocks and capacity:
            tooltip += f"; {used} of {capacity} B of local memory"
        return [
            element(
                "rect",
                element("title", escape(tooltip)),
                x=x,
                y=y,
                width=CELL,
                height=CELL,
                fill=colour,
                stroke="#b8bcc6",
            )
        ]

    def labels(self, space: Space, step: int, phase: int, x0: int, y0: int) -> list[str]:
        """The block ids of a core and its memory bar, drawn over the routes."""
        x, y = self.cell(space, x0, y0)
        parts: list[str] = []
        line = 0
        for label, ids in self.stage_ids(space, step, phase).items():
            if not ids:
                continue
            line += 1
            text = fitting_ids(label, ids, LABEL_WIDTH)
            parts.append(element("text", escape(text), x=x + 3, y=y + 1 + LINE * line))
        used = self.matrix.used_bytes(space, step, phase)
        capacity = self.mesh.capacity(space)
        if not used or not capacity:
            return parts
        fraction = used / capacity
        title = element("title", f"{used} of {capacity} B")
        bar = f"{(CELL - 6) * min(fraction, 1.0):.1f}"
        parts.append(element("rect", title, x=x + 3, y=y + CELL - 8, width=bar, height=5, fill=memory_colour(fraction)))
        return parts

    def area_groups(self, x0: int, y0: int) -> list[str]:
        parts: list[str] = []
        for index, group in enumerate(self.matrix.groups):
            colour = GROUP_COLOURS[index % len(GROUP_COLOURS)]
            for rect, (chip_y, chip_x) in itertools.product(group.rects, self.chips()):
                x, y = self.cell((chip_y, chip_x, rect.rows[1], rect.columns[0]), x0, y0)
                height = (rect.rows[1] - rect.rows[0] + 1) * CELL
                width = (rect.columns[1] - rect.columns[0] + 1) * CELL
                parts.append(
                    element(
                        "rect",
                        element("title", escape(f"area group {group.name}")),
                        x=x + 2,
                        y=y + 2,
                        width=width - 4,
                        height=height - 4,
                        fill="none",
                        stroke=colour,
                        stroke_width=2,
                        stroke_dasharray="6 3",
                    )
                )
        return parts

    def chips(self) -> list[tuple[int, int]]:
        mesh = self.matrix.target.mesh
        return list(itertools.product(range(mesh.chips_y), range(mesh.chips_x)))

    def routes(self, step: int, phase: int, x0: int, y0: int) -> list[str]:
        parts: list[str] = []
        for op in self.matrix.graph.tasks():
            routes = op.attributes.get(ROUTES)
            if not isinstance(routes, ArrayAttr):
                continue
            for route in routes.data:
                source = self.matrix.places.get(route.source) if isinstance(route, RouteAttr) else None
                if source is not None and (source.step, source.phase) == (step, phase) and route.hops > 0:
                    parts += self.route(route, op.task_id, x0, y0)
        return parts

    def route(self, route: RouteAttr, destination: int, x0: int, y0: int) -> list[str]:
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in (self.route_point(s, x0, y0) for s in route.path))
        width = 0.5 + math.log10(1 + route.nbytes) / 2
        title = element("title", f"{route.source} → {destination}: {route.nbytes} B, {route.hops} hops")
        x, y = self.route_point(route.path[-1], x0, y0)
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

    - phase: draw only this phase, in every step that holds a block in it (default: every
      step and phase that holds a block).
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
