"""
`stc-report`: one self-contained HTML page for a mapped or compiled network. `measure`
runs the per-core programs on the machine and groups what they did into layers and
memory blocks; `charts` draws the timeline, the NoC link load and the local memory as
SVG; `page` puts them, the mapping's st-svg drawing and the per-layer table on one page.

    html = report_html(read_module(path), base_dir=path.parent, source=str(path))
"""

from __future__ import annotations

from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from stc.compiler.draw.report.measure import measure_module
from stc.compiler.draw.report.page import report_page


def report_html(module: ModuleOp, base_dir: Path | None = None, source: str = "", seed: int = 0) -> str:
    """The report page of the module's mapped graph or isa program, run on inputs drawn from `seed`."""
    return report_page(measure_module(module, base_dir, seed), source)
