"""
The report page: one HTML file with inline CSS and inline SVG, no script and no external
reference, so it opens anywhere without a network. Sections: a summary of the run, the
mesh per phase (a mapped graph only), the timeline, the NoC link load, the local memory of
each core and the per-layer table.

    html = report_page(measure_module(module), source="net.mapped.mlir")
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from stc.compiler.draw.mapping_svg import MAX_PANELS, MeshPicture, phase_count, used_phases
from stc.compiler.draw.report.charts import kind_legend, link_load_svg, memory_svgs, timeline_svg
from stc.compiler.draw.report.measure import Measured
from stc.compiler.mapping.phase_ranges import union

STYLE = """
body { font-family: sans-serif; margin: 24px; color: #222; }
h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 28px; }
p.how { color: #555; max-width: 72em; }
.scroll { overflow: auto; max-height: 900px; border: 1px solid #dde; padding: 4px; }
.cores { display: flex; flex-wrap: wrap; gap: 10px; }
.swatch { display: inline-block; width: 11px; height: 11px; margin: 0 4px 0 12px; vertical-align: -1px; }
table { border-collapse: collapse; font-size: 13px; }
th, td { border-bottom: 1px solid #e3e5ea; padding: 3px 9px; text-align: right; }
th { background: #f2f4f8; position: sticky; top: 0; }
td:first-child, th:first-child { text-align: left; }
dl.summary { display: grid; grid-template-columns: max-content max-content; gap: 2px 18px; }
dl.summary dt { color: #555; } dl.summary dd { margin: 0; font-weight: bold; }
"""


def report_page(measured: Measured, source: str) -> str:
    """The whole page; `source` names the file it was made from."""
    title = f"@{measured.name} on {measured.target.name}"
    sections = [
        summary(measured, source),
        section("Mesh per phase", *mesh(measured)),
        section(
            "Timeline: phases × cores",
            "Each column is a phase, as wide as its share of the run's cycles; each row a core. A bar is the "
            "cycles the core was busy in that phase (its instructions' cycles, not its waits), coloured by busy "
            "/ phase cycles: a red bar is the core the phase waits for.",
            timeline_svg(measured),
        ),
        section(
            "NoC link load",
            "Each direction of each link between neighbouring cores is a bar on its right-hand side, coloured by "
            "the bytes it carried over the whole run (XY routes of every send). Grey squares are cores that run "
            "a program.",
            link_load_svg(measured),
        ),
        section(
            "Local memory per core",
            "Each chart is a core: phases left to right, addresses bottom to top up to its local memory. Each "
            "block is a rectangle of its bytes × the phases it is held. Colours: " + kind_legend() + ".",
            '<div class="cores">' + "".join(memory_svgs(measured)) + "</div>",
        ),
        section("Layers", *layer_table(measured)),
    ]
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{escape(title)} — stc-report</title>",
            f"<style>{STYLE}</style></head><body>",
            f"<h1>{escape(title)}</h1>",
            *sections,
            "</body></html>",
            "",
        ]
    )


def section(heading: str, how: str, body: str) -> str:
    shown = f'<div class="scroll">{body}</div>' if body else ""
    return f'<section><h2>{escape(heading)}</h2><p class="how">{how}</p>{shown}</section>'


def summary(measured: Measured, source: str) -> str:
    machine = measured.machine
    counters = machine.counters()
    rows = {
        "file": escape(source),
        "phases": len(machine.phase_cycles),
        "cores running a program": f"{len(machine.core_phase_cycles)} of {measured.target.mesh.core_count}",
        "cycles": f"{counters['cycles']:,} ({counters['time_us']:,.1f} µs)",
        "MACs": f"{counters['macs']:,}",
        "DRAM bytes": f"{counters['dram_bytes']:,}",
        "NoC bytes (× hops)": f"{counters['noc_bytes']:,} ({counters['noc_hop_bytes']:,})",
        "energy": f"{counters['energy_pj']['total'] / 1e6:,.2f} µJ",
    }
    items = "".join(f"<dt>{name}</dt><dd>{value}</dd>" for name, value in rows.items())
    how = f"The programs ran once on the machine (stc.runtime.machine) on random int8 inputs (seed {measured.seed})."
    return f'<section><p class="how">{how}</p><dl class="summary">{items}</dl></section>'


def mesh(measured: Measured) -> tuple[str, str]:
    matrix = measured.matrix
    if matrix is None:
        return (
            "An isa program keeps no mapping: give stc-report the mapped file (after st-lmem-alloc), or the task "
            "graph with --target, to see the blocks on the mesh and a row per layer.",
            "",
        )
    how = (
        "The st-svg drawing of each phase of the mapping (click to open): the core mesh with row 0 at the bottom, "
        "the blocks at each core's stages, its memory bar, and the routes sent in that phase. Hover for details."
    )
    phases = union(*used_phases(matrix).values())
    if (count := phase_count({0: phases})) > MAX_PANELS:
        return f"{how} The blocks are in {count} phases, more than the {MAX_PANELS} drawn here.", ""
    panels = []
    for phase in (p for first, last in phases for p in range(first, last + 1)):
        blocks = sum(1 for place in matrix.places.values() if place.holds(phase))
        drawing = MeshPicture(matrix, phase).render().replace(' xmlns="http://www.w3.org/2000/svg"', "", 1)
        opened = " open" if phase == phases[0][0] else ""
        panels.append(f"<details{opened}><summary>phase {phase}: {blocks} blocks</summary>{drawing}</details>")
    return how, "".join(panels)


def layer_table(measured: Measured) -> tuple[str, str]:
    if measured.matrix is None:
        how = "Rows are instruction kinds (an isa program keeps no layers)."
    else:
        how = (
            "A layer is a layer of the graph before splitting: the pieces of a split layer (and the add of their "
            "partial sums), named after the first, with the loads, transfers and stores of the data they read. "
            "Cycles are the busy cycles of its instructions summed over cores; bytes moved are DRAM bytes and "
            "NoC bytes sent; energy uses the target's unit costs."
        )
    header = ["layer", "blocks", "cores", "phases", "MACs", "cycles", "DRAM bytes", "NoC bytes", "energy (nJ)"]
    rows = ["<tr>" + "".join(f"<th>{name}</th>" for name in header) + "</tr>"]
    for layer in measured.layers:
        phases = sorted(layer.phases)
        span = f"{phases[0]}" if phases[0] == phases[-1] else f"{phases[0]}–{phases[-1]}"
        energy = measured.energy_pj(layer) / 1e3
        cells = [
            escape(layer.name),
            f"{len(layer.blocks)}" if layer.blocks else "",
            f"{len(layer.cores)}",
            span,
            f"{layer.macs:,}",
            f"{layer.cycles:,}",
            f"{layer.work.dram_bytes:,}",
            f"{layer.sent_bytes:,}",
            f"{energy:,.1f}",
        ]
        rows.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>")
    return how, "<table>" + "".join(rows) + "</table>"
