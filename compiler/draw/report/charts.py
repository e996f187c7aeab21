"""
The report's charts, as inline SVG: the timeline of phases × cores with each core's busy
cycles, the NoC links coloured by the bytes they carried, and each core's local memory
over the phases (blocks as rectangles of address × lifetime).

    timeline_svg(measured), link_load_svg(measured), memory_svgs(measured)

Every mark carries a `<title>`, which browsers show as a tooltip without any script.
"""

from __future__ import annotations

from collections import defaultdict
from xml.sax.saxutils import escape

import numpy as np

from stc.compiler.draw.mapping_svg import element
from stc.compiler.draw.report.measure import Measured, MemoryBlock
from stc.compiler.targets.hardware import Coord
from stc.dialects import isa

HEAT_STOPS = ((0.0, (255, 247, 188)), (0.5, (254, 153, 41)), (1.0, (204, 36, 29)))
"""Yellow → orange → red: how full a core or a link is."""
KIND_COLOURS = {
    "activation": "#4e79a7",
    "partial_sum": "#9c6ade",
    "weight": "#59a14f",
    "bias": "#edc948",
    "staging": "#e15759",
}
OTHER_KIND = "#9aa3ad"
TIMELINE_WIDTH = 960
LABEL_ROOM = 56
MESH_CELL = 44
MEMORY_SIZE = (220, 120)


def heat_colour(fraction: float) -> str:
    """A colour of the yellow → red scale for a fraction in [0, 1]."""
    fraction = min(max(fraction, 0.0), 1.0)
    positions = [stop for stop, _ in HEAT_STOPS]
    channels = [np.interp(fraction, positions, [rgb[i] for _, rgb in HEAT_STOPS]) for i in range(3)]
    return "#" + "".join(f"{round(value):02x}" for value in channels)


def svg(width: float, height: float, parts: list[str]) -> str:
    opening = f'<svg width="{width:.0f}" height="{height:.0f}" font-family="sans-serif" font-size="10">'
    return "\n".join([opening, *parts, "</svg>"])


def scale_legend(x: float, y: float, title: str, top: str) -> list[str]:
    """A bar of the heat scale from 0 to `top`."""
    parts = [element("text", escape(title), x=x, y=y - 4)]
    for step in range(20):
        parts.append(element("rect", x=x + 6 * step, y=y, width=6, height=8, fill=heat_colour(step / 19)))
    parts.append(element("text", "0", x=x, y=y + 19))
    parts.append(element("text", escape(top), x=x + 120, y=y + 19, text_anchor="end"))
    return parts


def format_coord(coord: Coord) -> str:
    return f"({coord[0]}, {coord[1]})"


