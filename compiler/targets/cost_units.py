"""
The unit costs of a target: how many cycles and picojoules a piece of work takes.

The machine (stc.runtime.machine) prices what an `isa` program does with these
functions. No cost model exists yet; when one estimates programs before they exist
(the schedule search, isa-lower), it is meant to price work with the same functions, so
that estimate and execution can be compared. Every cycle count is rounded up to whole
cycles.

    >>> from stc.compiler.targets.hardware import load_target
    >>> target = load_target("tianjicx")
    >>> mac_cycles(target, 1000), noc_cycles(target, 100, hops=3)
    (8, 16)
"""

from __future__ import annotations

import math

from attrs import frozen

from stc.compiler.targets.hardware import HardwareTarget


@frozen
class Work:
    """What some instructions do, in the units a target prices."""

    macs: int = 0
    local_read_bytes: int = 0
    local_write_bytes: int = 0
    dram_read_bytes: int = 0
    dram_write_bytes: int = 0
    noc_hop_bytes: int = 0
    """Bytes times the hops each byte travels."""
    al1_reads: int = 0
    """Elements read from and written to the buffers inside a core
    (`core_dataflow.core_buffer_work`):
    activations (AL1), weights (WL1), partial sums (OL1) and outputs (OL2)."""
    al1_writes: int = 0
    wl1_reads: int = 0
    wl1_writes: int = 0
    ol1_reads: int = 0
    ol1_writes: int = 0
    ol2_reads: int = 0
    ol2_writes: int = 0

    def __add__(self, other: Work) -> Work:
        return Work(
            self.macs + other.macs,
            self.local_read_bytes + other.local_read_bytes,
            self.local_write_bytes + other.local_write_bytes,
            self.dram_read_bytes + other.dram_read_bytes,
            self.dram_write_bytes + other.dram_write_bytes,
            self.noc_hop_bytes + other.noc_hop_bytes,
            self.al1_reads + other.al1_reads,
            self.al1_writes + other.al1_writes,
            self.wl1_reads + other.wl1_reads,
            self.wl1_writes + other.wl1_writes,
            self.ol1_reads + other.ol1_reads,
            self.ol1_writes + other.ol1_writes,
            self.ol2_reads + other.ol2_reads,
            self.ol2_writes + other.ol2_writes,
        )

    @property
    def dram_bytes(self) -> int:
        return self.dram_read_bytes + self.dram_write_bytes


def conv_macs(output_elements: int, kernel_y: int, kernel_x: int, channels: int) -> int:
    """MACs of a convolution: one per output element, kernel tap and input channel."""
    return output_elements * kernel_y * kernel_x * channels


def fc_macs(batch: int, filters: int, reduction: int) -> int:
    """MACs of a fully connected layer."""
    return batch * filters * reduction


def mac_cycles(target: HardwareTarget, macs: int) -> int:
    """Cycles of the MAC array: ⌈MACs / macs_per_cycle⌉."""
    return -(-macs // target.compute.macs_per_cycle)


def vector_cycles(target: HardwareTarget, streamed_bytes: int) -> int:
    """Cycles of a vector instruction (pools, relu, lut, add, mul, vec_trans_scatter),
    bound by local memory: ⌈bytes read and written / local bandwidth⌉."""
    return math.ceil(streamed_bytes / target.local_memory.bandwidth_bytes_per_cycle)


def copy_cycles(target: HardwareTarget, nbytes: int) -> int:
    """Cycles of a local copy (`isa.copy`, a `vec_trans_scatter`) of `nbytes`: read and
    written in local memory."""
    return vector_cycles(target, 2 * nbytes)


def dma_cycles(target: HardwareTarget, nbytes: int) -> int:
    """Cycles of a DMA: ⌈bytes / global-memory bandwidth⌉."""
    return math.ceil(nbytes / target.global_memory.bandwidth_bytes_per_cycle)


def link_cycles(target: HardwareTarget, nbytes: int) -> int:
    """Cycles a core spends injecting bytes into the NoC: ⌈bytes / link bandwidth⌉."""
    return math.ceil(nbytes / target.noc.link_bandwidth_bytes_per_cycle)


def noc_cycles(target: HardwareTarget, nbytes: int, hops: int) -> int:
    """Cycles from the start of a send until its last byte arrives:
    ⌈bytes / link bandwidth⌉ + hops × hop latency."""
    return link_cycles(target, nbytes) + hops * target.noc.hop_latency_cycles


CORE_BUFFER_ACCESSES = (
    "al1_reads",
    "al1_writes",
    "wl1_reads",
    "wl1_writes",
    "ol1_reads",
    "ol1_writes",
    "ol2_reads",
    "ol2_writes",
)
"""The fields of `Work` that count accesses to the buffers inside a core, in the order of
`core_dataflow.core_buffer_work`'s result and `CoreBuffers.energies`."""


def core_buffer_pj(target: HardwareTarget, work: Work) -> float:
    """The energy of a work's accesses to the buffers inside a core."""
    buffers = target.core_buffers
    if buffers is None:
        return 0.0
    return sum(getattr(work, name) * pj for name, pj in zip(CORE_BUFFER_ACCESSES, buffers.energies, strict=True))


def core_buffer_counters(target: HardwareTarget, work: Work) -> dict[str, dict[str, int]]:
    """`{"core_buffers": accesses by kind}` of a work, on a target that prices its core
    buffers (`stc-run --stats`); none on another."""
    if target.core_buffers is None:
        return {}
    return {"core_buffers": {name: getattr(work, name) for name in CORE_BUFFER_ACCESSES}}


def energy_pj(target: HardwareTarget, work: Work) -> dict[str, float]:
    """Energy by component and in total, in picojoules."""
    energy = target.energy
    parts = {
        "mac": work.macs * energy.mac_pj,
        "core_buffers": core_buffer_pj(target, work),
        "local_memory": work.local_read_bytes * energy.local_memory_read_pj_per_byte
        + work.local_write_bytes * energy.local_memory_write_pj_per_byte,
        "noc": work.noc_hop_bytes * energy.noc_pj_per_hop_byte,
        "dram": work.dram_bytes * energy.dram_pj_per_byte,
    }
    return parts | {"total": sum(parts.values())}
