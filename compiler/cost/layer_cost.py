"""
The cost of one layer run once on its cores for one (sub)batch: a leaf of the RA tree.

Calibrated to the machine (docs/cost-model.md): what isa-lower emits for the pieces.

- Compute: per core its MAC-array cycles plus vector cycles (`cost_units`).
- Inputs from DRAM: each core loads its own input box with its own DMA, over the XY route
  from its port (`HardwareTarget.dram_port`); where the target shares loads
  (`GlobalMemory.shares_loads`), the cores whose boxes are equal get it from one read: by
  multicast from the port, or relayed (`relay_loads`): the first loads it and sends it to
  the others along the XY multicast tree, each of them waiting for that send. Inputs on
  chip: every producer core sends each consumer core the part of its output box that the
  consumer's input box needs (batch, rows with halo, columns with halo, channels), one XY
  route per pair. An input kept on its producer's cores since an earlier segment
  (`Placed.kept`) moves so too, in the consumer's phase: those cores' sends count in the
  leaf's own slot (`busy`).
- Outputs to DRAM: each core stores its box over the route to its port; a network output
  of several cores is gathered on the first, which stores it whole (`gathering`), unless it
  is larger than a core's memory (`stores_output_directly`): then each core stores its box
  straight into it. One that another segment also reads is stored piece by piece too
  (`Output.STORED_TWICE`).
- Weights: each core loads its slice (and whole lookup tables) from its port in the run
  of the first subbatch and keeps them for the later ones (`NodeCost.weights`, counted once
  per run of the segment; `weight_cycles`: what loading them adds to the first run).
- Buffers per core, in the bytes the machine's storage rule gives them (rows padded to the
  target's alignment, `storage.py`): ifm = the input boxes, wgt = the weight slice, bias and
  tables, buf = ifm + the output box once for the result and once more for each fused block's
  input and for a network output's buffer.
- Latency: max over cores of DMA + compute cycles, plus the busiest producer core's
  injection; at least all DRAM bytes over the shared DRAM bandwidth. That figure chooses
  among partitions; in a tree (`evaluate`) the sends are charged where the machine runs
  them, to the producer's slot (`busy`, `sent`).

    cost = leaf_cost(context, layer, start=0, count=16, batch=8, inputs=(None,), output=Output.DRAM)
"""

from __future__ import annotations

import enum
import functools

import numpy as np
from attrs import frozen

from stc.compiler.cost.inputs import Placed, needed_input, needed_storage, needed_volume
from stc.compiler.cost.loads import input_loads, weight_loads
from stc.compiler.cost.mesh import MeshModel
from stc.compiler.cost.network import NETWORK_INPUT, Layer
from stc.compiler.cost.node_cost import NodeCost
from stc.compiler.cost.partition import Partition, box_volume, pieces
from stc.compiler.cost.staging import staging_cycles
from stc.compiler.cost.storage import activation_storage, weight_storage
from stc.compiler.cost.transfers import on_chip
from stc.compiler.targets.components import CoreBuffers
from stc.compiler.targets.core_dataflow import cheapest_work
from stc.compiler.targets.cost_units import CORE_BUFFER_ACCESSES, Work, dma_cycles
from stc.compiler.targets.hardware import HardwareTarget


class Output(enum.Enum):
    """Where a layer's output goes."""

    CHIP = "chip"
    """Only to layers of the same segment: held whole in the buffers."""
    DRAM = "dram"
    """Only to DRAM: streamed out in chunks."""
    BOTH = "both"
    STORED_TWICE = "stored twice"
    """A network output another segment also reads: stored as the output (`gathering`)
    and, piece by piece, for that segment, as the lowering spills it."""


def output_of(is_output: bool, here: list[bool]) -> Output:
    """Where a layer's output goes, from whether it is a network output and, per consumer,
    whether that consumer runs in the layer's segment and step."""
    if is_output and not all(here):
        return Output.STORED_TWICE
    if is_output or not all(here):
        return Output.BOTH if any(here) else Output.DRAM
    return Output.CHIP


@frozen
class Context:
    target: HardwareTarget
    mesh: MeshModel