def timeline_svg(measured: Measured) -> str:
    """
    Phases left to right, each as wide as its share of the run's cycles (at least 2 px);
    one row per core that runs a program; in each phase a core's bar is as long as its
    busy cycles and coloured by busy / phase cycles. Idle cores in a phase draw nothing.
    """
    machine = measured.machine
    phase_cycles = machine.phase_cycles
    cores = sorted(machine.core_phase_cycles)
    total = max(sum(phase_cycles), 1)
    widths = [max(2.0, (TIMELINE_WIDTH - LABEL_ROOM) * cycles / total) for cycles in phase_cycles]
    starts = np.concatenate([[LABEL_ROOM], LABEL_ROOM + np.cumsum(widths)])
    row = max(3, min(14, 800 // max(len(cores), 1)))
    label_every = 1 if row >= 9 else -(-9 // row)
    top = 44
    parts = [element("text", "phase", x=0, y=top - 22)]
    for phase, (start, width, cycles) in enumerate(zip(starts, widths, phase_cycles, strict=False)):
        title = element("title", f"phase {phase}: {cycles} cycles")
        fill = "#eef1f8" if phase % 2 == 0 else "#e2e6ef"
        parts.append(element("rect", title, x=f"{start:.1f}", y=top - 16, width=f"{width:.1f}", height=12, fill=fill))
        if width >= 14:
            parts.append(element("text", str(phase), x=f"{start + width / 2:.1f}", y=top - 7, text_anchor="middle"))
    for index, coord in enumerate(cores):
        y = top + index * row
        if index % label_every == 0:
            parts.append(element("text", format_coord(coord), x=0, y=y + min(row, 10) - 1, font_size=min(row, 10)))
        for phase, busy in enumerate(machine.core_phase_cycles[coord]):
            if busy <= 0:
                continue
            length = phase_cycles[phase]
            fraction = busy / length if length else 1.0
            title = element("title", f"core {format_coord(coord)}, phase {phase}: busy {busy} of {length} cycles")
            width = f"{max(widths[phase] * fraction, 0.5):.1f}"
            x = f"{starts[phase]:.1f}"
            parts.append(
                element("rect", title, x=x, y=y, width=width, height=max(row - 1, 1), fill=heat_colour(fraction))
            )
    bottom = top + len(cores) * row + 14
    parts += scale_legend(LABEL_ROOM, bottom + 14, "busy cycles / phase cycles", "1")
    return svg(TIMELINE_WIDTH, bottom + 40, parts)


def link_load_svg(measured: Measured) -> str:
    """The core mesh with row 0 at the bottom; each direction of each link a bar beside
    the line between its cores, coloured by the bytes it carried over the run."""
    mesh = measured.target.mesh
    link_bytes = measured.machine.link_bytes
    most = max(link_bytes.values(), default=0)
    margin = 30
    height = margin + mesh.cores_y * MESH_CELL

    def centre(coord: Coord) -> tuple[float, float]:
        y, x = coord
        return margin + (x + 0.5) * MESH_CELL, margin + (mesh.cores_y - 1 - y + 0.5) * MESH_CELL

    parts: list[str] = []
    busy = set(measured.machine.core_phase_cycles)
    for y in range(mesh.cores_y):
        for x in range(mesh.cores_x):
            cx, cy = centre((y, x))
            fill = "#dfe4ee" if (y, x) in busy else "#f4f5f8"
            title = element("title", f"core {format_coord((y, x))}")
            parts.append(element("rect", title, x=cx - 12, y=cy - 12, width=24, height=24, fill=fill, rx=3))
    for (source, destination), nbytes in sorted(link_bytes.items()):
        (x0, y0), (x1, y1) = centre(source), centre(destination)
        dx, dy = (x1 - x0) / MESH_CELL, (y1 - y0) / MESH_CELL
        offset = 4.0  # the two directions of a link sit side by side: each on its right
        ox, oy = -dy * offset, dx * offset
        title = element("title", f"{format_coord(source)} → {format_coord(destination)}: {nbytes} B")
        parts.append(
            element(
                "line",
                title,
                x1=f"{x0 + dx * 12 + ox:.1f}",
                y1=f"{y0 + dy * 12 + oy:.1f}",
                x2=f"{x1 - dx * 12 + ox:.1f}",
                y2=f"{y1 - dy * 12 + oy:.1f}",
                stroke=heat_colour(nbytes / most),
                stroke_width=5,
            )
        )
    for x in range(mesh.cores_x):
        parts.append(element("text", str(x), x=centre((0, x))[0], y=height + 12, text_anchor="middle", fill="#666"))
    for y in range(mesh.cores_y):
        parts.append(element("text", str(y), x=margin - 18, y=centre((y, 0))[1] + 3, fill="#666"))
    parts += scale_legend(margin, height + 34, "bytes a link carried", f"{most} B")
    return svg(margin * 2 + mesh.cores_x * MESH_CELL, height + 60, parts)


def memory_svgs(measured: Measured) -> list[str]:
    """One chart per core that holds blocks: phases left to right, addresses bottom to
    top up to the core's local memory, each block a rectangle of its bytes × its phases."""
    by_core: dict[Coord, list[MemoryBlock]] = defaultdict(list)
    for block in measured.memory:
        by_core[block.core].append(block)
    phases = max(len(measured.machine.phase_cycles), 1)
    return [memory_svg(measured, coord, blocks, phases) for coord, blocks in sorted(by_core.items())]


def memory_svg(measured: Measured, coord: Coord, blocks: list[MemoryBlock], phases: int) -> str:
    width, height = MEMORY_SIZE
    left, top = 34, 16
    capacity = max(isa.local_capacity(measured.target, coord), *(block.address + block.size for block in blocks))
    column = (width - left - 4) / phases
    peak = max(live_bytes(blocks, phase) for phase in range(phases))
    heading = f"core {format_coord(coord)}: peak {peak / 1024:.1f} of {capacity / 1024:.0f} KiB"
    parts = [
        element("text", escape(heading), x=0, y=11, font_weight="bold"),
        element("rect", x=left, y=top, width=width - left - 4, height=height - top - 14, fill="#f7f8fb", stroke="#ccd"),
        element("text", f"{capacity // 1024}K", x=left - 3, y=top + 8, text_anchor="end", fill="#666"),
        element("text", "0", x=left - 3, y=height - 14, text_anchor="end", fill="#666"),
        element("text", "phase 0", x=left, y=height - 3, fill="#666"),
        element("text", str(phases - 1), x=width - 4, y=height - 3, text_anchor="end", fill="#666"),
    ]
    span = height - top - 14
    for block in blocks:
        y = top + span * (1 - (block.address + block.size) / capacity)
        rect_height = max(span * block.size / capacity, 0.6)
        x = left + column * block.first
        title = element(
            "title",
            escape(
                f"{block.label}: bytes {block.address}–{block.address + block.size}, phases {block.first}–{block.last}"
            ),
        )
        parts.append(
            element(
                "rect",
                title,
                x=f"{x:.1f}",
                y=f"{y:.1f}",
                width=f"{column * (block.last - block.first + 1):.1f}",
                height=f"{rect_height:.1f}",
                fill=KIND_COLOURS.get(block.kind, OTHER_KIND),
                fill_opacity=0.85,
                stroke="white",
                stroke_width=0.3,
            )
        )
    return svg(width, height, parts)


def live_bytes(blocks: list[MemoryBlock], phase: int) -> int:
    """Bytes of local memory some block holds in `phase` (blocks that overlap count once)."""
    ranges = sorted(
        (block.address, block.address + block.size) for block in blocks if block.first <= phase <= block.last
    )
    total, reach = 0, 0
    for start, end in ranges:
        total += max(0, end - max(start, reach))
        reach = max(reach, end)
    return total


def kind_legend() -> str:
    """The colours of the memory charts, as HTML."""
    entries = [*KIND_COLOURS.items(), ("other", OTHER_KIND)]
    return " ".join(
        f'<span class="swatch" style="background:{colour}"></span>{escape(kind.replace("_", " "))}'
        for kind, colour in entries
    )
