"""
A core of the machine: its local memory and its clocks.

A core keeps a clock per phase, which each instruction advances by its cycles. On a target
whose `global_memory.dma_overlaps_compute` is set, DMA loads and stores advance a clock of
their own, the core's phase lasts the longer of the two, and an instruction starts only once
the bytes it reads that its phase wrote are written: a compute waits for the load of its
inputs, a store for the compute of its source.

    core.wait(op)               # on overlap: until what `op` reads is written
    ...                         # the machine runs `op` (a receive also waits for its data)
    core.now(op)                # the cycle `op` started at
    core.finish(op, cycles)     # its clock moves on; on overlap, what it wrote is recorded
"""

from __future__ import annotations

import attrs
import numpy as np

from stc.compiler.targets.hardware import Coord
from stc.dialects import isa


def writes(op: isa.Instruction, access: isa.Access) -> bool:
    """Whether `op` writes the local bytes of `access` (else it reads them)."""
    return access.writes or access.role in ("output", "dst blocks") or (isinstance(op, isa.DmaOp) and op.FROM_GLOBAL)


@attrs.define
class Core:
    """A core's local memory and clocks."""

    coord: Coord
    capacity: int
    """Bytes of local memory the core may address."""
    memory: np.ndarray
    """Its first bytes: as many as the program touches, at most `capacity`."""
    overlap: bool = False
    """The target's DMA runs beside compute, on a clock of its own."""
    clock: int = 0
    """Cycles since the current phase began."""
    dma_clock: int = 0
    """With `overlap`: the DMA engine's cycles since the phase began."""
    busy_cycles: int = 0
    """Cycles spent executing, over all phases."""
    written: list[tuple[int, int, int]] = attrs.field(factory=list)
    """With `overlap`: the local bytes [start, end) written in this phase and the cycle the
    write ended, which an instruction reading them waits for."""

    @property
    def phase_cycles(self) -> int:
        """How long the core has been busy in the current phase."""
        return max(self.clock, self.dma_clock)

    def start_phase(self) -> None:
        self.clock = self.dma_clock = 0
        self.written.clear()

    def wait(self, op: isa.Instruction) -> None:
        """With `overlap`: hold `op`'s clock until the bytes it reads that this phase wrote
        are written."""
        if not self.overlap:
            return
        if isinstance(op, isa.DmaOp):
            self.dma_clock = max(self.dma_clock, self.ready(op))
        else:
            self.clock = max(self.clock, self.ready(op))

    def now(self, op: isa.Instruction) -> int:
        """The clock `op` runs on: the DMA engine's for a DMA with `overlap`, else the core's."""
        return self.dma_clock if self.overlap and isinstance(op, isa.DmaOp) else self.clock

    def finish(self, op: isa.Instruction, cycles: int) -> None:
        """Advance `op`'s clock by its cycles and, with `overlap`, record what it wrote."""
        self.busy_cycles += cycles
        if not self.overlap:
            self.clock += cycles
            return
        if isinstance(op, isa.DmaOp):
            self.dma_clock += cycles
            done = self.dma_clock
        else:
            self.clock += cycles
            done = self.clock
        self.written += [(a.start, a.end, done) for a in op.local_accesses() if writes(op, a)]

    def ready(self, op: isa.Instruction) -> int:
        """The cycle at which the bytes `op` reads that this phase wrote are all written."""
        reads = [access for access in op.local_accesses() if not writes(op, access)]
        return max(
            (end for start, stop, end in self.written for a in reads if start < a.end and a.start < stop), default=0
        )