def leaf_cost(
    context: Context,
    layer: Layer,
    start: int,
    part: Partition,
    batch: int,
    inputs: tuple[Placed | None, ...],
    output: Output,
) -> NodeCost:
    """See the module docstring; `inputs[i]` places `layer.sources[i]` (None: in DRAM)."""
    target, mesh = context.target, context.mesh
    alignment = target.local_memory.alignment_bytes
    box = pieces(layer, batch, part)
    cores = mesh.piece_cores(start, part.cores)
    outputs = box.outputs
    reduction = layer.in_channels * layer.kernel[0] * layer.kernel[1] if layer.kind == "conv" else 0
    vector = outputs * layer.vector_bytes_per_output
    cycles = -(-(outputs * reduction) // target.compute.macs_per_cycle) + np.ceil(
        vector / target.local_memory.bandwidth_bytes_per_cycle
    )
    links = np.zeros(len(mesh.links))
    ifm = np.zeros(part.cores)
    stored = np.zeros(part.cores)
    """Per core: the local-memory bytes of its input buffers."""
    dram = np.zeros(part.cores)
    """Per core: the global-memory bytes its own DMAs move."""
    loaded = np.zeros(part.cores)
    """Per core: those of its input boxes."""
    ports = mesh.port_core[cores]
    received = sent = unread = 0.0
    relayed = np.zeros(part.cores)
    """Per core: the most hops a relayed input box travels to it."""
    memory = target.global_memory
    shared, relay = memory.shares_loads, memory.relay_loads and not memory.multicast_loads
    link = target.noc.link_bandwidth_bytes_per_cycle
    sends: list[tuple[int, np.ndarray, np.ndarray]] = []
    handing = np.zeros(mesh.core_count)
    """Per core of the mesh: the cycles it sends kept inputs in this leaf's slot."""
    staged = target.activation_layout.kind == "nc1hwc0"
    staging = np.zeros((2, part.cores))
    """Per core: the cycles and bytes of staging network inputs and outputs (NC1HWC0)."""
    for source, placed in zip(layer.sources, inputs, strict=True):
        volume = needed_volume(layer, batch, part, source) * source.element_bytes
        ifm += volume
        stored += needed_storage(layer, batch, part, source, alignment)
        if placed is None:
            dram += volume
            loaded += volume
            received += float(volume.sum())
            read, loads, waits, hops = input_loads(
                mesh, ports, cores, volume, layer, batch, part, source, shared, relay, link
            )
            links += loads
            cycles = cycles + waits
            relayed = np.maximum(relayed, hops)
            unread += float(volume.sum()) - read
            if staged and source.producer == NETWORK_INPUT:
                need = needed_input(layer, box, source.channel_offset, source.channels)
                staging += staged_boxes(target, (need.b, need.rows, need.cols, need.channels), load=True)
            continue
        loads, sending, total, injecting = on_chip(
            mesh,
            target.noc.link_bandwidth_bytes_per_cycle,
            target.local_memory.bandwidth_bytes_per_cycle,
            target.noc.hop_latency_cycles,
            alignment.activation if source.element_bytes == 1 else alignment.partial_sum,
            placed,
            layer,
            start,
            batch,
            part,
            source,
        )
        links += loads
        sent += sending
        received += total
        producer_cores = mesh.piece_cores(placed.start, placed.part.cores)
        if placed.kept:  # sent in the consumer's phase
            handing += spread(mesh.core_count, producer_cores, injecting[3])
            continue
        sends.append((source.producer, *(spread(mesh.core_count, producer_cores, row) for row in injecting[:3])))
    out_bytes = outputs.astype(float) * layer.out_element_bytes
    gathered = 0.0
    spilled = np.zeros(part.cores)
    """Per core: the bytes of its result it stores to DRAM for later segments (not a network
    output's, which its buffer stores)."""
    direct = stores_output_directly(target, layer.output_bytes)
    if output is not Output.CHIP and layer.is_output and part.cores > 1 and not direct:
        gathered = float(out_bytes.sum())
        dram[0] += gathered
        links += mesh.xy_loads(cores[1:], np.full(part.cores - 1, cores[0]), out_bytes[1:])
        links += mesh.xy_loads(cores[:1], ports[:1], np.array([gathered]))
        cycles = cycles + gathering(target, out_bytes)
        if staged:
            extents = (batch, *layer.out_hw, layer.out_channels)
            whole = tuple((np.zeros(1), np.full(1, extent)) for extent in extents)
            staging[:, 0] += staged_boxes(target, whole, load=False)[:, 0]
    elif output is not Output.CHIP:
        dram += out_bytes
        if not layer.is_output:
            spilled = out_bytes
        links += mesh.xy_loads(cores, ports, out_bytes)
        if staged and layer.is_output:
            staging += staged_boxes(target, (box.b, box.h, box.w, box.k), load=False)
    if output is Output.STORED_TWICE:
        dram += out_bytes
        links += mesh.xy_loads(cores, ports, out_bytes)
    hop = target.noc.hop_latency_cycles
    cycles = cycles + staging[0] + relayed * hop
    weight_slices = layer.weight_bytes * (box.k[1] - box.k[0]) / layer.out_channels + layer.table_bytes
    weight_dram, weight_links, weight_waits, weight_hops = weight_loads(mesh, layer, part, batch, start, shared, relay)
    stores = 0 if output is Output.CHIP else 2 if output is Output.STORED_TWICE else 1
    dram_write = float(out_bytes.sum()) * stores
    copies = layer.results + int(layer.is_output and not direct)
    channels = box.k[1] - box.k[0]
    result = activation_storage(box_volume(box.b, box.h, box.w), channels, layer.out_element_bytes, alignment)
    held = copies * result
    weight_bytes = int(round(weight_slices.sum()))
    read, written = local_bytes(
        layer, outputs, float(ifm.sum()), sent + dram_write + gathered, received + gathered, weight_bytes
    )
    work = Work(
        macs=int((outputs * reduction).sum()),
        local_read_bytes=int(read + staging[1].sum()),
        local_write_bytes=int(written + staging[1].sum()),
        dram_read_bytes=int(round(dram.sum() - dram_write - unread)),
        dram_write_bytes=int(dram_write),
        noc_hop_bytes=int(round(links.sum())),
        **buffer_accesses(target.core_buffers, layer, batch, part),
    )
    weights = Work(
        local_write_bytes=weight_bytes,
        dram_read_bytes=int(round(weight_dram)),
        noc_hop_bytes=int(round(weight_links.sum())),
    )
    compute = float(cycles.max())
    bandwidth = target.global_memory.bandwidth_bytes_per_cycle
    moving, loading = np.ceil(dram / bandwidth), np.ceil((dram + weight_slices) / bandwidth)
    steady = moving + cycles
    busy = loading + cycles + np.ceil(weight_waits / link) + np.maximum(weight_hops - relayed, 0.0) * hop
    input_busy = loading - np.ceil((dram - loaded + weight_slices) / bandwidth)
    input_steady = moving - np.ceil((dram - loaded) / bandwidth)
    store_busy = loading - np.ceil((dram - spilled + weight_slices) / bandwidth)
    store_steady = moving - np.ceil((dram - spilled) / bandwidth)
    injection = max((float(each.max()) for _, each, _, _ in sends), default=0.0)
    count = mesh.core_count
    steady_all, busy_all = spread(count, cores, steady) + handing, spread(count, cores, busy) + handing
    later = max(float(steady_all.max()) + injection, dma_cycles(target, work.dram_bytes))
    first = max(float(busy_all.max()) + injection, dma_cycles(target, work.dram_bytes + weights.dram_bytes))
    return NodeCost(
        work=work,
        weights=weights,
        links=links,
        weight_links=weight_links,
        latency=first,
        weight_cycles=first - later,
        ifm=spread(count, cores, stored),
        wgt=spread(count, cores, weight_storage(layer, channels, alignment)),
        buf=spread(count, cores, stored + held),
        compute_cycles=compute,
        busy=busy_all,
        weight_busy=spread(count, cores, busy - steady),
        input_busy=spread(count, cores, input_busy),
        input_steady=spread(count, cores, input_steady),
        store_busy=spread(count, cores, store_busy),
        store_steady=spread(count, cores, store_steady),
        store_dram=float(spilled.sum()),
        result=spread(count, cores, result),
        sent=tuple(sends),
    )


