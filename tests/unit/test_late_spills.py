"""Late spills of a many-core layer group (`compiler/grouping/spills.py`): st-place stores a
member's result that goes through global memory a phase late where that pays, each phase
priced as the machine runs it."""

from pathlib import Path

import numpy as np
from test_task_split import parse
from xdsl.context import Context

from stc.compiler.grouping.spills import CoreWork
from stc.compiler.memory.plan import MemoryPlan
from stc.compiler.references import references_within
from stc.compiler.targets.hardware import load_target
from stc.dialects import task
from stc.dialects.st import STORE_LATE
from stc.passes.isa_lower import IsaLowerPass
from stc.passes.st_lmem_alloc import StLmemAllocPass
from stc.passes.st_place import StPlacePass
from stc.passes.st_route import StRoutePass
from stc.passes.task_layer_group import TaskLayerGroupPass
from stc.runtime.machine import run_isa_module

LIT = Path(__file__).parents[1] / "lit" / "task-layer-group"
TARGET = LIT / "Inputs" / "set-1x2.toml"
"""set-8x8 cut to two cores: DMA beside compute."""


def test_late_spills_are_priced_as_the_machine_runs_them():
    """`late-spill.mlir`: with and without the late store, every phase's price (the slowest
    core's `step_cycles`) equals the machine's phase; the late store is marked, pays, and
    the outputs are bit-identical."""
    text = (LIT / "late-spill.mlir").read_text()
    hardware = load_target(str(TARGET))
    cycles, outputs = {}, {}
    with references_within([TARGET.parent]):
        for delay in (True, False):
            module = parse(text)
            TaskLayerGroupPass(target=str(TARGET), group=(4, 6)).apply(Context(), module)
            StPlacePass(target=str(TARGET), delay=delay).apply(Context(), module)
            graph = next(op for op in module.walk() if isinstance(op, task.GraphOp))
            late = {op.task_id for op in graph.tasks() if STORE_LATE in op.attributes}
            assert late == ({4} if delay else set())
            work = CoreWork(MemoryPlan(graph, hardware, "test"), hardware)
            for task_id in late:
                work.store_late(task_id, True)
            prices = [work.phase_cycles(time) for time in work.times()]
            for lowering in (StRoutePass(), StLmemAllocPass(), IsaLowerPass()):
                lowering.apply(Context(), module)
            x = np.random.default_rng(0).integers(-128, 128, (1, 16, 16, 16), dtype=np.int8)
            outputs[delay], counters = run_isa_module(module, {"x": x}, base_dir=TARGET.parent)
            assert prices == counters["phase_cycles"]
            cycles[delay] = counters["cycles"]
    assert cycles[True] < cycles[False]
    np.testing.assert_array_equal(outputs[True]["y"], outputs[False]["y"])
