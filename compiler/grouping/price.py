"""
What a layer group costs, in machine cycles: the one place the group searches ask.

Until the cost model (`stc.compiler.cost`) can price a group, its work is priced with
the machine's own unit costs (`stc.compiler.targets.cost_units`), the way the machine
runs it: MAC-array cycles, plus vector-unit cycles for the bytes the other layers stream,
plus DMA cycles for every byte loaded from or stored to global memory, one after the
other as the machine runs a core's instructions (or the longer of compute and DMA on a
target that declares `global_memory.dma_overlaps_compute`).

    >>> from stc.compiler.targets.hardware import load_target
    >>> work_cycles(Work(macs=8192, dram_read_bytes=640), load_target("tpu-like"))
    12
"""

from __future__ import annotations

from stc.compiler.targets.cost_units import Work, dma_cycles, mac_cycles, vector_cycles
from stc.compiler.targets.hardware import HardwareTarget


def work_cycles(work: Work, target: HardwareTarget) -> int:
    """Cycles of a group's work on one core of `target`; on a target whose DMA overlaps
    compute, the longer of the two (a bound: the machine takes the longer in each phase)."""
    streamed = work.local_read_bytes + work.local_write_bytes
    compute = mac_cycles(target, work.macs) + vector_cycles(target, streamed)
    dma = dma_cycles(target, work.dram_bytes)
    return max(compute, dma) if target.global_memory.dma_overlaps_compute else compute + dma
