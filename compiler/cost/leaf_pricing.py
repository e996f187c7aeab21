"""
A leaf of an RA tree priced where it runs: the cheapest of its layer's candidate partitions
on its cores (`partition.candidates`, and its on-chip producers' partitions where they fit),
given where its producers run and where its output goes, each distinct case priced once per
model. The candidates are priced in the order of a lower bound of their cost
(`leaf_bound`) until the next one's bound exceeds the cheapest priced: on ResNet-50 v1
at batch 1 about half of them are then never priced.

    pricing = LeafPricing(network, target, "edp")
    (place, part), cost = pricing.leaf(3, Place(0, 16, 1), located={}, segment_of={3: (0, 0)})
"""

from __future__ import annotations

import heapq

import attrs

from stc.compiler.cost.layer_cost import Context, Output, Placed, leaf_cost, output_of
from stc.compiler.cost.leaf_bound import leaf_bound
from stc.compiler.cost.mesh import MeshModel
from stc.compiler.cost.network import NETWORK_INPUT, Layer, Network, fused_activations
from stc.compiler.cost.node_cost import NodeCost, scaled
from stc.compiler.cost.objective import objective
from stc.compiler.cost.partition import Partition, candidates, dimensions
from stc.compiler.targets.cost_units import energy_pj
from stc.compiler.targets.hardware import HardwareTarget


@attrs.frozen
class Place:
    """The cores (a snake-order range) and batch of a node."""

    start: int
    count: int
    batch: int


