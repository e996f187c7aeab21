"""
`stc-import`: a float (or power-of-two QDQ) ONNX model as an int8 task graph, its weights
in an npz archive beside it, and its agreement with the float model.

    stc-import resnet18.onnx -o resnet18.mlir                    # weights in resnet18.npz
    stc-import net.onnx -o net.mlir --calibrate images/ --batch 1

Needs the `onnx` extra (`pip install stc[onnx]`): onnx reads the model, onnxruntime runs
it in float for calibration and comparison.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path

import click

from stc.compiler.diagnostics import StcError, reported_errors
from stc.compiler.ir_files import module_text
from stc.tools.usage import at_least, run_command


def summary(result) -> list[str]:
    """What the import did, one line per topic."""
    imported = ", ".join(f"{op} {count}" for op, count in sorted(result.imported.items()))
    folded = ", ".join(f"{op} {count}" for op, count in sorted(result.folded.items())) or "none"
    lines = [
        f"imported: {imported}",
        f"folded or removed: {folded}",
        f"requantisations inserted: {result.requantised}",
        f"calibration: {result.calibration}",
    ]
    lines += [f"scale of {name}: {scale:g}" for name, scale in result.scales.items()]
    for agreement in result.agreement:
        line = f"output {agreement.output}: cosine similarity {agreement.cosine:.4f} to the float model"
        if agreement.top1 is not None:
            line += f", top-1 agreement {agreement.top1:.0%}"
        lines.append(line)
    return lines


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("model", type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True, help="Write the IR here.")
@click.option("--weights", type=click.Path(path_type=Path), help="The npz archive of weights [OUTPUT with .npz].")
@click.option("--calibrate", type=click.Path(path_type=Path), help="A folder of .npy calibration inputs.")
@click.option("--seed", default=0, show_default=True, type=at_least(0), help="Seed of the random calibration inputs.")
@click.option("--samples", default=4, show_default=True, type=at_least(1), help="How many random calibration inputs.")
@click.option("--batch", default=1, show_default=True, type=at_least(1), help="Batch size when the model's is dynamic.")
def cli(
    model: Path, output: Path, weights: Path | None, calibrate: Path | None, seed: int, samples: int, batch: int
) -> None:
    """Import an ONNX model as an int8 task graph."""
    with reported_errors("stc-import"):
        if importlib.util.find_spec("onnx") is None or importlib.util.find_spec("onnxruntime") is None:
            raise StcError("stc-import needs onnx and onnxruntime: pip install 'stc[onnx]'")
        from stc.compiler.frontend.onnx_import import Calibration, import_onnx

        weights = weights or output.with_suffix(".npz")
        if weights.resolve().parent != output.resolve().parent:
            raise StcError(f"--weights {str(weights)!r} must be in the folder of the IR {str(output)!r}")
        result = import_onnx(model, weights, Calibration(calibrate, seed, samples), batch)
        output.write_text(module_text(result.module))
        for line in summary(result):
            click.echo(line, err=True)
        click.echo(f"wrote {output} and {weights}", err=True)


def main(args: Sequence[str] | None = None) -> None:
    run_command(cli, "stc-import", args)
