"""
The cost of an RA-tree node from the costs of its children: seed 002's recursion.

With n the subbatches of a cut:

- work (MACs, local-memory, DRAM and NoC hop-bytes, hence energy) and the bytes on each
  link: n·Σ children; the weights' loading (`weights`, `weight_links`): Σ children, as a
  segment loads its weights in its first subbatch and keeps them on its cores for the
  others (the lowering holds them there, `st.share_data`);
- latency: a node runs as time slots (the machine's phases, `schedule`), and keeps
  the cycles and DRAM bytes of each slot of one run once its weights are on chip (`slots`,
  `slot_dram`), and what loading them adds to its first subbatch (`weight_cycles`). T-cut:
  its children's slots one after another, n times (n·Σ children), plus Σ of their loading.
  S-cut: (n + max stage) blocks of max child slots, a child's stage being one more than
  that of every earlier sibling it reads from; child c runs its subbatch i in block
  i + stage(c), and a slot lasts as long as the slowest child running in it and at least
  as long as all their DRAM bytes take at the DRAM bandwidth (at most the seed's
  (n + max stage)·max child, equal when the children take equally long), plus the
  slowest child's loading (they load side by side). Never less than the node's own DRAM
  traffic over the DRAM bandwidth;
- prefetch (a target whose DMA overlaps compute, `dma_overlaps_compute`): in a T-cut, the
  weights a child loads in its first slot are loaded in one of the PREFETCH_DEPTH slots
  before it instead, beside that slot's compute, where that shortens the run most, if at
  all, the farthest of equals (`prefetched`; the lowering holds them from there and
  isa-lower loads them beside the compute): they add to that slot's DRAM bytes, and the child's first slot lasts as
  long as without them (`head_dram`, `head_cycles`). An S-cut's children of stage 0 load in
  its first slot (its head); the others in their own first slot;
- buffer usage per core: ifm = n·Σ ifm, wgt = Σ wgt; S-cut buf = Σ buf (n = 1) or
  Σ (buf + ifm) (n > 1); T-cut buf = max over i of buf_i + ifm_{i+1}, the last child with
  the first child's ifm when n > 1 (the next subbatch is prefetched).

A segment is valid when buf + wgt fits every core's buffer.

    cost = t_cut([a, b], n=2, target=target)
"""

from __future__ import annotations

import attrs
import numpy as np

from stc.compiler.targets.cost_units import Work, dma_cycles, energy_pj
from stc.compiler.targets.hardware import HardwareTarget

PREFETCH_DEPTH = 32
"""How many slots before its first one a layer's weights may be loaded (held that much longer);
at batch 1 the weights of stages 2-4 of ResNet-50 fill the DRAM idle beside stage 1's compute."""


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
        length = (1 if self.slots is None else len(self.slots)) * self.repeats
        cycles, dram = np.zeros(length), np.zeros(length)
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


def scaled(work: Work, n: int) -> Work:
    return Work(*(n * value for value in attrs.astuple(work)))


def total(works: list[Work]) -> Work:
    result = Work()
    for work in works:
        result = result + work
    return result


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
    )


def bounded(cost: NodeCost, target: HardwareTarget) -> NodeCost:
    """At least the node's DRAM traffic over the DRAM bandwidth."""
    return attrs.evolve(cost, latency=max(cost.latency, cost.traffic_cycles(target)))


def reloaded(cost: NodeCost, reloads: list[tuple[NodeCost, int]], target: HardwareTarget) -> NodeCost:
    """A segment whose leaves load their weights again, each `times` more times (in later
    steps): their loading's work, link bytes and cycles added that many times."""
    if not reloads:
        return cost
    extra = sum((scaled(leaf.weights, times) for leaf, times in reloads), Work())
    cycles = sum(times * leaf.weight_cycles for leaf, times in reloads)
    return bounded(
        attrs.evolve(
            cost,
            weights=cost.weights + extra,
            weight_links=cost.weight_links + sum(times * leaf.weight_links for leaf, times in reloads),
            latency=cost.latency + cycles,
            weight_cycles=cost.weight_cycles + cycles,
            loads=None,
            load_dram=None,
        ),
        target,
    )


