"""
A priced tree's energy outside the cores, leaf by leaf, beside a floor: what each layer
spends in local memory, on the NoC (the share of its weights' loading apart) and in DRAM,
against what it must (`floor`: its blocks read its input once and write its output as
they do, its weights and the network's input and output cross DRAM once, no NoC byte); and
what each tensor between two segments costs through DRAM against handed on chip
(`boundary_rows`, a what-if of the model alone); and the local memory above the floor by
cause (`cause_rows`).

    python -m stc.tools.bench_search --only darknet19 --spaces set --seed 0 --parts
"""

from __future__ import annotations

import numpy as np

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.inputs import Placed, needed_volume
from stc.compiler.cost.layer_cost import leaf_cost, local_bytes, output_of
from stc.compiler.cost.leaf_pricing import Place
from stc.compiler.cost.network import NETWORK_INPUT, Layer
from stc.compiler.cost.node_cost import NodeCost, scaled
from stc.compiler.cost.partition import Partition
from stc.compiler.cost.tree import Node
from stc.compiler.targets.cost_units import Work, energy_pj
from stc.compiler.targets.hardware import HardwareTarget

OUTSIDE = ("local_memory", "noc", "dram")
"""The parts of `cost_units.energy_pj` outside the cores."""


class Recording(CostModel):
    """The model, keeping the charged leaves it last combined (a segment's, once it fits)."""

    last: dict[int, NodeCost] = {}

    def combined(
        self, segment: Node, charged: dict[int, NodeCost], target: HardwareTarget, late: bool = True
    ) -> NodeCost:
        self.last = charged
        return super().combined(segment, charged, target, late)


def leaf_works(model: CostModel, tree: Node) -> dict[int, tuple[str, Work, Work]]:
    """Per layer: its partition, and the work and weights' loading of all its runs, as
    `evaluate` charges them (their sum is the estimate's)."""
    kept = model.evaluate(tree).kept
    recording = Recording(model.network, model.target, model.objective.name)
    places, segment_of = recording.places(tree), recording.segment_of(tree)
    assert not isinstance(places, str), places
    result = {}
    everywhere: dict[int, tuple[Place, Partition]] = {}
    for segment in recording.segments(tree):
        handed = {producer: everywhere[producer] for producer in kept if producer in everywhere}
        _, located = recording.segment_cost(segment, places, segment_of, kept, handed)
        everywhere |= located
        for layer, cost in recording.last.items():
            place, part = located[layer]
            runs = model.network.batch // place.batch
            result[layer] = (str(part.counts), scaled(cost.work, runs), cost.weights)
    return result


def floor(model: CostModel, layer: Layer) -> Work:
    """What a layer must spend outside the cores over the whole batch; see the module docstring."""
    batch = model.network.batch
    outputs = layer.output_bytes_per_image * batch // layer.out_element_bytes
    inputs = sum(s.channels * layer.in_hw[0] * layer.in_hw[1] * s.element_bytes for s in layer.sources) * batch
    weights = int(layer.weight_bytes + layer.table_bytes)
    read, written = local_bytes(layer, np.array([outputs]), inputs, 0.0, 0.0, weights)
    loaded = inputs if any(s.producer == NETWORK_INPUT for s in layer.sources) else 0
    stored = layer.output_bytes_per_image * batch if layer.is_output else 0
    return Work(
        local_read_bytes=int(read + stored),
        local_write_bytes=int(written + loaded),
        dram_read_bytes=weights + loaded,
        dram_write_bytes=stored,
    )


