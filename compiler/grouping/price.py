"""
What a layer group costs, in machine cycles: the one place the group searches ask.

Until the cost model (`stc.compiler.cost`) can price a group, its timesteps are priced with
the machine's own unit costs (`stc.compiler.targets.cost_units`), the way the machine runs
them. A timestep computes (MAC-array cycles, plus vector-unit cycles for the bytes the other
layers stream), loads what it computes on, loads ahead what later timesteps compute on (a
prefetch), stores its results, and stores the results the timestep before made when those
stores are delayed (seed 004's "op i−1's group outputs stored"). The machine runs a core's
instructions one after the other; on a target that declares
`global_memory.dma_overlaps_compute` its DMA runs beside the compute, but the compute waits
for its loads and the stores for the compute, so only a prefetch and a delayed store hide
behind the compute:

    serial:  loaded + compute + prefetched + delayed + stored
    overlap: loaded + max(compute, prefetched + delayed) + stored

    >>> from stc.compiler.targets.hardware import load_target
    >>> step_cycles(StepWork(macs=8192, loaded=640), load_target("tpu-like"))
    12
"""

from __future__ import annotations

from collections.abc import Iterable

from attrs import define

from stc.compiler.targets.cost_units import dma_cycles, mac_cycles, vector_cycles
from stc.compiler.targets.hardware import HardwareTarget


@define
class StepWork:
    """What one timestep of a group does, in MACs and bytes."""

    macs: int = 0
    streamed: int = 0
    """Bytes vector layers read and write in local memory."""
    loaded: int = 0
    """Bytes loaded from global memory for this timestep's own compute."""
    prefetched: int = 0
    """Bytes loaded from global memory for later timesteps."""
    stored: int = 0
    """Bytes of this timestep's results stored to global memory."""
    delayed: int = 0
    """Bytes of the timestep before's results stored to global memory in this one."""


def step_cycles(step: StepWork, target: HardwareTarget) -> int:
    """Cycles of one timestep on one core of `target` (see the module docstring)."""
    compute = mac_cycles(target, step.macs) + vector_cycles(target, step.streamed)
    if not target.global_memory.dma_overlaps_compute:
        return compute + dma_cycles(target, step.loaded + step.prefetched + step.delayed + step.stored)
    loaded, stored = dma_cycles(target, step.loaded), dma_cycles(target, step.stored)
    return loaded + max(compute, dma_cycles(target, step.prefetched + step.delayed)) + stored


def timeline_cycles(timeline: Iterable[StepWork], target: HardwareTarget) -> int:
    """Cycles of a group's timesteps, one after the other."""
    return sum(step_cycles(step, target) for step in timeline)
