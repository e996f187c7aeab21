"""
`stc-run`: execute an stc module and show, save or compare its outputs.

    stc-run net.mlir --seed 3 -o out.npz
    stc-run net.mlir --compare split.mlir      # exit 0 only if every output is bit-identical
    stc-run net.mlir --stats                   # one JSON object

Inputs are NCHW int8 arrays by name; outputs are NCHW arrays of the graph's element type
(int8, or int32 for raw sums). Inputs not given with --input are drawn uniformly from the
seed, once, and both files of a comparison run on the same arrays.
"""

from __future__ import annotations

import math
import sys
import time
import zipfile
from collections.abc import Sequence
from io import BytesIO
from pathlib import Path
from tokenize import TokenError
from typing import TYPE_CHECKING, Any, BinaryIO

import click
import numpy as np

from stc.compiler.diagnostics import StcError, reported_errors
from stc.compiler.files import check_regular_file, read_file
from stc.compiler.heap import collection_paused, frozen_between_passes
from stc.compiler.references import references_within
from stc.runtime.blocks import Graph
from stc.runtime.inputs import Arrays, completed_inputs
from stc.tools.ending import exit_at_once
from stc.tools.usage import at_least, run_command

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp


def parse_inputs(specs: tuple[str, ...]) -> Arrays:
    inputs: Arrays = {}
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep or not name or not path:
            raise StcError(f"--input takes NAME=FILE.npy, got {spec!r}")
        if name in inputs:
            raise StcError(f"--input {name} is given twice")
        check_regular_file(Path(path), f"--input {name}")
        inputs[name] = read_npy(f"--input {name}: {path!r}", Path(path))
    return inputs


NPY_FORMAT_ERRORS = (ValueError, EOFError, SyntaxError, TypeError, TokenError, RecursionError)
"""What numpy raises on a malformed .npy header (it tokenizes and evaluates the header's
Python literal) or data."""


def read_npy(role: str, path: Path) -> np.ndarray:
    """
    The one array of an .npy file; text, archives, Python objects and a header that
    declares more data than the file holds (checked before anything is allocated) are
    errors that start with `role`.
    """
    try:
        if zipfile.is_zipfile(path):
            raise StcError(f"{role} is an .npz archive; give each input as an .npy file")
        with path.open("rb") as file:
            shape, dtype = read_npy_header(role, file)
            declared = math.prod(shape) * dtype.itemsize
            held = path.stat().st_size - file.tell()
            if declared > held:
                raise StcError(f"{role}: its header declares {dtype}{list(shape)}, {declared} bytes, but {held} follow")
            file.seek(0)
            return np.lib.format.read_array(file, allow_pickle=False)
    except OSError as e:
        raise StcError(f"{role} cannot be read: {e.strerror}") from None
    except NPY_FORMAT_ERRORS as e:
        raise StcError(f"{role} is not an .npy array of numbers ({e})") from None


def read_npy_header(role: str, file: BinaryIO) -> tuple[tuple[int, ...], np.dtype]:
    """The shape and element type an .npy header declares; Python objects are an error."""
    version = np.lib.format.read_magic(file)
    if version == (1, 0):
        shape, _, dtype = np.lib.format.read_array_header_1_0(file)
    elif version == (2, 0):
        shape, _, dtype = np.lib.format.read_array_header_2_0(file)
    else:
        raise StcError(f"{role} is an .npy file of version {version}; versions 1.0 and 2.0 are read")
    if dtype.hasobject:
        raise StcError(f"{role} holds Python objects, not numbers")
    return shape, dtype


def read_confined(path: Path, role: str, data_dirs: Sequence[Path], plain: bool = True) -> ModuleOp | Graph:
    """
    An IR file, whose paths (target files) may name files in its directory and `data_dirs`
    only: with `plain`, a task graph the plain-data reader takes (no xDSL imported or ops
    built), else, and for anything that reader does not take, xDSL's verified module.
    """
    with references_within((path.parent, *data_dirs)):
        source = read_file(path, role)
        if plain and (graph := plain_graph(source)) is not None:
            return graph
        from stc.compiler.ir_files import module_of

        return module_of(path, source)


