"""Segments a chain has priced, recombined (compiler/search/recombine.py): the join of two
trees' best halves is found, through DRAM and with tensors kept on chip, every tree it gives
is legal (each layer once, in an order the dependences allow) and priced as a fresh model
prices it."""

import random

import pytest
from test_cost_layer import conv
from test_search_start import deep_network, with_buffer

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.network import NETWORK_INPUT, Network
from stc.compiler.cost.tree import Node
from stc.compiler.search.annealing import anneal, initial_tree, subbatch_counts
from stc.compiler.search.moves import Rules, legal, propose_legal
from stc.compiler.search.recombine import SegmentPool, pareto
from stc.compiler.targets.hardware import load_target

TARGET = load_target("set-8x8")


def segment(layers: range, n: int) -> Node:
    return Node.cut("T", [Node.leaf(layer) for layer in layers], n)


def test_two_trees_best_halves_are_joined():
    """Eight convs in two halves; tree A runs the first half at its cheapest subbatch count
    and the second at its dearest, tree B the other way round: the pool of their segments
    gives the tree of both cheapest halves, cheaper than either, priced as a fresh model
    prices it."""
    network = deep_network(8)
    model = CostModel(network, TARGET)
    rules = Rules.of(network)
    halves = (range(0, 4), range(4, 8))
    priced = []
    for layers in halves:
        options = [(model.evaluate(Node.cut("T", [segment(layers, n)])), n) for n in subbatch_counts(network.batch)]
        costs = sorted((e.value(model.objective), n) for e, n in options if e.valid)
        priced.append((costs[0][1], costs[-1][1]))
    (cheap_first, dear_first), (cheap_second, dear_second) = priced
    first = Node.cut("T", [segment(halves[0], cheap_first), segment(halves[1], dear_second)])
    second = Node.cut("T", [segment(halves[0], dear_first), segment(halves[1], cheap_second)])
    pool = SegmentPool()
    for tree in (first, second):
        pool.add(model, tree)
    joined, estimate, cost = pool.best(model, rules)
    expected = Node.cut("T", [segment(halves[0], cheap_first), segment(halves[1], cheap_second)])
    assert repr(joined) == repr(expected)
    fresh = CostModel(network, TARGET)
    assert cost == fresh.evaluate(expected).value(fresh.objective) == estimate.value(model.objective)
    assert cost < min(model.evaluate(tree).value(model.objective) for tree in (first, second))
    assert pool.best(model, rules, deadline=0.0) is None  # past its deadline it prices no tree


def test_the_join_keep_makes_cheapest_is_found_from_the_segments_as_their_trees_priced_them():
    """Four convs at 16 images. Tree A runs c1 c2 at 4 subbatches after c0 at 2 and c3 at 4,
    tree B c0 … c2 at 4 subbatches and c3 over the whole batch; each keeps a tensor on chip.
    Their join, B's first segment and A's last, keeps c2's result and is cheaper than either
    (EDP 3.680e13 against 3.711e13 and 3.726e13). The front of the segments priced alone
    (every boundary through DRAM) leaves it out: a pool without the estimates finds nothing
    cheaper than the trees. The front of the segments as their trees priced them holds it;
    the pool records each segment's energy and latency from its tree's estimate. (Before
    stop 30's pairing of kept images run by run, the model priced c0's result, made 8
    images a run and read 4 a run, scaled into the reader's run, and the cheapest join
    was A's first two segments and B's last, 3.498e13; paired as the lowering pairs them it
    prices 3.755e13.)"""
    network = deep_network(4)
    model = CostModel(network, TARGET)
    rules = Rules.of(network)
    first = Node.cut("T", [segment(range(0, 1), 2), segment(range(1, 3), 4), segment(range(3, 4), 4)])
    second = Node.cut("T", [segment(range(0, 3), 4), Node.leaf(3)])
    estimates = [model.evaluate(tree) for tree in (first, second)]
    assert all(estimate.kept for estimate in estimates)
    blind, pool = SegmentPool(), SegmentPool()
    for tree, estimate in zip((first, second), estimates, strict=True):
        blind.add(model, tree)
        pool.add(model, tree, estimate)
    for segment_, cost in zip(first.children, estimates[0].segments, strict=True):
        assert pool.seen[segment_.key()] == [(cost.energy(TARGET), cost.latency, ())]
    cheapest = min(estimate.value(model.objective) for estimate in estimates)
    _, _, blind_cost = blind.best(model, rules)
    assert blind_cost >= cheapest
    joined, estimate, cost = pool.best(model, rules)
    expected = Node.cut("T", [segment(range(0, 3), 4), segment(range(3, 4), 4)])
    assert repr(joined) == repr(expected)
    assert estimate.kept == frozenset({2})
    assert cost < cheapest
    fresh = CostModel(network, TARGET)
    assert cost == fresh.evaluate(expected).value(fresh.objective) == estimate.value(model.objective)