def t_buffers(bufs: list[np.ndarray], ifms: list[np.ndarray], n: int) -> np.ndarray:
    """A T-cut's buf per core from its children's buf and ifm: max over i of buf_i +
    ifm_(i+1), the last child with the first child's ifm when n > 1."""
    pairs = [buf + following for buf, following in zip(bufs, ifms[1:], strict=False)]
    last = bufs[-1] + (ifms[0] if n > 1 else 0)
    return np.maximum.reduce([*pairs, last])


def s_buffers(bufs: list[np.ndarray], ifms: list[np.ndarray], n: int) -> np.ndarray:
    """An S-cut's buf per core: Σ buf (n = 1) or Σ (buf + ifm)."""
    return sum(buf + ifm for buf, ifm in zip(bufs, ifms, strict=True)) if n > 1 else sum(bufs)


def t_cut(children: list[NodeCost], n: int, target: HardwareTarget) -> NodeCost:
    """A T-cut: its children one after another on the same cores, n times."""
    buf = t_buffers([c.buf for c in children], [c.ifm for c in children], n)
    profiles = [child.profile() for child in children]
    slots = (np.concatenate([p[0] for p in profiles]), np.concatenate([p[1] for p in profiles]), n)
    compute = n * sum(c.compute_cycles for c in children)
    rest = (n - 1) * len(slots[0])
    if target.global_memory.dma_overlaps_compute:
        return prefetching_t_cut(children, n, target, buf, slots, compute)
    loading = sum(c.weight_cycles for c in children)
    latency = n * float(slots[0].sum()) + loading
    loads = [np.concatenate([*parts, np.zeros(rest)]) for parts in zip(*(c.loading() for c in children), strict=True)]
    cost = combined(children, n, latency, compute, buf, slots, loading)
    return bounded(attrs.evolve(cost, loads=loads[0], load_dram=loads[1]), target)


def prefetching_t_cut(
    children: list[NodeCost],
    n: int,
    target: HardwareTarget,
    buf: np.ndarray,
    slots: tuple[np.ndarray, np.ndarray, int],
    compute: float,
) -> NodeCost:
    """A T-cut on a target whose DMA overlaps compute: each child's first-slot weights are
    loaded in the earlier slot (of the last PREFETCH_DEPTH) where that shortens the first
    run most, if any; of equals the farthest, which leaves the nearer slots, which more of
    the later children reach, to them (ResNet-50 v1 b1's start tree on set-8x8: 423,520
    cycles with the nearest of equals and a depth of 4, 420,308 with this and 32)."""
    bandwidth = target.global_memory.bandwidth_bytes_per_cycle
    runs = [children[0].first_run()]
    prefetched = dict(pair for c in children for pair in c.prefetched)
    for child in children[1:]:
        loaded = child.first_run()
        if child.head_dram:
            hoisted = child.prefetched_run()
            recent = runs[-PREFETCH_DEPTH:]  # each run has a slot at least
            cycles = np.concatenate([r[0] for r in recent])[-PREFETCH_DEPTH:][::-1]
            dram = np.concatenate([r[1] for r in recent])[-PREFETCH_DEPTH:][::-1]
            longer = np.maximum(cycles, np.ceil((dram + child.head_dram) / bandwidth))
            gains = loaded[0][0] - hoisted[0][0] - (longer - cycles)
            back = len(gains) - 1 - int(np.argmax(gains[::-1]))  # slots back from the last
            if gains[back] > 0:
                add_dram(runs, back, child.head_dram, bandwidth)
                loaded = hoisted
                prefetched |= dict.fromkeys(child.head_layers, back + 1)
        runs.append(loaded)
    first_slots, first_dram = np.concatenate([r[0] for r in runs]), np.concatenate([r[1] for r in runs])
    head = children[0].head_dram
    head_cycles = max(children[0].head_cycles, float(np.ceil((first_dram[0] - head) / bandwidth))) if head else 0.0
    loading = float(first_slots.sum() - slots[0].sum())
    latency = n * float(slots[0].sum()) + loading
    rest = np.zeros((n - 1) * len(slots[0]))
    cost = combined(children, n, latency, compute, buf, slots, loading)
    return bounded(
        attrs.evolve(
            cost,
            loads=np.concatenate([first_slots - slots[0], rest]),
            load_dram=np.concatenate([first_dram - slots[1], rest]),
            head_dram=float(head),
            head_cycles=head_cycles,
            head_layers=children[0].head_layers,
            prefetched=tuple(sorted(prefetched.items())),
        ),
        target,
    )


