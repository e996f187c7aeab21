"""A chain's best tree polished by joining a segment of one layer without weights to a
neighbour (compiler/search/polish.py): the joins tried, worked out by hand, and the joins
taken, each the cheapest, priced as a fresh model prices them."""

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.network import network_of
from stc.compiler.cost.tree import Node
from stc.compiler.search.annealing import anneal
from stc.compiler.search.moves import Rules
from stc.compiler.search.polish import joins, polished
from stc.compiler.targets.hardware import load_target
from stc.compiler.zoo import build_network
from stc.dialects import task

TARGET = load_target("set-8x8")
LENET = network_of(next(op for op in build_network("lenet", batch=4).ops if isinstance(op, task.GraphOp)))
"""conv4, maxpool8, conv12, maxpool16, fc20, fc26, fc32: the pools (1, 3) have no weights."""


def cut(kind: str, layers: list[int], n: int) -> Node:
    return Node.cut(kind, [Node.leaf(layer) for layer in layers], n)


def test_a_pool_s_segment_joins_each_neighbour_of_leaves_at_either_count_or_one():
    """Segments T/2[conv4], maxpool8, T/4[conv12], maxpool16, fc20, S[fc26, fc32]: maxpool8
    joins T/2[conv4] at 1 and 2 subbatches and T/4[conv12] at 1 and 4; maxpool16 joins
    T/4[conv12] at 1 and 4 and fc20 at 1; fc20 (weights) does not join the S-cut, which is
    no segment of leaves in a T-cut anyway: seven trees."""
    segments = [cut("T", [0], 2), Node.leaf(1), cut("T", [2], 4), Node.leaf(3), Node.leaf(4), cut("S", [5, 6], 1)]
    tree = Node.cut("T", segments)
    tail = "L4, S/1[L5, L6]"
    assert [repr(other) for other in joins(tree, LENET)] == [
        f"T/1[T/1[L0, L1], T/4[L2], L3, {tail}]",
        f"T/1[T/2[L0, L1], T/4[L2], L3, {tail}]",
        f"T/1[T/2[L0], T/1[L1, L2], L3, {tail}]",
        f"T/1[T/2[L0], T/4[L1, L2], L3, {tail}]",
        f"T/1[T/2[L0], L1, T/1[L2, L3], {tail}]",
        f"T/1[T/2[L0], L1, T/4[L2, L3], {tail}]",
        "T/1[T/2[L0], L1, T/4[L2], T/1[L3, L4], S/1[L5, L6]]",
    ]
    assert repr(tree) == f"T/1[T/2[L0], L1, T/4[L2], L3, {tail}]"  # the tree itself unchanged
    assert list(joins(cut("T", [0, 1], 2), LENET)) == []  # one segment: nothing to join


def test_the_cheapest_join_is_taken_while_one_is_cheaper():
    """LeNet b4, each layer a segment of its own, six results kept on chip (EDP 9.0565e9):
    of the four joins, maxpool8 with conv12 is the cheapest (9.0236e9); from it, maxpool16
    joins that segment (9.0071e9, cheaper than with fc20); then no layer without weights is
    a segment of its own, and the polish ends, on a tree priced as a fresh model prices it."""
    model = CostModel(LENET, TARGET)
    tree = Node.cut("T", [Node.leaf(layer) for layer in range(7)])
    estimate = model.evaluate(tree)
    assert estimate.kept == {0, 1, 2, 3, 4, 5}
    cost = estimate.value(model.objective)
    steps = []
    current = tree
    for _ in range(2):
        costs = {repr(other): model.evaluate(other).value(model.objective) for other in joins(current, LENET)}
        steps.append(costs)
        cheapest = min(costs, key=costs.__getitem__)
        current = next(other for other in joins(current, LENET) if repr(other) == cheapest)
    assert len(steps[0]) == 4
    assert min(steps[0], key=steps[0].__getitem__) == "T/1[L0, T/1[L1, L2], L3, L4, L5, L6]"
    assert set(steps[1]) == {"T/1[L0, T/1[L1, L2, L3], L4, L5, L6]", "T/1[L0, T/1[L1, L2], T/1[L3, L4], L5, L6]"}
    assert cost > min(steps[0].values()) > min(steps[1].values())
    assert list(joins(current, LENET)) == []
    polished_tree, polished_estimate, polished_cost = polished(model, Rules.of(LENET), tree, estimate, cost)
    assert repr(polished_tree) == "T/1[L0, T/1[L1, L2, L3], L4, L5, L6]"
    assert polished_estimate.kept == {0, 3, 4, 5}
    fresh = CostModel(LENET, TARGET)
    assert polished_cost == min(steps[1].values()) == fresh.evaluate(polished_tree).value(fresh.objective)
    late = polished(model, Rules.of(LENET), tree, estimate, cost, deadline=0.0)  # past it: no join priced
    assert (repr(late[0]), late[2]) == (repr(tree), cost)


def test_a_chain_ends_polished_unless_told_not_to():
    """From LeNet b4 with every layer a segment, a chain of no rounds ends on the polished
    tree; with `polish=False` on the tree it started from."""
    model = CostModel(LENET, TARGET)
    tree = Node.cut("T", [Node.leaf(layer) for layer in range(7)])
    assert repr(anneal(model, tree, 0, 0).tree) == "T/1[L0, T/1[L1, L2, L3], L4, L5, L6]"
    assert repr(anneal(model, tree, 0, 0, polish=False).tree) == repr(tree)