def branching_network(batch: int = 8) -> Network:
    """c0 → c1 → c2 and c0 → c3 → c4: the branches may run in either order."""
    sources = (NETWORK_INPUT, 0, 1, 0, 3)
    layers = tuple(
        conv(f"c{i}", source, kernel=3, pad=1, channels=32, filters=32, hw=8) for i, source in enumerate(sources)
    )
    return Network("branching", batch, layers)


@pytest.mark.parametrize("seed", [0, 5])
def test_every_recombined_tree_is_legal_and_priced_as_a_fresh_model_prices_it(seed):
    """A random walk over the trees of a branching network (swaps reorder the branches):
    from one segment per layer, after each valid tree (its segments' costs in it, kept
    tensors included), the pool's best tree runs every layer once, after its producers, and
    costs what a fresh model says. Some are trees the walk never priced (seed 5's run the
    branch c3 → c4 before c1 → c2 eight times)."""
    network = branching_network()
    model = CostModel(network, TARGET)
    rules = Rules.of(network)
    rng = random.Random(seed)
    tree = Node.cut("T", [segment(range(layer, layer + 1), 2) for layer in range(len(network.layers))])
    pool, seen, joined = SegmentPool(), {repr(tree)}, 0
    pool.add(model, tree, model.evaluate(tree))
    for _ in range(40):
        _, candidate = propose_legal(tree, rng, rules, 32)[-1]
        if candidate is None or not (estimate := model.evaluate(candidate)).valid:
            continue
        pool.add(model, candidate, estimate)
        tree = candidate
        seen.add(repr(tree))
        best = pool.best(model, rules)
        if best is None:
            continue
        found, estimate, cost = best
        joined += repr(found) not in seen
        assert legal(found, rules)
        assert sorted(found.leaves()) == list(range(len(network.layers)))
        fresh = CostModel(network, TARGET)
        assert cost == estimate.value(model.objective) == fresh.evaluate(found).value(fresh.objective)
    assert joined > 0


def test_the_front_keeps_what_nothing_beats_in_both_energy_and_latency():
    front = [(3.0, 1.0, ("a",)), (1.0, 3.0, ("b",)), (2.0, 2.0, ("c",)), (2.0, 3.0, ("d",)), (3.0, 3.0, ("e",))]
    assert pareto(front) == [(1.0, 3.0, ("b",)), (2.0, 2.0, ("c",)), (3.0, 1.0, ("a",))]


def test_a_chain_that_recombines_ends_on_a_legal_tree_priced_as_a_fresh_model_prices_it():
    """Eight convs on buffers that hold half of them at once, 160 rounds."""
    network, target = deep_network(8), with_buffer(150_000)
    model = CostModel(network, target)
    result = anneal(model, initial_tree(model), 160, seed=0)
    assert legal(result.tree, Rules.of(network))
    assert len(model.segments(result.tree)) >= 2  # segments to recombine (two before keep, eight since)
    fresh = CostModel(network, target)
    assert result.cost == fresh.evaluate(result.tree).value(fresh.objective)
