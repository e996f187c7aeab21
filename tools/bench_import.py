"""
Benchmark of stc-import on a model no one here wrote: torchvision's ResNet-18 (random
weights), exported to ONNX at 1×3×224×224, imported, compiled for tianjicx with
stc-pipeline and run on the machine, which must match the golden executor bit for bit.

    python -m stc.tools.bench_import [--samples 8] [--runs 3] [--keep build/bench-import]

Needs the `torch` extra (`pip install stc[torch]`); without torch it says so and exits 0.
Prints the int8 graph's cosine similarity and top-1 agreement with onnxruntime's float
result, and the time of each step (min and median of `--runs` imports).
"""

from __future__ import annotations

import importlib.util
import statistics
import tempfile
import time
from pathlib import Path

import click
import numpy as np
from xdsl.context import Context

from stc.compiler.ir_files import module_text
from stc.runtime.golden import find_graph, random_inputs, run_module
from stc.runtime.machine import run_isa_module


def export_resnet18(path: Path, seed: int) -> None:
    import torch
    import torchvision

    torch.manual_seed(seed)
    model = torchvision.models.resnet18(weights=None).eval()
    example = torch.randn(1, 3, 224, 224)
    torch.onnx.export(model, (example,), str(path), input_names=["image"], output_names=["logits"], dynamo=False)


@click.command()
@click.option("--samples", default=8, show_default=True, help="Random calibration inputs.")
@click.option("--runs", default=3, show_default=True, help="Repetitions of the import; min and median are printed.")
@click.option("--keep", type=click.Path(path_type=Path), help="Keep the ONNX model, IR and npz in this folder.")
def main(samples: int, runs: int, keep: Path | None) -> None:
    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("torchvision") is None:
        print("bench_import: skipped, torch and torchvision are not installed (pip install 'stc[torch]')")
        return
    import warnings

    from stc.compiler.frontend.onnx_import import Calibration, import_onnx
    from stc.passes.stc_pipeline import StcPipelinePass

    with tempfile.TemporaryDirectory() as scratch:
        folder = keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        model = folder / "resnet18.onnx"
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            export_resnet18(model, seed=0)
        print(f"torchvision resnet18 exported to ONNX in {time.perf_counter() - start:.1f} s")
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            result = import_onnx(model, folder / "resnet18.npz", Calibration(seed=0, samples=samples))
            times.append(time.perf_counter() - start)
        (folder / "resnet18.mlir").write_text(module_text(result.module))
        median = statistics.median(times)
        print(f"stc-import ({samples} calibration samples): min {min(times):.1f} s, median {median:.1f} s")
        print("  imported: " + ", ".join(f"{op} {n}" for op, n in sorted(result.imported.items())))
        print("  folded or removed: " + (", ".join(f"{op} {n}" for op, n in sorted(result.folded.items())) or "none"))
        print(f"  requantisations inserted: {result.requantised}")
        for agreement in result.agreement:
            top1 = "" if agreement.top1 is None else f", top-1 agreement {agreement.top1:.0%}"
            print(f"  {agreement.output}: cosine similarity {agreement.cosine:.4f} to onnxruntime (goal >= 0.99){top1}")

        module = result.module
        inputs = random_inputs(find_graph(module), seed=1)
        expected = run_module(module, inputs, base_dir=folder)
        start = time.perf_counter()
        StcPipelinePass(target="tianjicx").apply(Context(), module)
        module.verify()
        compile_seconds = time.perf_counter() - start
        (folder / "resnet18.tianjicx.isa.mlir").write_text(module_text(module))
        outputs, counters = run_isa_module(module, inputs, base_dir=folder)
        identical = all(np.array_equal(outputs[name], expected[name]) for name in expected)
        print(f"stc-pipeline{{target=tianjicx}}: {compile_seconds:.1f} s")
        print(f"  machine run bit-identical to the golden executor: {identical}")
        print(f"  machine: {counters['cycles']} cycles, {counters['macs']} MACs")
        if not identical:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
