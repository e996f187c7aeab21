"""
`stc-zoo`: real networks with their true layer shapes, as task graphs.

    stc-zoo --list
    stc-zoo resnet50 --batch 2 -o resnet50.mlir
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click

from stc.compiler.diagnostics import StcError, reported_errors
from stc.compiler.ir_files import module_text
from stc.compiler.zoo import build_network, network_names
from stc.tools.usage import at_least, run_command


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("name", required=False)
@click.option("--list", "list_names", is_flag=True, help="Print the network names, one per line.")
@click.option("--batch", default=1, show_default=True, type=at_least(1), help="Batch size N.")
@click.option("-o", "--output", type=click.Path(path_type=Path), help="Write the IR here instead of stdout.")
def cli(name: str | None, list_names: bool, batch: int, output: Path | None) -> None:
    """Print a zoo network as a task graph."""
    with reported_errors("stc-zoo"):
        if list_names:
            click.echo("\n".join(network_names()))
            return
        if name is None:
            raise StcError("give a network name (stc-zoo --list shows them)")
        text = module_text(build_network(name, batch))
        if output is None:
            click.echo(text, nl=False)
        else:
            output.write_text(text)


def main(args: Sequence[str] | None = None) -> None:
    run_command(cli, "stc-zoo", args)
