"""
What a layer group costs, in machine cycles: the one place the group searches ask.

Until the cost model (`stc.compiler.cost`) can price a group, its timesteps are priced with
the machine's own unit costs (`stc.compiler.targets.cost_units`), instruction by
instruction as isa-lower emits them and the machine runs them, each rounded up on its own.
A timestep, in the machine's order:

- loads what it computes on (DMA: `loaded`, of which `input_loads` from network inputs,
  loaded first), and stages those network inputs into NC1HWC0 (`stage_in`, compute clock:
  `vec_trans_scatter` and copies);
- computes (`compute`): the layer on the MAC array or the vector unit, the local copies of
  its result into the buffers that take it, the staging of a network output it stores;
- loads ahead what later timesteps compute on (`prefetched`), stores what the timestep
  before made (`delayed`, seed 004's "op i−1's group outputs stored"), and stages a
  prefetched network input once its load is in (`stage_ahead`, compute clock);
- stores its results that later groups read (`stored`) once the layer that makes them has
  run, beside the compute after it (`after_store`: the result's local copies isa-lower
  emits after the store, a network output's staging);
- stores the network outputs it completes (`output_stored`) once staged, but for the last
  staging calls, which write only padding channels the store does not read
  (`unread_tail`, the end of `compute`).

The machine runs a core's instructions one after the other; on a target that declares
`global_memory.dma_overlaps_compute` its DMA runs on a clock of its own, but an
instruction waits for the bytes it reads (`runtime/core.py`). So, serially, the timestep
takes the sum of all; with overlap:

    computed = max(input_loads + stage_in, loaded) + compute
    beside   = loaded + prefetched + delayed                      (the DMA clock)
    stores   = max(beside, computed − after_store) + stored
    stores   = max(stores, computed − unread_tail) + output_stored     (if any)
    computed = max(computed, beside) + stage_ahead                (if any)
    cycles   = max(computed, stores)

    >>> from stc.compiler.targets.hardware import load_target
    >>> step_cycles(StepWork(compute=2, loaded=10), load_target("tpu-like"))
    12
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from attrs import define

from stc.compiler.cost.staging import staging_cycles, unread_tail_cycles
from stc.compiler.targets.cost_units import dma_cycles, mac_cycles, vector_cycles
from stc.compiler.targets.hardware import HardwareTarget


@define
class StepWork:
    """What one timestep of a group takes, in cycles of the engine that runs it."""

    compute: int = 0
    """Compute clock: the layer, its local copies, the staging of the outputs it stores."""
    loaded: int = 0
    """DMA: loads for this timestep's own compute."""
    input_loads: int = 0
    """DMA: those of `loaded` from network inputs (first), which `stage_in` waits for."""
    stage_in: int = 0
    """Compute clock: staging the network inputs loaded for this timestep."""
    prefetched: int = 0
    """DMA: loads for later timesteps."""
    stage_ahead: int = 0
    """Compute clock: staging prefetched network inputs (after the prefetches)."""
    delayed: int = 0
    """DMA: stores of the timestep before's results."""
    stored: int = 0
    """DMA: stores of this timestep's results that later groups read."""
    after_store: int = 0
    """Compute clock: the end of `compute` that runs after those stores are issued."""
    output_stored: int = 0
    """DMA: stores of the network outputs this timestep completes (after their staging)."""
    unread_tail: int = 0
    """Compute clock: the end of `compute` that writes no byte `output_stored` reads."""


def step_cycles(step: StepWork, target: HardwareTarget) -> int:
    """Cycles of one timestep on one core of `target` (see the module docstring)."""
    if not target.global_memory.dma_overlaps_compute:
        return sum(
            (
                step.loaded,
                step.stage_in,
                step.compute,
                step.prefetched,
                step.delayed,
                step.stage_ahead,
                step.stored,
                step.output_stored,
            )
        )
    computed = max(step.input_loads + step.stage_in, step.loaded) + step.compute
    beside = step.loaded + step.prefetched + step.delayed
    stores = max(beside, computed - step.after_store) + step.stored
    if step.output_stored:
        stores = max(stores, computed - step.unread_tail) + step.output_stored
    if step.stage_ahead:
        computed = max(computed, beside) + step.stage_ahead
    return max(computed, stores)


def timeline_cycles(timeline: Iterable[StepWork], target: HardwareTarget) -> int:
    """Cycles of a group's timesteps, one after the other."""
    return sum(step_cycles(step, target) for step in timeline)


def layer_cycles(target: HardwareTarget, on_mac_array: bool, macs: int, read: int, written: int) -> int:
    """Compute-clock cycles of one layer instruction: the MAC array's for a conv or fc,
    else the vector unit's for the bytes it reads and writes."""
    return mac_cycles(target, macs) if on_mac_array else vector_cycles(target, read + written)


def transfer_cycles(target: HardwareTarget, nbytes: int) -> int:
    """Cycles of one DMA of `nbytes` (none for no bytes)."""
    return dma_cycles(target, nbytes) if nbytes else 0


def stage_cycles(target: HardwareTarget, extent_nhwc: tuple[int, ...], load: bool) -> int:
    """Compute-clock cycles of moving an int8 NHWC box through the NC1HWC0 staging areas
    (`vec_trans_scatter` and copies), on a target whose activation layout needs it."""
    if target.activation_layout.kind != "nc1hwc0" or math.prod(extent_nhwc) == 0:
        return 0
    n, h, w, c = extent_nhwc
    return staging_cycles(target.local_memory.bandwidth_bytes_per_cycle, (n, h, w, c), load)[0]


def unread_stage_cycles(target: HardwareTarget, extent_nhwc: tuple[int, ...]) -> int:
    """Compute-clock cycles at the end of an int8 output's staging that its store does not
    wait for (`unread_tail_cycles`)."""
    if target.activation_layout.kind != "nc1hwc0" or math.prod(extent_nhwc) == 0:
        return 0
    n, h, w, c = extent_nhwc
    return unread_tail_cycles(target.local_memory.bandwidth_bytes_per_cycle, (n, h, w, c))
