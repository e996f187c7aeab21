"""
Calibration: the float model run by onnxruntime on the calibration inputs, every
intermediate tensor exposed, to learn the largest magnitude each tensor takes (its scale)
and the float outputs the int8 graph is compared with.

    samples = calibration_inputs(model.inputs, None, seed=0, count=4)
    run = run_float(Path("net.onnx"), samples)
    run.max_abs["conv1_out"], run.outputs[0]["logits"]

`onnxruntime` is imported inside `run_float` only: it is a dependency of `stc-import`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import attrs
import numpy as np

from stc.compiler.diagnostics import StcError

Sample = dict[str, np.ndarray]
"""One set of float NCHW model inputs, by name."""


@attrs.frozen
class FloatRun:
    max_abs: dict[str, float]
    """Every tensor's largest magnitude over all samples."""
    outputs: list[Sample]
    """The model's outputs, per sample."""


def calibration_inputs(
    shapes: Mapping[str, tuple[int, ...]], directory: Path | None, seed: int, count: int
) -> list[Sample]:
    """Samples read from `directory` (one .npy per sample for a single-input model, a
    subfolder per input otherwise), or `count` standard-normal samples drawn from `seed`."""
    if directory is None:
        rng = np.random.default_rng(seed)
        return [
            {name: rng.standard_normal(shape).astype(np.float32) for name, shape in shapes.items()}
            for _ in range(count)
        ]
    if not directory.is_dir():
        raise StcError(f"--calibrate: {str(directory)!r} is not a directory")
    per_input = {
        name: read_samples(directory if len(shapes) == 1 else directory / name, name, shape)
        for name, shape in shapes.items()
    }
    counts = {len(arrays) for arrays in per_input.values()}
    if len(counts) != 1:
        raise StcError(f"--calibrate: the inputs have different numbers of samples ({sorted(counts)})")
    return [{name: arrays[i] for name, arrays in per_input.items()} for i in range(counts.pop())]


def read_samples(folder: Path, name: str, shape: tuple[int, ...]) -> list[np.ndarray]:
    """The samples of one input: each .npy holds one sample (shape, or shape without the
    batch) or a stack of them (a multiple of the batch)."""
    files = sorted(folder.glob("*.npy")) if folder.is_dir() else []
    if not files:
        raise StcError(f"--calibrate: no .npy files for input {name!r} in {str(folder)!r}")
    samples = []
    for file in files:
        try:
            array = np.load(file, allow_pickle=False)
        except (ValueError, OSError) as error:
            raise StcError(f"--calibrate: cannot read {str(file)!r} ({error})") from None
        if array.dtype.kind not in "fiu":
            raise StcError(f"--calibrate: {str(file)!r} holds {array.dtype}, expected numbers")
        if array.shape == shape[1:] and shape[0] == 1:
            array = array[None]
        if array.ndim != len(shape) or array.shape[1:] != shape[1:] or array.shape[0] % shape[0]:
            raise StcError(
                f"--calibrate: {str(file)!r} has shape {list(array.shape)}; input {name!r} takes "
                f"{list(shape)} (or a stack of such batches)"
            )
        samples.extend(np.split(array.astype(np.float32), array.shape[0] // shape[0]))
    return samples


def run_float(path: Path, samples: list[Sample], advance: Callable[[], None] = lambda: None) -> FloatRun:
    """Run the float model on every sample with all its node outputs exposed."""
    import onnx
    import onnxruntime

    proto = onnx.load(str(path))
    outputs = [o.name for o in proto.graph.output]
    exposed = set(outputs)
    for node in proto.graph.node:
        for name in node.output:
            if name and name not in exposed:
                proto.graph.output.append(onnx.ValueInfoProto(name=name))
                exposed.add(name)
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 4  # errors are reported as stc-import's own message
    onnxruntime.set_default_logger_severity(4)
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    try:
        session = onnxruntime.InferenceSession(proto.SerializeToString(), options, providers=["CPUExecutionProvider"])
    except Exception as error:  # noqa: BLE001 - onnxruntime raises its own kinds
        raise StcError(f"onnxruntime cannot load {str(path)!r}: {str(error).strip()}") from None
    names = [o.name for o in session.get_outputs()]
    max_abs: dict[str, float] = dict.fromkeys(names, 0.0)
    results: list[Sample] = []
    for sample in samples:
        try:
            values = session.run(names, sample)
        except Exception as error:  # noqa: BLE001
            raise StcError(f"onnxruntime cannot run {str(path)!r}: {str(error).strip()}") from None
        for name, value in zip(names, values, strict=True):
            value = np.asarray(value)
            if value.dtype.kind in "fiu" and value.size:
                max_abs[name] = max(max_abs[name], float(np.abs(value.astype(np.float64)).max()))
        for name, value in sample.items():
            max_abs[name] = max(max_abs.get(name, 0.0), float(np.abs(value).max(initial=0.0)))
        results.append({name: np.asarray(values[names.index(name)]) for name in outputs})
        advance()
    return FloatRun(max_abs, results)