def add_dram(runs: list[tuple[np.ndarray, np.ndarray]], back: int, nbytes: float, bandwidth: float) -> None:
    """Add `nbytes` DRAM bytes to the slot `back` slots before the runs' last one, which then
    lasts at least as long as its DRAM bytes take."""
    for cycles, dram in reversed(runs):
        if back < len(cycles):
            slot = len(cycles) - 1 - back
            dram[slot] += nbytes
            cycles[slot] = max(cycles[slot], float(np.ceil(dram[slot] / bandwidth)))
            return
        back -= len(cycles)


def s_cut(children: list[NodeCost], n: int, stages: list[int], target: HardwareTarget) -> NodeCost:
    """An S-cut: its children side by side on disjoint cores, pipelined over n subbatches."""
    buf = s_buffers([c.buf for c in children], [c.ifm for c in children], n)
    depth = n + max(stages)
    profiles = [child.profile() for child in children]
    block = max(len(cycles) for cycles, _ in profiles)
    cycles, dram = np.zeros((depth, block)), np.zeros((depth, block))
    first, weight_dram = np.zeros((depth, block)), np.zeros((depth, block))
    """The first run's: each child loads its weights in its slots of block stage(c), as its
    own first run spreads them (`NodeCost.loading`)."""
    overlap = target.global_memory.dma_overlaps_compute
    head, head_slot = 0.0, 0.0
    """Where DMA overlaps compute: the weights the children of stage 0 load in the first
    slot, which a slot before the cut may prefetch, and that slot without the prefetch."""
    for child, (own, moved), stage in zip(children, profiles, stages, strict=True):
        rows = slice(stage, stage + n)
        cycles[rows, : len(own)] = np.maximum(cycles[rows, : len(own)], own)
        first[rows, : len(own)] = np.maximum(first[rows, : len(own)], own)
        loaded, loaded_dram = child.prefetched_run() if overlap and not stage else child.first_run()
        first[stage, : len(own)] = np.maximum(first[stage, : len(own)], loaded)
        dram[rows, : len(own)] += moved
        weight_dram[stage, : len(own)] += loaded_dram - moved
        if overlap and not stage:
            head += child.head_dram
            head_slot = max(head_slot, float(child.first_run()[0][0]))
    bandwidth = target.global_memory.bandwidth_bytes_per_cycle
    slots = np.maximum(cycles, np.ceil(dram / bandwidth)).reshape(-1)
    firsts = np.maximum(first, np.ceil((dram + weight_dram) / bandwidth)).reshape(-1)
    prefetchable = float(firsts[0])
    weight_dram = weight_dram.reshape(-1)
    if head:
        firsts[0] = max(prefetchable, head_slot, float(np.ceil((dram[0, 0] + weight_dram[0] + head) / bandwidth)))
        weight_dram[0] += head
    loading = float(firsts.sum() - slots.sum())
    compute = depth * max(c.compute_cycles for c in children)
    cost = combined(children, n, float(slots.sum()) + loading, compute, buf, (slots, dram.reshape(-1), 1), loading)
    prefetch = {}
    if overlap:
        layers = frozenset().union(*(c.head_layers for c, stage in zip(children, stages, strict=True) if not stage))
        prefetch = {
            "head_dram": head,
            "head_cycles": prefetchable,
            "head_layers": layers,
            "prefetched": tuple(sorted(pair for c in children for pair in c.prefetched)),
        }
    return bounded(attrs.evolve(cost, loads=firsts - slots, load_dram=weight_dram, **prefetch), target)


def stages_of(depends: list[set[int]]) -> list[int]:
    """Each child's pipeline stage: 0, or one more than the stage of every earlier sibling
    it reads from (`depends[j]`: the earlier siblings child j reads from)."""
    stages: list[int] = []
    for earlier in depends:
        stages.append(max((stages[i] + 1 for i in earlier), default=0))
    return stages
