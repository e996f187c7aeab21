"""
`stc-report`: one self-contained HTML page for a mapped network (after st-place,
st-route and st-lmem-alloc) or a compiled one (an isa program): the mesh per phase, the
timeline of phases × cores with the machine's busy cycles, the NoC link load, each core's
local memory over the phases and a per-layer table. See docs/tools.md.

    stc-report net.mapped.mlir -o report.html
    stc-report net.isa.mlir -o report.html --seed 3
"""

from __future__ import annotations

from pathlib import Path

import click

from stc.compiler.diagnostics import reported_errors
from stc.compiler.draw.report import report_html
from stc.compiler.ir_files import read_module


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("file", type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True, help="Where to write the page.")
@click.option("--seed", default=0, show_default=True, help="Seed of the random int8 inputs the machine runs on.")
def cli(file: Path, output: Path, seed: int) -> None:
    """Write a report page of a mapped or compiled network."""
    with reported_errors("stc-report"):
        html = report_html(read_module(file), base_dir=file.parent, source=file.name, seed=seed)
        output.write_text(html, encoding="utf-8")


def main() -> None:
    cli()
