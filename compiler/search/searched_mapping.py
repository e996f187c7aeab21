"""
What `st-search` does to a module: for every task graph, search an RA tree (`chains.search`),
lower it to an `st` action script (`lowering.lower_tree`, which runs each action on the graph
with st-apply's executor as it writes it) and append the script as the graph's applied
`st.mapping`, so a searched schedule is mapped exactly as a hand-written script would be.
The mapping keeps the tree in the seed's notation and the
model's estimate:

```mlir
st.mapping @tiny target "tianjicx" applied attributes {st.search = {tree = "T 1/1\n\tconv4 1 ...",
    latency_cycles = 389 : i64, energy_pj = 1.2e+06 : f64, dram_bytes = ... : i64, noc_hop_bytes = ... : i64}} {
  st.split_group [4, 6] by [1, 8, 16, 1, 1]
  st.put_group_in 42 at (0, 0, 0, 0), (0, 0, axon)
  ...
}
```

    map_searched(module, SearchOptions(target="tianjicx", seed=0))
"""

from __future__ import annotations

from pathlib import Path

from attrs import frozen
from xdsl.dialects.builtin import DictionaryAttr, FloatAttr, IntegerAttr, ModuleOp, StringAttr, UnitAttr, f64, i64
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.cost.estimate import Estimate
from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.network import network_of
from stc.compiler.cost.objective import objective
from stc.compiler.cost.tree import Node
from stc.compiler.diagnostics import StcError
from stc.compiler.ir_files import module_text
from stc.compiler.search.annealing import RETURN_EVERY
from stc.compiler.search.chains import SPACES, search
from stc.compiler.search.lowering import lower_tree
from stc.compiler.targets.hardware import load_target
from stc.compiler.tiling.fit import split_reductions
from stc.dialects import task
from stc.dialects.st import RELAY_LOADS, MappingOp

SEARCH_ATTR = "st.search"
"""The discardable attribute of a searched mapping: its tree and estimate."""


@frozen
class SearchOptions:
    target: str
    cost: str = "edp"
    seed: int = 0
    rounds: int | None = None
    chains: int = 2
    budget: float | None = None
    space: str = "set"
    script: str | None = None
    relay: bool = True
    """On a target of several cores without multicast loads, price and lower shared loads
    relayed (`GlobalMemory.relay_loads`; the mapping says so with `st.relay_loads`)."""
    every: float = RETURN_EVERY
    """Each chain returns to its best tree after each such fraction of its rounds."""
    polish: bool = True
    """Each chain ends by joining one-layer segments without weights (`polish.py`)."""


def map_searched(module: ModuleOp, options: SearchOptions) -> None:
    """Search, lower and apply a schedule for every task graph of the module."""
    try:
        target = load_target(options.target).with_relay(options.relay)
        objective(options.cost)
        if options.space not in SPACES:
            raise StcError(f"unknown search space {options.space!r}: use {', '.join(SPACES)}")
        graphs = [op for op in module.ops if isinstance(op, task.GraphOp)]
        for graph in graphs:
            refuse_mapped(module, graph)
            split_reductions(graph, target)
            network = network_of(graph)
            result = search(
                network,
                target,
                cost=options.cost,
                seed=options.seed,
                rounds=options.rounds,
                chains=options.chains,
                budget_seconds=options.budget,
                space=options.space,
                every=options.every,
                polish=options.polish,
            )
            if not result.estimate.valid:
                raise StcError(f"st-search: no valid schedule of @{graph.graph_name}: {result.estimate.reason}")
            model = CostModel(network, target, options.cost)
            estimate = model.evaluate(result.tree)
            if not estimate.valid:
                raise StcError(
                    f"st-search: the tree the search returned for @{graph.graph_name} is invalid when priced "
                    f"afresh: {estimate.reason}"
                )
            unmapped = graph.clone() if options.script is not None else None
            mapping = lower_tree(graph, options.target, model, result.tree)
            mark_searched(mapping, model, result.tree, estimate)
            if options.script is not None and unmapped is not None:
                write_script(options.script, unmapped, mapping, len(graphs))
            module.body.block.add_op(mapping)
            mapping.applied = UnitAttr()
    except StcError as error:
        raise PassFailedException(str(error)) from None


def refuse_mapped(module: ModuleOp, graph: task.GraphOp) -> None:
    for op in module.ops:
        if isinstance(op, MappingOp) and op.graph_name == graph.graph_name:
            raise StcError(
                f"st-search: task.graph @{graph.graph_name} already has an st.mapping; "
                "st-search maps a graph that has none"
            )


def mark_searched(mapping: MappingOp, model: CostModel, tree: Node, estimate: Estimate) -> None:
    """Keep the tree and its estimate in a searched mapping (`st.search`), and mark it
    `st.relay_loads` where the model's target relays shared loads."""
    mapping.attributes[SEARCH_ATTR] = summary(tree.notation(model.network, model.network.batch), estimate)
    if model.target.global_memory.relay_loads:
        mapping.attributes[RELAY_LOADS] = UnitAttr()


def summary(tree: str, estimate: Estimate) -> DictionaryAttr:
    assert estimate.cost is not None
    work = estimate.cost.total_work
    return DictionaryAttr(
        {
            "tree": StringAttr(tree),
            "latency_cycles": IntegerAttr(round(estimate.latency), i64),
            "energy_pj": FloatAttr(estimate.energy, f64),
            "dram_bytes": IntegerAttr(work.dram_bytes, i64),
            "noc_hop_bytes": IntegerAttr(work.noc_hop_bytes, i64),
        }
    )


def write_script(path: str, graph: task.GraphOp, mapping: MappingOp, graphs: int) -> None:
    """The graph and its unapplied script, which `stc-opt FILE -p st-apply` maps again."""
    if graphs > 1:
        raise StcError(f"st-search: script={path} holds one graph's script; the module has {graphs} graphs")
    Path(path).write_text(module_text(ModuleOp([graph.clone(), mapping.clone()])) + "\n")
