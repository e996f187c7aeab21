"""
What running an RA-tree node costs (`NodeCost`), and the parts of a cut's cost that both
kinds of cut share; the recursion that combines them is `recursion.py`.
"""

from __future__ import annotations

from operator import attrgetter

import attrs
import numpy as np

from stc.compiler.targets.cost_units import Work, dma_cycles, energy_pj
from stc.compiler.targets.hardware import HardwareTarget

Slots = tuple[np.ndarray, np.ndarray]
"""Cycles and DRAM bytes per slot."""


@attrs.frozen
class NodeCost:
    """What running a node once (for its whole batch) costs."""

    work: Work
    """All work but the weights' loading."""
    weights: Work
    """Loading the weights, once per run of the node (in its first subbatch)."""
    links: np.ndarray
    """Bytes over each directed link, weights excluded."""
    weight_links: np.ndarray
    latency: float
    """Cycles of one run, the weights' loading included."""
    ifm: np.ndarray
    """Per core: bytes of input feature maps prefetched (ifm_usage)."""
    wgt: np.ndarray
    """Per core: bytes of pinned weights (wgt_usage)."""
    buf: np.ndarray
    """Per core: bytes needed while computing, weights excluded (buf_usage)."""
    compute_cycles: float = 0.0
    """The latency the MAC arrays and vector units alone would take."""
    weight_cycles: float = 0.0
    """What loading the weights adds to the latency: paid once per run of the node."""
    slots: np.ndarray | None = None
    """Cycles of each time slot of one run with the weights on chip, in order (None: one
    slot of `steady_latency`)."""
    slot_dram: np.ndarray | None = None
    """DRAM bytes moved in each slot of one run, the weights' excepted (None: one slot of
    all the work's)."""
    repeats: int = 1
    """How many times `slots` runs in one run of the node (a T-cut's subbatches)."""
    loads: np.ndarray | None = None
    """Per slot of one run (as `profile` gives them), the cycles loading the weights adds
    to it in the run that loads them (None: all `weight_cycles` in the first slot)."""
    load_dram: np.ndarray | None = None
    """Per slot of one run, the weights' DRAM bytes loaded in it (None: all in the first)."""
    head_dram: float = 0.0
    """Weight bytes the first slot loads that the slot before the node may prefetch, on a
    target whose DMA overlaps compute."""
    head_cycles: float = 0.0
    """The first slot's cycles in the run that loads the weights, once those are prefetched."""
    head_layers: frozenset[int] = frozenset()
    """The layers whose weights make `head_dram`."""
    head_wgt: np.ndarray | None = None
    """Per core of the chip, the bytes of those weights (None: none), which a slot before
    the node that prefetches them holds from there on."""
    held: np.ndarray | None = None
    """A segment's: per core of the chip, the bytes of results kept on chip for later
    segments held across it (`kept.py`; None: none)."""
    prefetched: tuple[tuple[int, int], ...] = ()
    """(layer, k): the layers whose weights are loaded k slots before their first one,
    beside the compute of those slots (where that is faster)."""
    busy: np.ndarray | None = None
    """A leaf's: per core of the chip, the cycles it works on its own piece (DMA and compute)
    in the run that loads the weights."""
    weight_busy: np.ndarray | None = None
    """A leaf's: per core of the chip, the cycles of `busy` that load its weights."""
    sent: tuple[tuple[int, np.ndarray, np.ndarray, np.ndarray], ...] = ()
    """A leaf's: per on-chip producer layer, the cycles each core of the chip spends
    sending that producer's output to this leaf, in the producer's slot, and the cycles and
    bytes (per run of the leaf) of the local copy it saves where its whole result may land
    in place instead."""
    input_busy: np.ndarray | None = None
    """A leaf's: per core of the chip, the cycles of `busy` that load its input boxes
    from DRAM (in the run that loads the weights; `input_steady`: in the others)."""
    input_steady: np.ndarray | None = None
    store_busy: np.ndarray | None = None
    """A leaf's: per core of the chip, the cycles of `busy` that store its output to DRAM
    (in the run that loads the weights; `store_steady`: in the others)."""
    store_steady: np.ndarray | None = None
    input_dram: float = 0.0
    """A charged leaf's: the DRAM bytes of its input boxes, which the slot before it may
    load on a target whose DMA overlaps compute (`early`)."""
    store_dram: float = 0.0
    """A charged leaf's: the DRAM bytes of its output store, which may run beside a later
    slot's compute on a target whose DMA overlaps compute (`late`)."""
    result: np.ndarray | None = None
    """A leaf's: per core of the chip, the bytes of its result, which a store k slots late
    holds k slots longer."""
    modes: tuple[tuple[float, float], ...] = ()
    """A charged leaf's slot in the run that loads the weights and in the others, per mode:
    its inputs loaded by a slot before (1), its store beside a slot after (2), both (3),
    neither (0)."""
    mode: int = 0
    early_inputs: tuple[tuple[int, int], ...] = ()
    """(layer, k): the layers whose input boxes from DRAM are loaded k slots before each of
    their runs, beside the compute of that slot."""
    late_stores: tuple[tuple[int, int], ...] = ()
    """(layer, k): the layers whose output is stored to DRAM beside the compute of the slot
    k after each of their runs (in every run whose slot k after is in the same segment)."""

    def profile(self) -> tuple[np.ndarray, np.ndarray]:
        """Cycles and DRAM bytes of every slot of one run, the weights on chip (callers must
        not write to the arrays)."""
        slots = np.array([self.steady_latency]) if self.slots is None else self.slots
        dram = np.array([float(self.work.dram_bytes)]) if self.slot_dram is None else self.slot_dram
        if self.repeats == 1:
            return slots, dram
        return np.tile(slots, self.repeats), np.tile(dram, self.repeats)

    def loading(self) -> tuple[np.ndarray, np.ndarray]:
        """Cycles and DRAM bytes the weights' loading adds to each slot of `profile`."""
        if self.loads is not None and self.load_dram is not None:
            return self.loads, self.load_dram
        cycles, dram = np.zeros(self.slot_count), np.zeros(self.slot_count)
        cycles[0], dram[0] = self.weight_cycles, self.weights.dram_bytes
        return cycles, dram

    def first_run(self) -> tuple[np.ndarray, np.ndarray]:
        """Cycles and DRAM bytes of every slot of the run that loads the weights (new arrays)."""
        (slots, dram), (loads, load_dram) = self.profile(), self.loading()
        return slots + loads, dram + load_dram

    def prefetched_run(self) -> tuple[np.ndarray, np.ndarray]:
        """`first_run` with the first slot's `head_dram` prefetched by a slot before."""
        slots, dram = self.first_run()
        if self.head_dram:
            slots[0], dram[0] = self.head_cycles, dram[0] - self.head_dram
        return slots, dram

    def early(self, k: int) -> NodeCost:
        """A charged leaf with its input boxes loaded by the slot k before it."""
        moved = self.in_mode(self.mode | 1, self.input_dram)
        layers = tuple((layer, k) for layer in sorted(self.head_layers))
        return attrs.evolve(moved, input_dram=0.0, early_inputs=self.early_inputs + layers)

    def late(self, k: int) -> NodeCost:
        """A charged leaf with its output stored beside the compute of the slot k after it."""
        moved = self.in_mode(self.mode | 2, self.store_dram)
        layers = tuple((layer, k) for layer in sorted(self.head_layers))
        return attrs.evolve(moved, store_dram=0.0, late_stores=self.late_stores + layers)

    def in_mode(self, mode: int, nbytes: float) -> NodeCost:
        """A charged leaf in `mode` (`modes`), `nbytes` fewer DRAM bytes in its slot."""
        assert self.slot_dram is not None
        first, steady = self.modes[mode]
        return attrs.evolve(
            self,
            latency=first,
            weight_cycles=first - steady,
            slots=np.array([steady]),
            slot_dram=self.slot_dram - nbytes,
            head_cycles=steady,
            mode=mode,
        )

    @property
    def slot_count(self) -> int:
        """How many slots one run takes (`profile`'s)."""
        return (1 if self.slots is None else len(self.slots)) * self.repeats

    @property
    def steady_latency(self) -> float:
        """The cycles of a run once the weights are on chip."""
        return self.latency - self.weight_cycles

    @property
    def total_work(self) -> Work:
        return self.work + self.weights

    def energy(self, target: HardwareTarget) -> float:
        """Picojoules."""
        return energy_pj(target, self.total_work)["total"]

    def buffer_peak(self) -> int:
        """The most bytes any core needs: max over cores of buf + wgt."""
        return int((self.buf + self.wgt).max(initial=0))

    def fits(self, target: HardwareTarget) -> bool:
        return self.buffer_peak() <= target.usable_memory_bytes

    def traffic_cycles(self, target: HardwareTarget) -> int:
        """The node's DRAM traffic over the DRAM bandwidth, which the cores share. Links
        carry any load at once: the machine models no link contention, so neither does
        the model (docs/cost-model.md, calibration)."""
        return dma_cycles(target, self.total_work.dram_bytes)


