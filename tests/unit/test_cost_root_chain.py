"""keep's choice priced incrementally (`cost/root_chain.py`, `kept.with_kept` taking the
segments a trial leaves alone from the last) chooses and prices as the plain choice does:
every trial's segments priced again from its producer's on, the root priced whole."""

import random

import pytest

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.kept import Priced, boundary_producers, held_bytes
from stc.compiler.cost.network import Network, network_of
from stc.compiler.cost.recursion import t_cut
from stc.compiler.cost.room import Room
from stc.compiler.cost.root_chain import RootChain
from stc.compiler.cost.tree import Node
from stc.compiler.search.moves import Rules, propose_legal
from stc.compiler.targets.hardware import load_target
from stc.compiler.zoo import build_network
from stc.runtime.golden import find_graph

TARGET = load_target("set-8x8")


class PlainKept(CostModel):
    """keep's choice as it was priced before the incremental one."""

    def kept_tensors(self, tree, places, segment_of):
        producers = boundary_producers(self.network, self.segments(tree))
        if not producers:
            return frozenset(), []

        def value(priced: Priced) -> float:
            root = self.root(tree, [cost for cost, _ in priced])  # pyright: ignore[reportArgumentType]
            return self.objective(root.energy(self.target), root.latency)

        kept: frozenset[int] = frozenset()
        priced = self.priced_with(tree, places, segment_of, kept)
        if priced is None:
            return frozenset(), []
        best = value(priced)
        for producer in producers:
            option = self.priced_with(tree, places, segment_of, kept | {producer})
            if option is not None and (cost := value(option)) < best:
                kept, priced, best = kept | {producer}, option, cost
        return (kept, priced) if kept else (frozenset(), [])

    def priced_with(self, tree, places, segment_of, kept) -> Priced | None:
        priced: Priced = []
        located = {}
        segments = self.segments(tree)
        for segment in segments:
            reads = {p for layer in segment.leaves() for p in self.network.layers[layer].producers}
            handed = {p: located[p] for p in kept & reads if p in located}
            cost, here = self.segment_cost(segment, places, segment_of, kept, handed)
            if cost is None:
                return None
            priced.append((cost, here))
            located |= here
        held = held_bytes(self.network, segments, located, kept, self.context.mesh, self.target)
        for (cost, _), extra in zip(priced, held, strict=True):
            if int((cost.buf + cost.wgt + extra).max()) > self.target.usable_memory_bytes:  # pyright: ignore[reportOptionalMemberAccess]
                return None
        return priced


def zoo(name: str, batch: int) -> Network:
    return network_of(find_graph(build_network(name, batch=batch)))


def walk(network: Network, seed: int, steps: int, model: CostModel | None = None) -> list[Node]:
    """Trees of a random walk from one segment per layer (with `model`, to valid ones only)."""
    rng = random.Random(seed)
    rules = Rules.of(network)
    tree = Node.cut("T", [Node.leaf(layer) for layer in range(len(network.layers))])
    trees = [tree]
    for _ in range(steps):
        _, candidate = propose_legal(tree, rng, rules, 32)[-1]
        if candidate is not None and (model is None or model.evaluate(candidate).valid):
            tree = candidate
            trees.append(tree)
    return trees


@pytest.mark.parametrize(
    ("name", "batch", "cost", "seed"),
    [("lenet", 4, "edp", 0), ("tiny", 8, "latency", 1), ("resnet18", 1, "latency", 0), ("tiny", 2, "edp", 2)],
)
def test_keep_chosen_incrementally_is_the_plain_choice(name, batch, cost, seed):
    """The same tensors kept, figures and layouts on the trees of a random walk."""
    network = zoo(name, batch)
    model, plain = CostModel(network, TARGET, cost), PlainKept(network, TARGET, cost)
    kept = 0
    for tree in walk(network, seed, 12):
        fast, slow = model.evaluate(tree), plain.evaluate(tree)
        assert (fast.valid, fast.kept, fast.latency, fast.energy) == (slow.valid, slow.kept, slow.latency, slow.energy)
        assert [(c.latency, c.energy(TARGET)) for c in fast.segments] == [
            (c.latency, c.energy(TARGET)) for c in slow.segments
        ]
        if fast.valid:
            assert model.layout(tree) == plain.layout(tree)
        kept += len(fast.kept)
    assert kept > 0


@pytest.mark.parametrize(("name", "batch", "cost"), [("lenet", 4, "latency"), ("tiny", 8, "edp")])
def test_a_resumed_root_chain_prices_as_the_root_priced_whole(name, batch, cost):
    """A chain over segments, and one resumed from it after its first k segments with the
    rest taken from another tree, value what `t_cut` prices."""
    network = zoo(name, batch)
    model = CostModel(network, TARGET, cost)
    lists = [list(model.evaluate(tree).segments) for tree in walk(network, 3, 30, model)]
    lists = [costs for costs in lists if len(costs) > 1]
    assert len(lists) > 3
    rng = random.Random(0)

    def whole(costs) -> float:
        root = t_cut(costs, 1, TARGET, early=False, room=Room.of(costs, TARGET))
        return model.objective(root.energy(TARGET), root.latency)

    for costs, other in zip(lists, lists[1:], strict=False):
        chain = RootChain.of(costs, TARGET)
        assert chain.value(model.objective, TARGET) == whole(costs)
        k = rng.randrange(1, len(costs))
        mixed = costs[:k] + other[k:] if len(other) > k else costs[:k] + other
        resumed = RootChain.of(mixed, TARGET, chain)
        assert resumed.value(model.objective, TARGET) == whole(mixed)
