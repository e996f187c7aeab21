"""
The golden executor on a `task.graph` op: the graph is turned into plain data
(`stc.runtime.from_ops`) and run by `stc.runtime.execution`.

    outputs = run_module(module, {"image": x_nchw})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from stc.compiler.diagnostics import StcError
from stc.dialects import task
from stc.runtime.blocks import nchw
from stc.runtime.data import DataStore
from stc.runtime.execution import GoldenExecutor
from stc.runtime.from_ops import plain_graph
from stc.runtime.inputs import Arrays, completed_inputs, random_int8_inputs


def find_graph(module: ModuleOp) -> task.GraphOp:
    graphs = [op for op in module.ops if isinstance(op, task.GraphOp)]
    if len(graphs) != 1:
        raise StcError(f"expected one task.graph in the module, found {len(graphs)}")
    return graphs[0]


def input_shapes(graph: task.GraphOp) -> dict[str, tuple[int, ...]]:
    """The NCHW shape of each input, in input order."""
    return {op.input_name.data: nchw(op.result.type.get_shape()) for op in graph.inputs()}


def random_inputs(graph: task.GraphOp, seed: int) -> Arrays:
    """Uniform int8 inputs in NCHW, drawn in input order from one generator."""
    return random_int8_inputs(input_shapes(graph), seed)


def run_module(
    module: ModuleOp,
    inputs: Mapping[str, np.ndarray] | None = None,
    seed: int = 0,
    base_dir: Path | None = None,
    data_dirs: Sequence[Path] = (),
) -> Arrays:
    """Run the module's task graph; inputs and outputs are NCHW arrays by name. Inputs
    not given are drawn from `seed`."""
    graph = find_graph(module)
    feeds = completed_inputs(input_shapes(graph), inputs or {}, seed)
    return GoldenExecutor(DataStore(base_dir, data_dirs)).run(plain_graph(graph), feeds)
