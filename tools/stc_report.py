"""
`stc-report`: one self-contained HTML page for a mapped network (after st-place,
st-route and st-lmem-alloc) or a compiled one (an isa program): the mesh per phase, the
timeline of phases × cores with the machine's busy cycles, the NoC link load, each core's
local memory over the phases and a per-layer table. See docs/tools.md.

    stc-report net.mapped.mlir -o report.html
    stc-report net.mlir --target tianjicx -o report.html    # map it as stc-pipeline does first
    stc-report net.isa.mlir -o report.html --seed 3
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from stc.compiler.diagnostics import StcError, reported_errors
from stc.compiler.draw.report import report_html
from stc.compiler.ir_files import read_module
from stc.compiler.references import references_within
from stc.dialects import isa
from stc.dialects.st import MappingOp
from stc.passes.stc_pipeline import StcPipelinePass
from stc.tools.usage import at_least, run_command


def map_as_pipeline(module: ModuleOp, target: str) -> None:
    """Every pass of `stc-pipeline{target=...}` but the last, isa-lower, which the report runs itself."""
    if any(isinstance(op, MappingOp | isa.ProgramOp) for op in module.ops):
        raise StcError("--target maps a task graph that has no st.mapping yet; this file is already mapped or compiled")
    for stage in StcPipelinePass(target=target).passes()[:-1]:
        stage.apply(Context(), module)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("file", type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True, help="Where to write the page.")
@click.option("--target", help="Map a task graph without a mapping first, as stc-pipeline{target=...} does.")
@click.option("--seed", default=0, show_default=True, type=at_least(0), help="Seed of the random inputs.")
def cli(file: Path, output: Path, target: str | None, seed: int) -> None:
    """Write a report page of a mapped or compiled network."""
    with reported_errors("stc-report"), references_within([file.parent]):
        module = read_module(file)
        if target is not None:
            map_as_pipeline(module, target)
        html = report_html(module, base_dir=file.parent, source=file.name, seed=seed)
        output.write_text(html, encoding="utf-8")


def main(args: Sequence[str] | None = None) -> None:
    run_command(cli, "stc-report", args)
