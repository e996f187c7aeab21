"""
How a conv or fc instruction runs through the buffers inside a core (a target's
`core_buffers`, SET's Polar core on `set-8x8`), and what it reads and writes there: the
dataflow is the compiler's choice per instruction (docs/cost-model.md, "Inside a core").

    >>> from stc.compiler.targets.hardware import load_target
    >>> buffers = load_target("set-8x8").core_buffers
    >>> cheapest(buffers, positions=100, filters=32, taps=9, channels=3, inputs=1200)
    Dataflow(packed=True, split=1, groups=4, tile=256)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from attrs import evolve, frozen

from stc.compiler.targets.components import CoreBuffers

CoreBufferWork = tuple[Any, Any, Any, Any, Any, Any, Any, Any]
"""AL1, WL1, OL1 and OL2 reads and writes, in elements (`cost_units.CORE_BUFFER_ACCESSES`)."""


@frozen
class Dataflow:
    """One way through the core's buffers. `packed`: the kernel taps and input channels are
    flattened into the activation vectors (im2col), not each tap's channels in vectors of
    their own; `split`: the PEs a lane group's reduction is divided over, each summing its
    share into partial sums of its own; `groups`: the lane groups whose weights stay in a
    lane's weight buffer while every tile of `tile` positions passes."""

    packed: bool
    split: int
    groups: int
    tile: int

    @property
    def clause(self) -> tuple[int, int, int, int]:
        """The instruction's `dataflow [packed, split, groups, tile]`."""
        return (int(self.packed), self.split, self.groups, self.tile)

    @classmethod
    def of_clause(cls, values: tuple[int, ...]) -> Dataflow:
        packed, split, groups, tile = values
        return cls(bool(packed), split, groups, tile)


