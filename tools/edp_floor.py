"""
The least EDP a network could reach on a target under the cost model, against a tree's:
energy floor × latency floor.

- Latency: every layer's MAC and vector cycles (fused luts and pools, `CostModel.layer_time`,
  as the machine counts them) spread evenly over all the cores: the busiest core's time at
  best. The compute bound counts the MACs alone.
- Energy: the MACs; the buffers inside the cores at the tree's partitions, or at each conv's
  least over every subbatch and every partition of all the cores (`least_core_pj`); local
  memory and DRAM at `energy_parts.floor`; no NoC byte.

    python -m stc.tools.bench_search --only vgg19-conv --spaces set --seed 0 --parts
"""

from __future__ import annotations

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.layer_cost import buffer_accesses
from stc.compiler.cost.partition import Partition, dimensions, divisors, factorisations
from stc.compiler.cost.tree import Node
from stc.compiler.targets.cost_units import Work, core_buffer_pj, energy_pj
from stc.tools.energy_parts import floor, leaf_works


def busiest_floor(model: CostModel) -> float:
    """Cycles of every layer's MAC and vector work over all the cores, evenly."""
    return sum(model.layer_time) * model.network.batch / model.context.mesh.core_count


def least_core_pj(model: CostModel, layer: int) -> float:
    """A layer's least core-buffer energy over the whole batch: of every subbatch and every
    partition that uses all the cores, each piece along its cheapest dataflow."""
    network, target = model.network, model.target
    spec, cores = network.layers[layer], model.context.mesh.core_count
    if spec.kind != "conv" or target.core_buffers is None:
        return 0.0
    counts = [row for row in factorisations(cores).tolist() if row[0] * row[1] * row[2] * row[3] == cores]
    least = float("inf")
    for runs in divisors(network.batch):
        batch = network.batch // runs
        limits = dimensions(spec, batch)
        for row in counts:
            if all(count <= limit for count, limit in zip(row, limits, strict=True)):
                accesses = buffer_accesses(target.core_buffers, spec, batch, Partition(*row))
                least = min(least, runs * core_buffer_pj(target, Work(**accesses)))
    return least


def floor_rows(model: CostModel, tree: Node, reference_edp: float) -> list[str]:
    """The tree's EDP and the floors', over `reference_edp`, with their parts."""
    target, layers = model.target, range(len(model.network.layers))
    estimate = model.evaluate(tree)
    assert estimate.cost is not None
    spent = energy_pj(target, estimate.cost.total_work)
    compute = model.network.macs / (model.context.mesh.core_count * target.compute.macs_per_cycle)
    busiest = busiest_floor(model)
    works = leaf_works(model, tree)
    core = sum(core_buffer_pj(target, works[layer][1]) for layer in layers)
    least = sum(least_core_pj(model, layer) for layer in layers)
    outside = sum(energy_pj(target, floor(model, model.network.layers[layer]))["total"] for layer in layers)
    mac = spent["mac"]
    lines = [
        f"  latency: the tree {estimate.latency:,.0f} cyc = {estimate.latency / compute:.4f} x compute "
        f"({compute:,.0f}: MACs alone); MACs and vector work over all cores {busiest:,.0f} = {busiest / compute:.4f} x",
        f"  energy: MACs {mac:.4e}, core buffers {core:.4e} (least {least:.4e}), local memory and DRAM "
        f"floor {outside:.4e} pJ; the tree's {estimate.energy:.4e}",
        f"  EDP / reference: the tree {estimate.energy * estimate.latency / reference_edp:.4f}",
    ]
    for name, buffers in (("the tree's partitions", core), ("the least partitions", least)):
        energy = mac + buffers + outside
        lines.append(
            f"    floor at {name}: {energy * compute / reference_edp:.4f} at the compute bound, "
            f"{energy * busiest / reference_edp:.4f} at the busiest cores' MAC and vector work"
        )
    return lines