class LeafPricing:
    """Chooses and prices the partitions of a network's layers on one target; see the
    module docstring. `CostModel` prices whole trees on top of it."""

    def __init__(self, network: Network, target: HardwareTarget, cost: str = "edp"):
        self.network = fused_activations(network) if target.compute.fused_activation else network
        """The network as the target runs it (its convs' activations applied by them, where it can)."""
        self.target = target
        self.objective = objective(cost)
        self.context = Context(target, MeshModel.of(target))
        self.consumers = network.consumers()
        self._partitions: dict[tuple[int, int, int, int], list[Partition]] = {}
        self._leaves: dict[tuple, tuple[Partition, NodeCost]] = {}
        self._bounds: dict[tuple, float] = {}

    def candidates(self, layer: int, count: int, batch: int, spread: int = 1, frugal: bool = False) -> list[Partition]:
        spec = self.network.layers[layer]
        spread = spread if spec.weight_bytes else 1
        key = (layer, count, batch, spread, frugal)
        if key not in self._partitions:
            self._partitions[key] = candidates(spec, count, batch, self.target, spread=spread, frugal=frugal)
        return self._partitions[key]

    def aligned(self, layer: Layer, place: Place, producers: tuple[Placed | None, ...]) -> list[Partition]:
        """The partitions of on-chip producers that also fit this layer: a consumer cut as
        its producer reads its input from the same cores."""
        limits = dimensions(layer, place.batch)
        return [
            producer.part
            for producer in producers
            if producer is not None
            and producer.batch == place.batch
            and producer.part.cores <= place.count
            and all(count <= limit for count, limit in zip(producer.part.counts, limits, strict=True))
        ]

    def partitions(
        self, index: int, place: Place, placed: tuple[Placed | None, ...], spread: int = 1, frugal: bool = False
    ) -> dict[Partition, None]:
        """The partitions `cheapest` weighs for a layer at `place`: the candidates and those
        aligned with its producers' (with a spread's weights, at least `spread` ways by
        output channels), in order, each once."""
        layer = self.network.layers[index]
        aligned = self.aligned(layer, place, placed)
        if layer.weight_bytes and spread > 1:
            least = min(spread, layer.out_channels, place.count)
            aligned = [part for part in aligned if part.pk >= least]
        return dict.fromkeys(self.candidates(index, place.count, place.batch, spread, frugal) + aligned)

    def cheapest(
        self,
        index: int,
        place: Place,
        placed: tuple[Placed | None, ...],
        output: Output,
        spread: int = 1,
        frugal: bool = False,
    ) -> tuple[Partition, NodeCost]:
        """Of the candidate and aligned partitions, the one of least cost over all the
        layer's runs (`over_runs`: it runs batch / subbatch times and loads its weights
        once; ties: the smaller counts), priced in the order of their lower bounds
        (`leaf_bound`) and counts until one's bound and counts exceed the least cost and its
        counts: the others cost more, or as much with larger counts. A partition is first
        ordered by the bound without its on-chip inputs' floors (`send_floor`, most of the
        bound's work) and by the full bound only when it comes first: the same choice."""
        layer = self.network.layers[index]
        runs = self.network.batch // place.batch
        parts = self.partitions(index, place, placed, spread, frugal)
        anywhere = tuple(None if producer is None else attrs.evolve(producer, start=0) for producer in placed)
        exact = all(producer is None for producer in placed)
        queue = [
            (self.bound(index, part, place.batch, anywhere, output, runs, exact), part.counts, exact, part)
            for part in parts
        ]
        heapq.heapify(queue)
        best: tuple[float, tuple[int, ...], Partition, NodeCost] | None = None
        while queue:
            bound, counts, exact, part = heapq.heappop(queue)
            if best is not None and (bound, counts) > best[:2]:
                break
            if not exact:
                heapq.heappush(
                    queue, (self.bound(index, part, place.batch, anywhere, output, runs), counts, True, part)
                )
                continue
            cost = leaf_cost(self.context, layer, place.start, part, place.batch, placed, output)
            option = (self.over_runs(cost, runs), counts, part, cost)
            if best is None or option[:2] < best[:2]:
                best = option
        assert best is not None
        return best[2], best[3]

    def bound(
        self,
        index: int,
        part: Partition,
        batch: int,
        inputs: tuple[Placed | None, ...],
        output: Output,
        runs: int,
        floors: bool = True,
    ) -> float:
        """`leaf_bound`, cached on its arguments (the producers placed at core 0: where they
        run does not change it)."""
        key = (index, part, batch, inputs, output, runs, floors)
        if key not in self._bounds:
            layer = self.network.layers[index]
            self._bounds[key] = leaf_bound(
                self.context, layer, part, batch, inputs, output, self.objective, runs, floors
            )
        return self._bounds[key]

    def over_runs(self, cost: NodeCost, runs: int) -> float:
        """The cost function on a leaf run `runs` times with its weights loaded once: energy
        runs × the work's + the weights', latency runs × the steady run's + the loading's.
        (Priced on one run, a layer whose weight loading outlasts its compute, such as
        DarkNet-19's conv105 at 4 images per subbatch, took 49 of 64 cores: as slow to load,
        less energy; its 16 runs then took 1.33 × the compute of 64 cores.)"""
        energy = energy_pj(self.target, scaled(cost.work, runs) + cost.weights)["total"]
        return self.objective(energy, (runs - 1) * cost.steady_latency + cost.latency)

    def placed(self, layer: int, place: Place, part: Partition) -> Placed:
        return Placed(self.network.layers[layer], place.start, part, place.batch)

    def leaf(
        self,
        layer: int,
        place: Place,
        located: dict[int, tuple[Place, Partition]],
        segment_of: dict[int, int],
        spread: int = 1,
        frugal: bool = False,
        kept: frozenset[int] = frozenset(),
    ) -> tuple[tuple[Place, Partition], NodeCost]:
        """A leaf's partition and cost: of the candidate partitions (those splitting its
        output channels at least `spread` ways where they can; with `frugal`, also those
        loading the fewest copies of its weights), the one of least cost given where its
        producers run (they come first in a valid tree). A leaf whose candidates `frugal`
        adds none to is the same leaf without it, priced once. The results of `kept` stay
        on their cores for their consumers in later segments (`cost/kept.py`)."""
        spec = self.network.layers[layer]

        def near(other: int) -> bool:
            return segment_of.get(other) == segment_of[layer]

        inputs = tuple(
            None
            if source.producer == NETWORK_INPUT or not (near(source.producer) or source.producer in kept)
            else (source.producer, *located[source.producer], not near(source.producer))
            for source in spec.sources
        )
        here = [near(c) or layer in kept for c in self.consumers[layer]]
        output = output_of(spec.is_output, here)
        frugal = frugal and self.candidates(layer, place.count, place.batch, spread, True) != self.candidates(
            layer, place.count, place.batch, spread
        )
        key = (layer, place, inputs, output, spread, frugal)
        if key not in self._leaves:
            placed = tuple(
                None
                if where is None
                else Placed(self.network.layers[where[0]], where[1].start, where[2], where[1].batch, where[3])
                for where in inputs
            )
            self._leaves[key] = self.cheapest(layer, place, placed, output, spread, frugal)
        part, cost = self._leaves[key]
        return (place, part), cost
