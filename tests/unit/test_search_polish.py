"""A chain's best tree polished by joining a one-layer segment to a neighbour
(compiler/search/polish.py): the joins tried, worked out by hand, and the join taken, the
cheapest, priced as a fresh model prices it."""

from test_search_start import deep_network

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.tree import Node
from stc.compiler.search.moves import Rules
from stc.compiler.search.polish import joins, polished
from stc.compiler.targets.hardware import load_target

TARGET = load_target("set-8x8")


def cut(kind: str, layers: list[int], n: int) -> Node:
    return Node.cut(kind, [Node.leaf(layer) for layer in layers], n)


def test_a_one_layer_segment_joins_each_neighbour_of_leaves_at_either_count_or_one():
    """Segments T/2[0, 1], 2, T/4[3, 4], T/2[5, 6], S[7, 8]: the leaf 2 joins T/2[0, 1] at
    1 and 2 subbatches and T/4[3, 4] at 1 and 4; T/4[3, 4] and T/2[5, 6] are no one-layer
    segment, and the S-cut is no segment of leaves in a T-cut: four trees."""
    segments = [cut("T", [0, 1], 2), Node.leaf(2), cut("T", [3, 4], 4), cut("T", [5, 6], 2), cut("S", [7, 8], 1)]
    tree = Node.cut("T", segments)
    rest = "T/4[L3, L4], T/2[L5, L6], S/1[L7, L8]"
    assert [repr(other) for other in joins(tree)] == [
        f"T/1[T/1[L0, L1, L2], {rest}]",
        f"T/1[T/2[L0, L1, L2], {rest}]",
        "T/1[T/2[L0, L1], T/1[L2, L3, L4], T/2[L5, L6], S/1[L7, L8]]",
        "T/1[T/2[L0, L1], T/4[L2, L3, L4], T/2[L5, L6], S/1[L7, L8]]",
    ]
    assert repr(tree) == f"T/1[T/2[L0, L1], L2, {rest}]"  # the tree itself unchanged
    assert list(joins(cut("T", [0, 1], 2))) == []  # one segment: nothing to join


def test_the_cheapest_join_is_taken_while_it_is_cheaper():
    """Three convs at 4 images, each a segment of its own, c0's and c1's results kept on
    chip: joining c0 and c1 (c1's result kept for c2) is cheaper than the tree and than the
    other join; from it, joining c2 too is dearer, so the polish ends there, on a tree priced
    as a fresh model prices it."""
    network = deep_network(3, batch=4)
    model = CostModel(network, TARGET)
    tree = Node.cut("T", [Node.leaf(0), Node.leaf(1), Node.leaf(2)])
    estimate = model.evaluate(tree)
    assert estimate.kept == {0, 1}
    cost = estimate.value(model.objective)
    costs = {repr(other): model.evaluate(other).value(model.objective) for other in joins(tree)}
    joined = "T/1[T/1[L0, L1], L2]"
    assert set(costs) == {joined, "T/1[L0, T/1[L1, L2]]"}
    assert costs[joined] == min(costs.values()) < cost
    polished_tree, polished_estimate, polished_cost = polished(model, Rules.of(network), tree, estimate, cost)
    assert repr(polished_tree) == joined
    assert polished_estimate.kept == {1}
    further = [model.evaluate(other).value(model.objective) for other in joins(polished_tree)]
    assert len(further) == 1  # T/1[L0, L1] with L2, at one subbatch
    assert further[0] >= polished_cost
    fresh = CostModel(network, TARGET)
    assert polished_cost == costs[joined] == fresh.evaluate(polished_tree).value(fresh.objective)
