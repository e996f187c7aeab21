"""
A float (or power-of-two QDQ) ONNX model as an int8 task graph, with its weights in an npz
archive, and how closely the int8 graph follows the float model on the calibration inputs.

    result = import_onnx(Path("net.onnx"), Path("net.npz"), Calibration(seed=0, samples=4))
    result.module            # the task graph; data blocks reference #task.npz<"net.npz", ...>
    result.agreement         # per output: cosine similarity, top-1 agreement

Calibration runs the float model in onnxruntime on the user's inputs or on random ones,
fixes every tensor's power-of-two scale from its largest magnitude, and the golden
executor then runs the int8 graph on the same inputs, quantised at the input's scale; both
runs advance one progress bar on a terminal.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import attrs
import numpy as np
from xdsl.dialects.builtin import ModuleOp

from stc.compiler.frontend.calibration import Sample, calibration_inputs, run_float
from stc.compiler.frontend.lowering import NodeLowering
from stc.compiler.frontend.onnx_model import read_model
from stc.compiler.frontend.scales import cosine, quantize
from stc.compiler.progress import progress
from stc.runtime.golden import run_module


@attrs.frozen
class Calibration:
    directory: Path | None = None
    """A folder of .npy inputs; None draws `samples` standard-normal inputs from `seed`."""
    seed: int = 0
    samples: int = 4

    def describe(self, count: int) -> str:
        if self.directory is not None:
            return f"{count} samples from {self.directory}"
        return f"{count} random standard-normal samples (seed {self.seed})"


@attrs.frozen
class Agreement:
    output: str
    cosine: float
    top1: float | None
    """Fraction of rows whose argmax agrees, for an N×classes output."""


@attrs.frozen
class ImportResult:
    module: ModuleOp
    imported: Counter[str]
    folded: Counter[str]
    requantised: int
    calibration: str
    scales: dict[str, float]
    """The scale of each graph input and output: real value = int8 code × scale."""
    agreement: list[Agreement]


def import_onnx(
    path: Path,
    npz_path: Path,
    calibration: Calibration,
    batch: int = 1,
) -> ImportResult:
    """Import the model, write its weights to `npz_path`, and measure the int8 graph
    against the float model (the IR is to be written beside the npz)."""
    model = read_model(path, batch)
    samples = calibration_inputs(model.inputs, calibration.directory, calibration.seed, calibration.samples)
    with progress("stc-import: calibration", total=2 * len(samples)) as bar:
        float_run = run_float(path, samples, bar.advance)
        lowering = NodeLowering(model, float_run.max_abs, npz_path.name)
        module = lowering.run()
        np.savez(npz_path, **lowering.arrays)
        tensors = {name: name for name in model.inputs} | model.outputs
        scales = {name: lowering.values[tensor].scale for name, tensor in tensors.items()}
        outputs = []
        for sample in samples:
            outputs.append(run_int8(module, sample, scales, npz_path.parent))
            bar.advance()
    agreement = [
        measured(name, [run[name] for run in float_run.outputs], [run[name] for run in outputs])
        for name in model.outputs
    ]
    return ImportResult(
        module,
        lowering.imported,
        model.folded,
        lowering.requantised,
        calibration.describe(len(samples)),
        scales,
        agreement,
    )


def run_int8(module: ModuleOp, sample: Sample, scales: dict[str, float], base_dir: Path) -> Sample:
    """The int8 graph's outputs on a float sample, back in real units."""
    inputs = {
        name: quantize(x if x.ndim == 4 else x.reshape(*x.shape, 1, 1), scales[name]) for name, x in sample.items()
    }
    results = run_module(module, inputs, base_dir=base_dir)
    return {name: codes.astype(np.float64) * scales[name] for name, codes in results.items()}


def measured(name: str, reference: list[np.ndarray], int8: list[np.ndarray]) -> Agreement:
    expected = np.concatenate([r.reshape(r.shape[0], -1) for r in reference])
    actual = np.concatenate([a.reshape(a.shape[0], -1) for a in int8])
    top1 = None
    if reference[0].ndim == 2 and expected.shape[1] > 1:
        top1 = float(np.mean(expected.argmax(axis=1) == actual.argmax(axis=1)))
    return Agreement(name, cosine(expected, actual), top1)