def plain_graph(source: bytes) -> Graph | None:
    """The task graph of an IR file's bytes, if the plain-data reader takes them."""
    try:
        text = source.decode()
    except UnicodeDecodeError:
        return None
    from stc.runtime.plain import read_plain

    return read_plain(text)


def holds_program(module: ModuleOp) -> bool:
    """
    Whether the module holds an isa program, not a task graph. Told by the op's name, and
    each kind of module's executor imported only when it runs, so that running a task
    graph imports neither the isa dialect nor the machine, and an isa file not the golden
    executor (`python -X importtime`).
    """
    return any(op.name == "isa.program" for op in module.ops)


def input_shapes(module: ModuleOp | Graph) -> dict[str, tuple[int, ...]]:
    """The NCHW shape of each input of the module's task graph or isa program, in order."""
    if isinstance(module, Graph):
        return module.input_shapes()
    if holds_program(module):
        from stc.runtime import machine

        return machine.input_shapes(machine.find_program(module))
    from stc.runtime import golden

    return golden.input_shapes(golden.find_graph(module))


def check_same_inputs(path: Path, shapes: dict[str, tuple[int, ...]], other: Path, module: ModuleOp | Graph) -> None:
    """A comparison runs both files on the same arrays: their inputs must agree."""
    other_shapes = input_shapes(module)
    for name in [*shapes, *(name for name in other_shapes if name not in shapes)]:
        mine, theirs = shapes.get(name), other_shapes.get(name)
        if mine != theirs:
            raise StcError(
                f"--compare: input {name!r} is {described(mine)} in {path} but {described(theirs)} in {other}"
            )


def described(shape: tuple[int, ...] | None) -> str:
    return "missing" if shape is None else f"NCHW {list(shape)}"


def execute(
    path: Path, module: ModuleOp | Graph, inputs: Arrays, data_dirs: Sequence[Path]
) -> tuple[Arrays, dict[str, Any] | None]:
    """The outputs, and the machine's counters when the module is an isa program. Data
    archives are read from the file's directory and `data_dirs` only."""
    if isinstance(module, Graph):
        from stc.runtime.data import DataStore
        from stc.runtime.execution import GoldenExecutor

        return GoldenExecutor(DataStore(path.parent, data_dirs)).run(module, inputs), None
    if holds_program(module):
        from stc.runtime.machine import run_isa_module

        return run_isa_module(module, inputs, base_dir=path.parent, data_dirs=data_dirs)
    from stc.runtime.golden import run_module

    return run_module(module, inputs, base_dir=path.parent, data_dirs=data_dirs), None


def task_graph_stats(module: ModuleOp) -> dict[str, Any]:
    from stc.dialects.task.stats import graph_stats
    from stc.runtime.golden import find_graph

    return graph_stats(find_graph(module))