def local_bytes(
    layer: Layer, outputs: np.ndarray, inputs: float, moved: float, received: float, weights: int
) -> tuple[float, float]:
    """The local-memory bytes one run of a leaf reads and writes, as the machine counts its
    instructions: a conv or fc reads its input boxes (`inputs`) and its weight slice, bias
    and tables (`weights`: every instruction reads its tiles); a vector block reads what it
    streams (a pool its windows, an add its operands, a fused lut its input) and every
    block writes the output box (a conv that applies its activation, once); sends, copies
    and DMA stores read (`moved`), receives, copies and DMA loads write (`received`)."""
    conv = layer.kind == "conv"
    blocks = layer.results
    written = float(outputs.sum()) * layer.out_element_bytes * blocks
    streamed = float(outputs.sum()) * layer.vector_bytes_per_output - written * (blocks - conv) / blocks
    return (inputs if conv else 0.0) + streamed + moved + weights, written + received


@functools.lru_cache(maxsize=1 << 14)
def buffer_accesses(buffers: CoreBuffers | None, layer: Layer, batch: int, part: Partition) -> dict[str, int]:
    """The accesses to the buffers inside the cores of a conv or fc on its partition, each
    core's piece along its cheapest dataflow (`core_dataflow.cheapest_work`), as isa-lower
    writes it on the piece's instruction and the machine counts it (cached: do not write to
    the result)."""
    if layer.kind != "conv" or buffers is None:
        return {}
    box = pieces(layer, batch, part)
    inputs = sum(needed_volume(layer, batch, part, source) for source in layer.sources)
    taps = layer.kernel[0] * layer.kernel[1]
    positions = box_volume(box.b, box.h, box.w)
    counts = cheapest_work(buffers, positions, box.k[1] - box.k[0], taps, layer.in_channels, inputs)
    return {name: int(np.sum(count)) for name, count in zip(CORE_BUFFER_ACCESSES, counts, strict=True)}


