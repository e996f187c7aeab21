"""The lower bound that orders a leaf's partitions (`leaf_bound`) is at most the leaf's cost
for every cost function, target and place, and the choice it cuts short chooses the
partition pricing every candidate chooses."""

import random

import attrs
import pytest
from test_search_speed import WholePricing
from test_search_start import deep_network, with_buffer

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.layer_cost import Output, Placed, leaf_cost
from stc.compiler.cost.leaf_bound import leaf_bound
from stc.compiler.cost.network import NETWORK_INPUT, network_of
from stc.compiler.search.annealing import initial_tree
from stc.compiler.search.moves import Rules, propose_legal
from stc.compiler.targets.hardware import load_target
from stc.compiler.tiling.fit import split_reductions
from stc.compiler.zoo import build_network
from stc.runtime.golden import find_graph

COSTS = ("edp", "latency", "energy", "e2d")


def zoo_model(name: str, target_name: str, batch: int, cost: str) -> CostModel:
    graph = find_graph(build_network(name, batch=batch))
    target = load_target(target_name)
    split_reductions(graph, target)
    return CostModel(network_of(graph), target, cost)


@pytest.mark.parametrize(
    ("name", "target_name", "batch"),
    [("resnet18", "set-8x8", 1), ("tiny", "tianjicx", 2), ("lenet", "tpu-like", 2), ("tiny", "set-8x8", 4)],
)
@pytest.mark.parametrize("cost", COSTS)
def test_the_bound_is_at_most_the_cost_of_every_partition_on_any_cores(name, target_name, batch, cost):
    """Every layer on random cores, each source from DRAM or from its producer on random
    cores, partition and subbatch (the bound sees it at core 0), the output to chip, DRAM
    or both: bound ≤ cost, each candidate,
    for one run and for 2–16 runs with the weights loaded once (`over_runs`), and the bound
    without the on-chip inputs' floors at most the full one."""
    model = zoo_model(name, target_name, batch, cost)
    rng = random.Random(f"{name}-{cost}")
    cores = model.context.mesh.core_count
    checked = 0
    for index, layer in enumerate(model.network.layers):
        for _ in range(3):
            count = rng.randint(1, cores)
            start = rng.randint(0, cores - count)
            placed = []
            for source in layer.sources:
                if source.producer == NETWORK_INPUT or rng.random() < 0.3:
                    placed.append(None)
                    continue
                where = rng.randint(1, cores)
                sub = rng.choice([n for n in range(1, batch + 1) if batch % n == 0])
                part = rng.choice(model.candidates(source.producer, where, sub))
                placed.append(Placed(model.network.layers[source.producer], cores - where, part, sub))
            output = rng.choice(list(Output))
            anywhere = tuple(None if producer is None else attrs.evolve(producer, start=0) for producer in placed)
            runs = rng.randint(2, 16)
            for part in model.candidates(index, count, batch):
                exact = leaf_cost(model.context, layer, start, part, batch, tuple(placed), output)
                bound = leaf_bound(model.context, layer, part, batch, anywhere, output, model.objective)
                assert bound <= model.objective(exact.energy(model.target), exact.latency)
                over = leaf_bound(model.context, layer, part, batch, anywhere, output, model.objective, runs)
                assert over <= model.over_runs(exact, runs)
                weaker = leaf_bound(model.context, layer, part, batch, anywhere, output, model.objective, runs, False)
                assert weaker <= over
                checked += 1
    assert checked >= 3 * len(model.network.layers)


class AllPriced(WholePricing):
    """The model as before the bound: every candidate partition priced, the least over the
    layer's runs kept."""

    def cheapest(self, index, place, placed, output, spread=1, frugal=False):
        layer = self.network.layers[index]
        runs = self.network.batch // place.batch
        options = []
        for part in self.partitions(index, place, placed, spread, frugal):
            cost = leaf_cost(self.context, layer, place.start, part, place.batch, placed, output)
            options.append((self.over_runs(cost, runs), part.counts, part, cost))
        _, _, part, cost = min(options, key=lambda option: option[:2])
        return part, cost


@pytest.mark.parametrize("cost", COSTS)
@pytest.mark.parametrize("capacity", [230_000, 400_000])
@pytest.mark.parametrize("multicast", [True, False])
def test_a_leaf_cut_short_by_its_bound_chooses_what_pricing_all_chooses(cost, capacity, multicast):
    """A random walk of moves over a chain of eight convs: every tree's layout, validity
    and cost the same with and without the bound (without multicast loads, with the
    partitions loading the fewest weight copies too)."""
    target, network = with_buffer(capacity, multicast), deep_network(8)
    model, whole = CostModel(network, target, cost), AllPriced(network, target, cost)
    rng = random.Random(cost)
    rules = Rules.of(network)
    tree = initial_tree(whole)
    for _ in range(40):
        _, candidate = propose_legal(tree, rng, rules, 32)[-1]
        if candidate is None:
            continue
        fast, full = model.evaluate(candidate), whole.evaluate(candidate)
        assert (fast.valid, fast.value(model.objective)) == (full.valid, full.value(whole.objective))
        if full.valid:
            assert model.layout(candidate) == whole.layout(candidate)
        tree = candidate if full.valid or rng.random() < 0.3 else tree