def differences(name: str, a: np.ndarray, b: np.ndarray) -> str | None:
    """Where two outputs differ, in one line; None when they are bit-identical."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return f"{name}: {a.dtype}{list(a.shape)} vs {b.dtype}{list(b.shape)}"
    if np.array_equal(a, b):
        return None
    diff = np.argwhere(a != b)
    first = tuple(int(i) for i in diff[0])
    worst = int(np.abs(a.astype(np.int64) - b.astype(np.int64)).max())
    return (
        f"{name}: {len(diff)} of {a.size} elements differ, first at {list(first)} "
        f"({a[first]} vs {b[first]}), max |difference| {worst}"
    )


def comparison(path: Path, outputs: Arrays, other_path: Path, other: Arrays) -> list[str]:
    """One line per difference between the outputs of two files; empty when every
    output is bit-identical."""
    if set(outputs) != set(other):
        return [f"outputs differ: {path} has {sorted(outputs)}, {other_path} has {sorted(other)}"]
    return [p for name in sorted(outputs) if (p := differences(name, outputs[name], other[name]))]


def save_arrays(path: Path, arrays: Arrays) -> None:
    """
    Write an .npz archive (one `NAME.npy` member per array) to exactly `path`. Not
    np.savez: it takes the names as keyword arguments, so an output named `file` or
    `allow_pickle` would break or vanish. The archive is built in memory and written at once, so any writable path works
    (`/dev/null` too: zipfile cannot seek in it).
    """
    buffer = BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, array in arrays.items():
            with archive.open(f"{name}.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, array, allow_pickle=False)
    try:
        path.write_bytes(buffer.getvalue())
    except OSError as e:
        raise StcError(f"-o: {str(path)!r} cannot be written: {e.strerror}") from None


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--input", "input_specs", multiple=True, metavar="NAME=X.npy", help="An NCHW input array.")
@click.option("--seed", default=0, show_default=True, type=at_least(0), help="Seed of the inputs not given.")
@click.option("-o", "--output", type=click.Path(path_type=Path), help="Save the outputs to this .npz file.")
@click.option(
    "--compare",
    "other",
    type=click.Path(path_type=Path),
    help="Run this file too; exit 1 unless outputs are bit-identical.",
)
@click.option(
    "--data-dir",
    "data_dirs",
    multiple=True,
    type=click.Path(path_type=Path),
    help="A directory #task.npz archives may be in, besides the IR file's own. Repeatable.",
)
@click.option("--stats", is_flag=True, help="Print statistics (and the comparison) as one JSON object.")
def cli(
    file: Path,
    input_specs: tuple[str, ...],
    seed: int,
    output: Path | None,
    other: Path | None,
    data_dirs: tuple[Path, ...],
    stats: bool,
) -> None:
    """Execute an stc module."""
    problems: list[str] = []
    with reported_errors("stc-run"), frozen_between_passes() as settle:
        with collection_paused():  # the modules live until the end: frozen before any collection walks them
            module = read_confined(file, "", data_dirs, plain=not stats)  # statistics are counted on xDSL's ops
            shapes = input_shapes(module)
            compared = None if other is None else (other, read_confined(other, "--compare", data_dirs))
            settle()
        if compared is not None:
            check_same_inputs(file, shapes, *compared)
        inputs = completed_inputs(shapes, parse_inputs(input_specs), seed)
        start = time.perf_counter()
        outputs, counters = execute(file, module, inputs, data_dirs)
        seconds = time.perf_counter() - start
        if output is not None:
            save_arrays(output, outputs)
        if compared is not None:
            problems = comparison(file, outputs, compared[0], execute(*compared, inputs, data_dirs)[0])
        if stats:
            report = (task_graph_stats(module) if counters is None else counters) | {
                "run_seconds": round(seconds, 4),
                "outputs": {name: list(array.shape) for name, array in outputs.items()},
            }
            if other is not None:
                report["compare"] = {"file": str(other), "bit_identical": not problems, "differences": problems}
            import json

            click.echo(json.dumps(report))
        elif other is not None:
            click.echo("\n".join(problems) if problems else f"{len(outputs)} outputs bit-identical")
        elif output is None:
            for name, array in outputs.items():
                click.echo(f"{name}: {array.dtype}{list(array.shape)} checksum {int(array.astype(np.int64).sum())}")
    sys.exit(1 if problems else 0)


def main(args: Sequence[str] | None = None) -> None:
    """`stc-run` with `args`; as the console script (no `args`), the process ends at once
    when the run does (`exit_at_once`)."""
    if args is not None:
        run_command(cli, "stc-run", args)
    try:
        run_command(cli, "stc-run")
    except SystemExit as end:
        exit_at_once(end.code)