def stores_output_directly(target: HardwareTarget, output_bytes: int) -> bool:
    """Whether st-search's lowering has the pieces of a network output of `output_bytes`
    store their boxes straight into it (`Lowering.put_unread`, `MemoryPlan.direct_outputs`)
    rather than gather it on one core: where it is larger than a core's memory (VGG-19's
    convolutions at batch 64: 1.6 MB) and the target stores without NC1HWC0 staging."""
    return target.activation_layout.kind != "nc1hwc0" and output_bytes > target.usable_memory_bytes


def gathering(target: HardwareTarget, out_bytes: np.ndarray) -> np.ndarray:
    """Per core, the cycles a network output of several cores adds as st-search's lowering
    stores it (`Lowering.put_unread`): its buffer is on the first core (that of the last run's
    first piece), which copies its own box into it and stores the whole; each other core
    sends it its box."""
    local = target.local_memory.bandwidth_bytes_per_cycle
    sends = np.ceil(out_bytes / target.noc.link_bandwidth_bytes_per_cycle)
    sends[0] = np.ceil(2 * out_bytes[0] / local)
    return sends


def staged_boxes(
    target: HardwareTarget, intervals: tuple[tuple[np.ndarray, np.ndarray], ...], load: bool
) -> np.ndarray:
    """Per core, the cycles and bytes (rows) of staging its NHWC box through NC1HWC0."""
    extents = np.stack([np.maximum(hi - lo, 0) for lo, hi in intervals], axis=1)
    bandwidth = target.local_memory.bandwidth_bytes_per_cycle
    return np.array([staging_cycles(bandwidth, tuple(int(e) for e in extent), load) for extent in extents]).T


def spread(count: int, cores: np.ndarray, values: np.ndarray) -> np.ndarray:
    result = np.zeros(count)
    result[cores] = values
    return result