def parts_rows(model: CostModel, tree: Node) -> list[str]:
    """One row per leaf (pJ ×10⁶) and the sums, against the estimate's parts."""
    target = model.target
    columns = ("local", "NoC", "weights", "DRAM", "floor", "above")
    header = f"  {'layer':12} {'partition':15} " + " ".join(f"{column:>8}" for column in columns)
    lines = [header + "   (10^6 pJ; weights: their share of the NoC's; floor: local memory and DRAM)"]
    sums = dict.fromkeys((*OUTSIDE, "floor"), 0.0)
    for layer, (part, work, weights) in sorted(leaf_works(model, tree).items()):
        spent = energy_pj(target, work + weights)
        least = energy_pj(target, floor(model, model.network.layers[layer]))
        least = least["local_memory"] + least["dram"]
        outside = sum(spent[name] for name in OUTSIDE)
        for name in OUTSIDE:
            sums[name] += spent[name]
        sums["floor"] += least
        lines.append(
            f"  {model.network.layers[layer].name:12} {part:15} {spent['local_memory'] / 1e6:8.1f} "
            f"{spent['noc'] / 1e6:8.1f} {energy_pj(target, weights)['noc'] / 1e6:8.1f} {spent['dram'] / 1e6:8.1f} "
            f"{least / 1e6:8.1f} {(outside - least) / 1e6:8.1f}"
        )
    estimate = model.evaluate(tree)
    assert estimate.cost is not None
    priced = energy_pj(target, estimate.cost.total_work)
    outside = sum(sums[name] for name in OUTSIDE)
    lines.append(
        f"  outside the cores {outside:.3e} pJ (local {sums['local_memory']:.3e}, NoC {sums['noc']:.3e}, "
        f"DRAM {sums['dram']:.3e}; the estimate's {sum(priced[name] for name in OUTSIDE):.3e}), "
        f"floor {sums['floor']:.3e}, core buffers and MACs {priced['core_buffers'] + priced['mac']:.3e}"
    )
    return lines


CAUSES = ("weights", "inputs", "sent", "received")
"""The local-memory bytes above a layer's floor, by cause (`causes`)."""


def causes(model: CostModel, layer: int, part: Partition, batch: int, work: Work, weights: Work) -> dict[str, float]:
    """A layer's local-memory bytes over all its runs above its `floor`, by cause: its
    weight slices read again by every run on every core that holds a copy (a run's
    instructions read the slices its cores loaded, `weights.local_write_bytes`); its input
    boxes read again (by each core of a channel split, halos, every run's); what else it
    reads (sends, copies and stores); and what it writes above the floor (receives, copies,
    loads and the weight copies)."""
    spec = model.network.layers[layer]
    runs = model.network.batch // batch
    least = floor(model, spec)
    again = weights.local_write_bytes * runs - (spec.weight_bytes + spec.table_bytes) if spec.kind == "conv" else 0
    boxes = sum(float(needed_volume(spec, batch, part, s).sum()) * s.element_bytes for s in spec.sources)
    once = sum(s.channels * spec.in_hw[0] * spec.in_hw[1] * s.element_bytes for s in spec.sources) * model.network.batch
    inputs = boxes * runs - once if spec.kind == "conv" else 0.0
    read = work.local_read_bytes - least.local_read_bytes
    return {
        "weights": float(again),
        "inputs": inputs,
        "sent": read - again - inputs,
        "received": float(work.local_write_bytes + weights.local_write_bytes - least.local_write_bytes),
    }


def cause_rows(model: CostModel, tree: Node) -> list[str]:
    """Per leaf, its `causes` (bytes ×10⁶), and their energy summed."""
    target, located = model.target, model.layout(tree)
    lines = [f"  {'local memory above the floor':28} " + " ".join(f"{name:>9}" for name in CAUSES) + "   (10^6 B)"]
    sums = dict.fromkeys(CAUSES, 0.0)
    for layer, (_, work, weights) in sorted(leaf_works(model, tree).items()):
        place, part = located[layer]
        parts = causes(model, layer, part, place.batch, work, weights)
        for name in CAUSES:
            sums[name] += parts[name]
        name = model.network.layers[layer].name
        lines.append(f"  {name:28} " + " ".join(f"{parts[cause] / 1e6:9.1f}" for cause in CAUSES))
    read, write = target.energy.local_memory_read_pj_per_byte, target.energy.local_memory_write_pj_per_byte
    pj = {name: sums[name] * (write if name == "received" else read) for name in CAUSES}
    lines.append("  above the floor: " + ", ".join(f"{name} {pj[name]:.3e}" for name in CAUSES) + " pJ")
    return lines