WORK_FIELDS = attrgetter(*(field.name for field in attrs.fields(Work)))
"""A `Work`'s values as a tuple, in field order."""


def scaled(work: Work, n: int) -> Work:
    return Work(*(n * value for value in WORK_FIELDS(work)))


def total(works: list[Work]) -> Work:
    """Σ works, field by field (one pass: the recursion sums a segment's leaves per tree)."""
    if not works:
        return Work()
    return Work(*map(sum, zip(*map(WORK_FIELDS, works), strict=True)))


def combined(
    children: list[NodeCost],
    n: int,
    latency: float,
    compute: float,
    buf: np.ndarray,
    slots: tuple[np.ndarray, np.ndarray, int],
    loading: float,
) -> NodeCost:
    """The parts of a cut's cost that both kinds of cut share."""
    return NodeCost(
        work=scaled(total([c.work for c in children]), n),
        weights=total([c.weights for c in children]),
        links=n * sum(c.links for c in children),
        weight_links=sum(c.weight_links for c in children),
        latency=latency,
        ifm=n * sum(c.ifm for c in children),
        wgt=sum(c.wgt for c in children),
        buf=buf,
        compute_cycles=compute,
        slots=slots[0],
        slot_dram=slots[1],
        repeats=slots[2],
        weight_cycles=loading,
        early_inputs=tuple(pair for c in children for pair in c.early_inputs),
        late_stores=tuple(pair for c in children for pair in c.late_stores),
    )


def bounded(cost: NodeCost, target: HardwareTarget) -> NodeCost:
    """At least the node's DRAM traffic over the DRAM bandwidth."""
    return attrs.evolve(cost, latency=max(cost.latency, cost.traffic_cycles(target)))
