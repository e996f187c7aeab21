"""
Searched schedules on the machine: compile a network with `st-search` (or with today's
`st-place` path), run the programs, check them bit-identical against the golden executor
and hold the cost model's estimate against the machine's counters. Used by
`bench_search --machine` and `--tianjicx` and by the tests.

    run = run_searched(build_network("lenet"), "set-8x8", rounds=20)
    run.ratio("cycles")          # machine / model
"""

from __future__ import annotations

import resource
import time

from attrs import frozen
from xdsl.context import Context
from xdsl.dialects.builtin import DictionaryAttr, FloatAttr, IntegerAttr, ModuleOp, StringAttr, UnitAttr
from xdsl.passes import ModulePass

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.network import network_of
from stc.compiler.cost.tree import Node
from stc.compiler.diagnostics import StcError
from stc.compiler.heap import apply_in_turn
from stc.compiler.search.lowering import lower_tree
from stc.compiler.search.searched_mapping import SEARCH_ATTR, mark_searched
from stc.compiler.targets.hardware import load_target
from stc.dialects import isa
from stc.dialects.st import MappingOp
from stc.passes.isa_lower import IsaLowerPass
from stc.passes.st_lmem_alloc import StLmemAllocPass
from stc.passes.st_route import StRoutePass
from stc.passes.st_search import StSearchPass
from stc.passes.stc_pipeline import StcPipelinePass
from stc.runtime.golden import find_graph, random_inputs, run_module
from stc.runtime.machine import find_program, run_isa_module

COMPARED = ("cycles", "dram_bytes", "noc_hop_bytes")
"""The machine's counters the estimate is held against."""


@frozen
class MachineRun:
    """A compiled network's run: the machine's counters, the model's estimate (searched
    schedules only), the tree, whether the outputs were bit-identical, the mesh's use."""

    counters: dict
    estimate: dict
    tree: str
    identical: bool
    busy: tuple[int, ...]
    """Per phase, the cores running a conv or fc (`busy_per_phase`)."""
    compile_seconds: float = 0.0
    """Wall seconds of the compilation (the passes, not the runs)."""
    compile_cpu: float = 0.0
    """CPU seconds of the compilation, this process and its finished children (the chains)."""

    @property
    def busy_cores(self) -> float:
        """Average over all phases of the cores running a conv or fc."""
        return sum(self.busy) / max(len(self.busy), 1)

    def mostly_busy(self, cores: int) -> float:
        """The share of phases in which more than half of the `cores` run a conv or fc."""
        return sum(count > cores / 2 for count in self.busy) / max(len(self.busy), 1)

    def ratio(self, counter: str) -> float:
        """Machine over model; 1 when both are 0 (no NoC on a one-core target)."""
        if self.counters[counter] == self.estimate[counter]:
            return 1.0
        return self.counters[counter] / max(self.estimate[counter], 1)


def estimate_of(module: ModuleOp) -> tuple[dict, str]:
    mapping = next(op for op in module.ops if isinstance(op, MappingOp))
    summary = mapping.attributes[SEARCH_ATTR]
    assert isinstance(summary, DictionaryAttr)
    fields = summary.data
    numbers = {}
    for key, name in (("latency_cycles", "cycles"), ("dram_bytes", "dram_bytes"), ("noc_hop_bytes", "noc_hop_bytes")):
        value = fields[key]
        assert isinstance(value, IntegerAttr | FloatAttr)
        numbers[name] = value.value.data
    tree = fields["tree"]
    assert isinstance(tree, StringAttr)
    return numbers, tree.data


def busy_per_phase(module: ModuleOp) -> list[int]:
    """Per phase of the program (pools and adds included), the cores that run a conv or fc
    in it."""
    program = find_program(module)
    busy: dict[int, set] = {}
    for core in program.cores():
        for phase, _, op in core.numbered_instructions():
            if isinstance(op, isa.ConvOp | isa.FcOp):
                busy.setdefault(phase, set()).add(core.coord)
    return [len(busy.get(phase, ())) for phase in range(program.phase_count())]


def cpu_seconds() -> float:
    """CPU seconds of this process and its finished children (the chains' workers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def compile_with(passes: list[ModulePass], module: ModuleOp) -> tuple[float, float]:
    """Apply the passes as stc-pipeline does (`apply_in_turn`); their wall and CPU seconds."""
    wall, cpu = time.monotonic(), cpu_seconds()
    apply_in_turn(passes, Context(), module)
    return time.monotonic() - wall, cpu_seconds() - cpu


def finish(module: ModuleOp, expected: dict, estimate: dict, tree: str, seconds: tuple[float, float]) -> MachineRun:
    outputs, counters = run_isa_module(module, seed=0)
    identical = outputs.keys() == expected.keys() and all(
        outputs[name].dtype == expected[name].dtype and (outputs[name] == expected[name]).all() for name in expected
    )
    return MachineRun(counters, estimate, tree, identical, tuple(busy_per_phase(module)), *seconds)


def run_searched(
    module: ModuleOp,
    target: str,
    seed: int = 0,
    rounds: int | None = None,
    chains: int = 2,
    space: str = "set",
    relay: bool = True,
) -> MachineRun:
    """st-search (in `space`, with `relay`), st-route, st-lmem-alloc, isa-lower, then the
    machine (module is changed)."""
    expected = run_module(module, random_inputs(find_graph(module), 0))
    search = StSearchPass(target=target, seed=seed, rounds=rounds, chains=chains, space=space, relay=relay)
    searching = compile_with([search], module)
    estimate, tree = estimate_of(module)
    lowering = compile_with([StRoutePass(), StLmemAllocPass(), IsaLowerPass()], module)
    seconds = (searching[0] + lowering[0], searching[1] + lowering[1])
    return finish(module, expected, estimate, tree, seconds)


def run_tree(module: ModuleOp, target: str, tree: Node, relay: bool = False, keep: bool = True) -> MachineRun:
    """A given RA tree lowered as st-search lowers its best one (`relay`: as
    st-search{relay=true}, its default; without `keep`, every tensor between segments
    through DRAM), then the machine."""
    graph = find_graph(module)
    expected = run_module(module, random_inputs(graph, 0))
    network = network_of(graph)
    model = CostModel(network, load_target(target).with_relay(relay), keep=keep)
    estimate = model.evaluate(tree)
    if not estimate.valid:
        raise StcError(f"the tree is invalid: {estimate.reason}")
    mapping = lower_tree(graph, target, model, tree)
    mark_searched(mapping, model, tree, estimate)
    module.body.block.add_op(mapping)
    mapping.applied = UnitAttr()
    numbers, notation = estimate_of(module)
    seconds = compile_with([StRoutePass(), StLmemAllocPass(), IsaLowerPass()], module)
    return finish(module, expected, numbers, notation, seconds)


def run_placed(module: ModuleOp, target: str) -> MachineRun:
    """Today's path, stc-pipeline with st-place, then the machine (module is changed)."""
    expected = run_module(module, random_inputs(find_graph(module), 0))
    return finish(module, expected, {}, "", compile_with([StcPipelinePass(target=target, search=False)], module))