def boundary_rows(model: CostModel, tree: Node) -> list[str]:
    """Per layer whose output crosses into a later segment, the energy outside the cores
    (pJ ×10⁶) its leaf and its consumers' spend with that tensor through DRAM (stored, then
    loaded) less with it handed on chip as inside a segment (the consumers' cores take
    their boxes from the producer's, which stores nothing), every leaf on its place and
    partition; and the tree's energy and EDP at the same latency with every tensor handed.
    Neither the buffers that would be held across the boundary nor the cycles are priced."""
    network, located, segment_of = model.network, model.layout(tree), model.segment_of(tree)
    kept = model.evaluate(tree).kept
    lines = [f"  {'handed on chip':34} {'local':>8} {'NoC':>8} {'DRAM':>8} {'saved':>8}   (10^6 pJ)"]
    lines += [f"  {network.layers[producer].name} -> later segments: kept on chip" for producer in sorted(kept)]
    saved = 0.0
    for producer in sorted(located):
        later = [c for c in model.consumers[producer] if segment_of[c] != segment_of[producer]]
        if not later or producer in kept:
            continue
        layers = (producer, *later)
        stored = {layer: outside(model, located, segment_of, layer, (), kept) for layer in layers}
        handed = {layer: outside(model, located, segment_of, layer, layers, kept) for layer in layers}
        parts = {name: sum(stored[layer][name] - handed[layer][name] for layer in layers) for name in OUTSIDE}
        saved += sum(parts.values())
        names = f"{network.layers[producer].name} -> {', '.join(network.layers[c].name for c in later)}"
        lines.append(
            f"  {names:34} "
            + " ".join(f"{parts[name] / 1e6:8.1f}" for name in OUTSIDE)
            + f" {sum(parts.values()) / 1e6:8.1f}"
        )
    estimate = model.evaluate(tree)
    energy = estimate.energy - saved
    lines.append(
        f"  every tensor handed: {saved:.3e} pJ saved, energy {estimate.energy:.4e} -> {energy:.4e}, "
        f"EDP x {energy / estimate.energy:.4f} at the same latency"
    )
    return lines


def outside(
    model: CostModel,
    located: dict[int, tuple[Place, Partition]],
    segment_of: dict[int, tuple[int, int]],
    layer: int,
    together: tuple[int, ...],
    kept: frozenset[int] = frozenset(),
) -> dict[str, float]:
    """The energy outside the cores of all of a layer's runs on its place and partition, its
    tensors on chip with the layers of its segment, from and to the layers whose result is
    `kept` for later segments and, where both are in `together`, with each other; through
    DRAM otherwise (`LeafPricing.leaf`'s rule)."""
    network = model.network
    spec = network.layers[layer]

    def near(other: int) -> bool:
        return segment_of.get(other) == segment_of[layer] or (layer in together and other in together)

    def placed(producer: int) -> Placed | None:
        if producer == NETWORK_INPUT or not (near(producer) or producer in kept):
            return None
        place, part = located[producer]
        return Placed(network.layers[producer], place.start, part, place.batch, not near(producer))

    inputs = tuple(placed(source.producer) for source in spec.sources)
    here = [near(consumer) or layer in kept for consumer in model.consumers[layer]]
    output = output_of(spec.is_output, here)
    place, part = located[layer]
    cost = leaf_cost(model.context, spec, place.start, part, place.batch, inputs, output)
    spent = energy_pj(model.target, scaled(cost.work, network.batch // place.batch) + cost.weights)
    return {name: spent[name] for name in OUTSIDE}