def ceil_div(a, b):
    """⌈a / b⌉ of integers or integer arrays."""
    return -(-a // b)


def lane_vectors(buffers: CoreBuffers, taps: int, channels: int, packed: bool, split: int) -> int:
    """Weight vectors a lane holds per filter in one PE of the split: its share of the
    channels per tap, or of the taps × channels flattened (packed), in vectors of
    `vector_width`."""
    if packed:
        return ceil_div(ceil_div(taps * channels, split), buffers.vector_width)
    return taps * ceil_div(ceil_div(channels, split), buffers.vector_width)


def fitting(buffers: CoreBuffers, taps: int, channels: int, packed: bool = False, split: int = 1) -> Dataflow:
    """The dataflow with as many lane groups and positions per tile as the buffers hold
    (one group when one group's weights exceed the weight buffer: they stream); SET's
    (`KHWB`, unpacked, unsplit) by default."""
    most = max(1, buffers.weight_vectors // lane_vectors(buffers, taps, channels, packed, split))
    return Dataflow(packed, split, most, buffers.psum_positions)


def dataflows(buffers: CoreBuffers, taps: int, channels: int) -> tuple[Dataflow, ...]:
    """The compiler's candidates, SET's first: unpacked or packed, the reduction on one PE
    or split over `channel_split`, each with the most groups and positions that fit (fewer
    only add accesses)."""
    splits = sorted({1, buffers.channel_split})
    return tuple(fitting(buffers, taps, channels, packed, split) for packed in (False, True) for split in splits)


def dataflow_problem(buffers: CoreBuffers | None, flow: Dataflow, taps: int, channels: int) -> str | None:
    """What makes a dataflow invalid for a conv's or fc's weights on these buffers, if anything."""
    if buffers is None:
        return "the target has no core buffers to choose a dataflow for"
    if not 1 <= flow.split <= buffers.channel_split:
        return f"split {flow.split} is not in [1, {buffers.channel_split}] PEs"
    most = fitting(buffers, taps, channels, flow.packed, flow.split).groups
    if not 1 <= flow.groups <= most:
        vectors = lane_vectors(buffers, taps, channels, flow.packed, flow.split)
        return (
            f"{flow.groups} lane groups of {vectors} weight vectors do not fit a weight buffer of "
            f"{buffers.weight_vectors} vectors (at most {most})"
        )
    if not 1 <= flow.tile <= buffers.psum_positions:
        return f"a tile of {flow.tile} positions does not fit a partial-sum buffer of {buffers.psum_positions}"
    return None


def core_buffer_work(
    buffers: CoreBuffers | None, positions, filters, taps: int, channels: int, inputs, flow: Dataflow | None = None
) -> CoreBufferWork:
    """The elements a convolution (or fc) reads and writes in the buffers inside a core
    (zeros on a target without them) along `flow` (SET's by default): per `positions`
    output positions of `filters` output channels, `taps` kernel taps of `channels` input
    channels, reading `inputs` input elements (numbers or numpy arrays of one value per
    core). Per tile each weight vector is read once; per position each activation vector is
    read once for all the lanes of a group and each lane reads and writes its partial sum;
    the input (packed: its P × taps × channels im2col rows) is written into the activation
    buffer once per chunk of `groups` lane groups; each PE's partial sum of an output is read
    once, and each output written to and read from the output buffer once.

    >>> from stc.compiler.targets.hardware import load_target
    >>> core_buffer_work(load_target("set-8x8").core_buffers, positions=100, filters=16, taps=9, channels=8, inputs=144)
    (14400, 144, 1152, 1152, 16000, 14400, 1600, 1600)
    """
    if buffers is None:
        return (0,) * 8
    flow = flow or fitting(buffers, taps, channels)
    vectors = lane_vectors(buffers, taps, channels, flow.packed, flow.split) * flow.split
    groups = ceil_div(filters, buffers.lanes)
    chunks = ceil_div(groups, flow.groups)
    updates = positions * vectors * groups * buffers.lanes
    outputs = positions * filters
    written = positions * taps * channels if flow.packed else inputs
    return (
        positions * vectors * groups * buffers.vector_width,
        written * chunks,
        vectors * buffers.vector_width * groups * buffers.lanes * ceil_div(positions, flow.tile),
        taps * channels * filters,
        updates + outputs * flow.split,
        updates,
        outputs,
        outputs,
    )


def buffer_pj(buffers: CoreBuffers, work: CoreBufferWork):
    """The energy of these accesses."""
    return sum(count * pj for count, pj in zip(work, buffers.energies, strict=True))


def cheapest(buffers: CoreBuffers, positions: int, filters: int, taps: int, channels: int, inputs: int) -> Dataflow:
    """The candidate (`dataflows`) of least energy in the buffers, the first of equals
    (every candidate takes the same MAC cycles, so the compiler chooses by energy), holding
    no more lane groups than the filters fill."""
    flows = dataflows(buffers, taps, channels)
    shape = (positions, filters, taps, channels, inputs)
    energies = [buffer_pj(buffers, core_buffer_work(buffers, *shape, flow)) for flow in flows]
    best = flows[energies.index(min(energies))]
    return evolve(best, groups=min(best.groups, ceil_div(filters, buffers.lanes)))


def chosen(buffers: CoreBuffers, *shape: int) -> Dataflow | None:
    """The `cheapest` dataflow for `shape` (positions, filters, taps, channels, inputs) where
    it is not SET's (`fitting`'s default), else None: the `dataflow` clause isa-lower writes
    on a conv or fc."""
    best = cheapest(buffers, *shape)
    return best if best.packed or best.split > 1 else None


def cheapest_work(buffers: CoreBuffers | None, positions, filters, taps: int, channels: int, inputs) -> CoreBufferWork:
    """`core_buffer_work` along each core's `cheapest` dataflow (arrays of one value per
    core, as the model prices a layer's pieces)."""
    if buffers is None:
        return (0,) * 8
    shape = (positions, filters, taps, channels, inputs)
    works = [core_buffer_work(buffers, *shape, flow) for flow in dataflows(buffers, taps, channels)]
    energies = np.broadcast_arrays(*(buffer_pj(buffers, work) for work in works))
    best = np.argmin(np.stack(energies), axis=0)
    return tuple(np.choose(best, [np.broadcast_to(work[i], best.shape) for work in works]) for i in range(8))
