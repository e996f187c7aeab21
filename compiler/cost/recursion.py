"""
The cost of an RA-tree node from the costs of its children: seed 002's recursion.

With n the subbatches of a cut:

- work (MACs, local-memory, DRAM and NoC hop-bytes, hence energy) and the bytes on each
  link: n·Σ children; the weights' loading (`weights`, `weight_links`): Σ children, as a
  segment loads its weights in its first subbatch and keeps them on its cores for the
  others (the lowering holds them there, `st.share_data`);
- latency: T-cut n·Σ children, S-cut (n + max stage)·max child, where a child's stage is one
  more than that of every earlier sibling it reads from, both of children's runs without the
  weights' loading, plus the cycles the loading adds once (`weight_cycles`: Σ for a T-cut,
  max for an S-cut, whose children load side by side); and never less than the node's own
  DRAM traffic over the DRAM bandwidth;
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
    children: list[NodeCost], n: int, latency: float, compute: float, buf: np.ndarray, loading: float
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
        weight_cycles=loading,
    )


def bounded(cost: NodeCost, target: HardwareTarget) -> NodeCost:
    """At least the node's DRAM traffic over the DRAM bandwidth."""
    return attrs.evolve(cost, latency=max(cost.latency, cost.traffic_cycles(target)))


def t_cut(children: list[NodeCost], n: int, target: HardwareTarget) -> NodeCost:
    """A T-cut: its children one after another on the same cores, n times."""
    pairs = [child.buf + following.ifm for child, following in zip(children, children[1:], strict=False)]
    last = children[-1].buf + (children[0].ifm if n > 1 else 0)
    buf = np.maximum.reduce([*pairs, last])
    loading = sum(c.weight_cycles for c in children)
    latency = n * sum(c.steady_latency for c in children) + loading
    compute = n * sum(c.compute_cycles for c in children)
    return bounded(combined(children, n, latency, compute, buf, loading), target)


def s_cut(children: list[NodeCost], n: int, stages: list[int], target: HardwareTarget) -> NodeCost:
    """An S-cut: its children side by side on disjoint cores, pipelined over n subbatches."""
    buf = sum(c.buf + c.ifm for c in children) if n > 1 else sum(c.buf for c in children)
    depth = n + max(stages)
    loading = max(c.weight_cycles for c in children)
    latency = depth * max(c.steady_latency for c in children) + loading
    compute = depth * max(c.compute_cycles for c in children)
    return bounded(combined(children, n, latency, compute, buf, loading), target)


def stages_of(depends: list[set[int]]) -> list[int]:
    """Each child's pipeline stage: 0, or one more than the stage of every earlier sibling
    it reads from (`depends[j]`: the earlier siblings child j reads from)."""
    stages: list[int] = []
    for earlier in depends:
        stages.append(max((stages[i] + 1 for i in earlier), default=0))
    return stages
