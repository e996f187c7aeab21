"""
A lower bound of a leaf's cost (`layer_cost.leaf_cost`) from what is cheap to price: its
compute, its DRAM loads and stores, its weights' loading and a floor of what its on-chip
inputs cost (`transfers.send_floor`: per producer core its boxes' sends but for the one copy
to its own core, every box read once and sent over a link per other core that takes it),
nothing that depends on where the leaf and its producers run. The choice of a leaf's
partition prices the candidates in the order of their bounds and stops at the first whose
bound exceeds the cheapest priced so far: the partitions it skips cost more, so it chooses
what pricing them all chooses, for a fraction of the work.

Each term below is computed as `leaf_cost` computes it with the terms it leaves out taken as
zero (NoC hop-bytes of DRAM loads, stores and weights, NC1HWC0 staging) and the on-chip
inputs' at their floor: float sums and products of non-negative terms only grow as terms
grow, so the bound is at most the cost, exactly, not just up to rounding.

    bound = leaf_bound(context, layer, part, batch, (None,), Output.DRAM, objective)
    bound <= objective(cost.energy(target), cost.latency)   # cost = leaf_cost(..., (None,), Output.DRAM)
    leaf_bound(..., objective, runs=4) <= model.over_runs(cost, 4)
"""

from __future__ import annotations

import numpy as np

from stc.compiler.cost.layer_cost import Context, Output, Placed, buffer_accesses, local_bytes, needed_volume
from stc.compiler.cost.loads import input_groups, weight_dram
from stc.compiler.cost.network import Layer
from stc.compiler.cost.node_cost import scaled
from stc.compiler.cost.objective import Objective
from stc.compiler.cost.partition import Partition, pieces
from stc.compiler.cost.transfers import send_floor
from stc.compiler.targets.cost_units import Work, dma_cycles, energy_pj


def leaf_bound(
    context: Context,
    layer: Layer,
    part: Partition,
    batch: int,
    inputs: tuple[Placed | None, ...],
    output: Output,
    objective: Objective,
    runs: int = 1,
    floors: bool = True,
) -> float:
    """At most `objective` of the leaf's energy and latency over `runs` runs with its weights
    loaded once (`CostModel.over_runs`; `inputs[i]`: source i's producer on chip, None: in
    DRAM); see the module docstring. It depends on the producers' partitions and batches, not
    on where the leaf and its producers run. Without `floors` the on-chip inputs' floors are
    taken as zero: a weaker bound, at most the full one, for a fraction of its work."""
    target = context.target
    box = pieces(layer, batch, part)
    outputs = box.outputs
    reduction = layer.in_channels * layer.kernel[0] * layer.kernel[1] if layer.kind == "conv" else 0
    vector = outputs * layer.vector_bytes_per_output
    cycles = -(-(outputs * reduction) // target.compute.macs_per_cycle) + np.ceil(
        vector / target.local_memory.bandwidth_bytes_per_cycle
    )
    ifm = np.zeros(part.cores)
    dram = np.zeros(part.cores)
    bandwidths = (
        target.noc.link_bandwidth_bytes_per_cycle,
        target.local_memory.bandwidth_bytes_per_cycle,
        target.noc.hop_latency_cycles,
    )
    received = sent = hops = unread = injection = 0.0
    for source, placed in zip(layer.sources, inputs, strict=True):
        volume = needed_volume(layer, batch, part, source) * source.element_bytes
        ifm += volume
        if placed is not None and floors:
            cycles_sending, total, sending, crossing = send_floor(*bandwidths, placed, layer, batch, part, source)
            injection = injection if placed.kept else max(injection, cycles_sending)
            received += total
            sent += sending
            hops += crossing
        elif placed is None:
            dram += volume
            received += float(volume.sum())
            if target.global_memory.shares_loads:
                unread += float(volume.sum()) - float(volume[input_groups(layer, batch, part, source)[1]].sum())
    out_bytes = outputs.astype(float) * layer.out_element_bytes
    if output is not Output.CHIP:
        dram += out_bytes
    weight_slices = layer.weight_bytes * (box.k[1] - box.k[0]) / layer.out_channels + layer.table_bytes
    dram_write = float(out_bytes.sum()) if output is not Output.CHIP else 0.0
    weight_bytes = int(round(weight_slices.sum()))
    read, written = local_bytes(layer, outputs, float(ifm.sum()), sent + dram_write, received, weight_bytes)
    work = Work(
        macs=int((outputs * reduction).sum()),
        local_read_bytes=int(read),
        local_write_bytes=int(written),
        dram_read_bytes=int(round(dram.sum() - dram_write - unread)),
        dram_write_bytes=int(dram_write),
        noc_hop_bytes=int(round(hops)),
        **buffer_accesses(target.core_buffers, layer, batch, part),
    )
    weight_read = weight_dram(layer, part, batch, target.global_memory.shares_loads)
    weights = Work(local_write_bytes=weight_bytes, dram_read_bytes=int(round(weight_read)))
    bandwidth = target.global_memory.bandwidth_bytes_per_cycle
    steady = np.ceil(dram / bandwidth) + cycles
    busy = np.ceil((dram + weight_slices) / bandwidth) + cycles
    later = max(float(steady.max()) + injection, dma_cycles(target, work.dram_bytes))
    first = max(float(busy.max()) + injection, dma_cycles(target, work.dram_bytes + weights.dram_bytes))
    return objective(energy_pj(target, scaled(work, runs) + weights)["total"], (runs - 1) * later + first)
