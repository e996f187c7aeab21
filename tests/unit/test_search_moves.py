"""The annealing moves (compiler/search/moves.py): each does what it says, trees stay legal,
the dependence order holds; the annealing and the chains are deterministic for a seed."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cost_layer import two_layer_network
from test_search_start import deep_network

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.tree import Node
from stc.compiler.search import annealing, moves
from stc.compiler.search.annealing import anneal, initial_tree, temperature
from stc.compiler.search.chains import search
from stc.compiler.search.moves import Rules, legal, mutate, tidy
from stc.compiler.targets.hardware import load_target

# a chain 0 → 1 → 2 and a branch 0 → 3, joined by 4
PRODUCERS = (frozenset(), frozenset({0}), frozenset({1}), frozenset({0}), frozenset({2, 3}))
RULES = Rules(PRODUCERS, batch=8)


def tree_of(text: str) -> Node:
    """`T/2[0, S[1, 2], 3]`-style trees."""
    tokens = text.replace("[", " [ ").replace("]", " ] ").replace(",", " ").split()

    def parse(position: int) -> tuple[Node, int]:
        token = tokens[position]
        if token.isdigit():
            return Node.leaf(int(token)), position + 1
        kind, _, n = token.partition("/")
        children = []
        position += 2
        while tokens[position] != "]":
            child, position = parse(position)
            children.append(child)
        return Node.cut(kind, children, int(n or 1)), position + 1

    return parse(0)[0]


class Scripted(random.Random):
    """A generator whose choices are given: `choice` returns the listed index of its options."""

    def __init__(self, picks):
        super().__init__(0)
        self.picks = list(picks)

    def choice(self, seq):
        return seq[self.picks.pop(0)]

    def randint(self, a, b):
        return self.picks.pop(0)

    def random(self):
        return self.picks.pop(0)


def test_swap_before_swaps_independent_siblings_only():
    tree = tree_of("T[0 1 3 2 4]")
    # the second option is node 3 (index 2), swapped with 1: 3 does not read 1
    assert repr(moves.swap_before(tree.copy(), Scripted([1]), RULES)) == "T/1[L0, L3, L1, L2, L4]"
    # node 1 reads 0: no swap
    assert moves.swap_before(tree.copy(), Scripted([0]), RULES) is None


def test_swap_after_swaps_independent_siblings_only():
    tree = tree_of("T[0 1 3 2 4]")
    assert repr(moves.swap_after(tree.copy(), Scripted([1]), RULES)) == "T/1[L0, L3, L1, L2, L4]"
    assert moves.swap_after(tree.copy(), Scripted([0]), RULES) is None


def test_remove_cut_splices_the_children():
    tree = tree_of("T[0 S[1 2] 3 4]")
    assert repr(moves.remove_cut(tree, Scripted([0]), RULES)) == "T/1[L0, L1, L2, L3, L4]"


def test_wrap_range_makes_a_cut_of_the_other_kind():
    tree = tree_of("T[0 1 2 3 4]")
    # the root, 2 children from index 1, not a T under the T (0.9 ≥ 0.5)
    assert repr(moves.wrap_range(tree, Scripted([0, 2, 1, 0.9]), RULES)) == "T/1[L0, S/1[L1, L2], L3, L4]"
    tree = tree_of("T[0 1 2 3 4]")
    assert repr(moves.wrap_range(tree, Scripted([0, 2, 1, 0.1]), RULES)) == "T/1[L0, T/1[L1, L2], L3, L4]"


def test_wrapping_segments_keeps_their_subbatches():
    tree = tree_of("T[T/4[0] T/8[1] T/2[2 3] 4]")
    # the root, 3 children from index 0, an S-cut (0.9 ≥ 0.5)
    merged = moves.wrap_range(tree, Scripted([0, 3, 0, 0.9]), RULES)
    assert repr(merged) == "T/1[S/8[L0, L1, T/2[L2, L3]], L4]"


def test_subbatch_moves_halve_and_double():
    assert repr(moves.fewer_subbatches(tree_of("T/4[0 1 2 3 4]"), Scripted([0]), RULES)) == "T/2[L0, L1, L2, L3, L4]"
    assert repr(moves.more_subbatches(tree_of("T/4[0 1 2 3 4]"), Scripted([0]), RULES)) == "T/8[L0, L1, L2, L3, L4]"
    assert moves.fewer_subbatches(tree_of("T[0 1 2 3 4]"), Scripted([0]), RULES) is None


def test_move_leaf_into_a_neighbour_and_out():
    tree = tree_of("T[0 S[1 2] 3 4]")
    # leaf options in order: 0, 3, 4 (the root's), then 1, 2; leaf 0 into the next cut
    assert repr(moves.move_leaf(tree.copy(), Scripted([0, 0]), RULES)) == "T/1[S/1[L0, L1, L2], L3, L4]"
    # leaf 1, first of its cut: out, before the cut
    assert repr(moves.move_leaf(tree.copy(), Scripted([3, 0]), RULES)) == "T/1[L0, L1, S/1[L2], L3, L4]"
    # leaf 3 into the previous cut
    assert repr(moves.move_leaf(tree.copy(), Scripted([1, 0]), RULES)) == "T/1[L0, S/1[L1, L2, L3], L4]"


def test_shift_boundary_moves_a_child_between_neighbouring_segments():
    tree = tree_of("T[T/4[0 1] S/2[3 2] 4]")
    # forward (0.1 < 0.5): the first segment's last child opens the second
    assert repr(moves.shift_boundary(tree.copy(), Scripted([0, 0.1]), RULES)) == "T/1[T/4[L0], S/2[L1, L3, L2], L4]"
    # back: the second segment's first child closes the first
    assert repr(moves.shift_boundary(tree.copy(), Scripted([0, 0.9]), RULES)) == "T/1[T/4[L0, L1, L3], S/2[L2], L4]"
    # segments are the children of a root T-cut of one subbatch only
    assert moves.shift_boundary(tree_of("T/2[T/4[0 1] T[2 3] 4]"), Scripted([0, 0.1]), RULES) is None
    assert moves.shift_boundary(tree_of("T[0 T/4[1 2] 3 4]"), Scripted([0, 0.1]), RULES) is None


def test_split_segment_cuts_it_in_two_of_the_same_kind_and_subbatches():
    tree = tree_of("T[S/4[0 1 3] 2 4]")
    assert repr(moves.split_segment(tree, Scripted([0, 2]), RULES)) == "T/1[S/4[L0, L1], S/4[L3], L2, L4]"
    assert moves.split_segment(tree_of("T[0 1 2 3 4]"), Scripted([0, 1]), RULES) is None


def test_split_cores_makes_a_t_cut_an_s_cut_of_its_two_halves():
    tree = tree_of("T[T/4[0 1 3 2] 4]")
    # the cuts in depth-first order: the root (0), the segment (1); split after 3 children
    assert repr(moves.split_cores(tree, Scripted([1, 3]), RULES)) == "T/1[S/4[T/1[L0, L1, L3], T/1[L2]], L4]"
    assert repr(tidy(tree)) == "T/1[S/4[T/1[L0, L1, L3], L2], L4]"
    assert moves.split_cores(tree_of("S[0 1]"), Scripted([0, 1]), RULES) is None
    # in the layer-pipeline space an S-cut of T-cuts is not legal
    assert not legal(tidy(tree.copy()), Rules(PRODUCERS, 8, "lp"))


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    move=st.sampled_from([moves.shift_boundary, moves.split_segment, moves.split_cores]),
)
def test_segment_moves_keep_the_layers_order(seed, move):
    """Both moves keep the depth-first order of the layers, so the dependence order holds
    and the tree stays legal after tidying."""
    rng = random.Random(seed)
    tree = tree_of("T[T/2[0 1] T/4[S[3 2] 4]]")
    for _ in range(20):
        changed = move(tree.copy(), rng, RULES)
        if changed is None:
            break
        changed = tidy(changed)
        assert list(changed.leaves()) == list(tree.leaves())
        assert legal(changed, RULES)
        tree = changed


def test_tidy_drops_empty_and_trivial_cuts():
    tree = Node.cut("T", [Node.cut("S", []), Node.cut("S", [Node.leaf(0)]), Node.cut("T", [Node.leaf(1)], n=2)])
    assert repr(tidy(tree)) == "T/1[L0, T/2[L1]]"


def test_legal_checks_order_batches_and_space():
    assert legal(tree_of("T/2[0 S/4[1 3] 2 4]"), RULES)
    assert not legal(tree_of("T[1 0 2 3 4]"), RULES)  # 1 before its producer
    assert not legal(tree_of("T/2[0 S/8[1 3] 2 4]"), RULES)  # 8 subbatches of a batch of 4
    assert not legal(tree_of("T[0 S[1 3] 2 4]"), Rules(PRODUCERS, 8, "ls"))
    assert legal(tree_of("T[0 S[1 3] 2 4]"), Rules(PRODUCERS, 8, "lp"))
    assert not legal(tree_of("T[0 S[1 T[3 2]] 4]"), Rules(PRODUCERS, 8, "lp"))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), space=st.sampled_from(["set", "ls", "lp"]))
def test_random_moves_keep_trees_legal(seed, space):
    rng = random.Random(seed)
    rules = Rules(PRODUCERS, 8, space)
    tree = tree_of("T[0 1 2 3 4]")
    for _ in range(60):
        changed = mutate(tree, rng, rules)
        if changed is None:
            continue
        assert legal(changed, rules)
        assert sorted(changed.leaves()) == [0, 1, 2, 3, 4]
        tree = changed


def test_temperature_schedule():
    assert temperature(0) == pytest.approx(0.07)
    assert temperature(0.5) == pytest.approx(0.07 * 0.5 / 5)
    assert temperature(1) == 0


def test_annealing_is_deterministic_for_a_seed_and_never_worse_than_its_start():
    model = CostModel(two_layer_network(8), load_target("set-8x8"))
    start = initial_tree(model)
    first = anneal(model, start, rounds=60, seed=3)
    again = anneal(CostModel(two_layer_network(8), load_target("set-8x8")), start, rounds=60, seed=3)
    assert repr(first.tree) == repr(again.tree)
    assert first.cost == again.cost
    assert first.cost <= model.evaluate(start).value(model.objective)


@pytest.mark.parametrize(
    ("every", "rounds", "period", "seed"), [(0.1, 200, 20, 0), (0.9, 200, 180, 0), (0.1, 9, 1, 10)]
)
def test_a_chain_returns_to_its_best_tree_after_each_fraction_every_of_its_rounds(
    monkeypatch, every, rounds, period, seed
):
    """The tree each round moves from, recorded: after every `every` of the rounds (at least
    one) it is the best tree found so far (the candidate of the curve's last round before
    it). A chain of six convs at seed 0 wanders off its best tree (160 of 200 rounds move
    from another tree when it returns only at 90 %), so a chain that did not return would
    fail. A chain of 9 rounds returns after each: at seed 10 it moved from another tree in
    rounds 2-9 when a tenth of its rounds was 0 and it never returned."""
    model = CostModel(deep_network(6), load_target("set-8x8"))
    start = initial_tree(model)
    moved_from, candidates = [], []

    def recorded(tree, rng, rules, attempts):
        drawn = moves.propose_legal(tree, rng, rules, attempts)
        moved_from.append(repr(tree))
        candidates.append(repr(drawn[-1][1]))
        return drawn

    monkeypatch.setattr(annealing, "propose_legal", recorded)
    result = anneal(model, start, rounds, seed=seed, every=every)
    improved = [done for done, _ in result.curve[1:]]
    returns = range(period, rounds, period)
    for done in returns:
        best = max((r for r in improved if r < done), default=0)
        assert moved_from[done - 1] == (candidates[best - 1] if best else repr(start))
    if period > 1:
        bests = {candidates[r - 1] for r in improved} | {repr(start)}
        assert any(tree not in bests for tree in moved_from)


def test_chains_in_processes_agree_with_one_process():
    network = two_layer_network(8)
    target = load_target("set-8x8")
    parallel = search(network, target, rounds=40, chains=2, jobs=2, show_progress=False)
    serial = search(network, target, rounds=40, chains=2, jobs=1, show_progress=False)
    assert repr(parallel.tree) == repr(serial.tree)
    assert parallel.cost == serial.cost
    assert parallel.cost <= parallel.initial.value(CostModel(network, target).objective)


def test_propose_legal_draws_until_a_move_leaves_a_legal_tree():
    # batch 1: no cut can change its subbatches and a chain has no independent siblings,
    # so many draws do not apply; every draw before the last is None, the last is legal
    rules = Rules(PRODUCERS[:3], batch=1)
    rng = random.Random(5)
    for _ in range(40):
        drawn = moves.propose_legal(tree_of("T[T[0 1] 2]"), rng, rules, attempts=32)
        assert all(tree is None for _, tree in drawn[:-1])
        assert drawn[-1][1] is not None
        assert legal(drawn[-1][1], rules)
        assert {name for name, _ in drawn} <= {move.__name__ for move in moves.MOVES}


def test_propose_legal_gives_up_after_its_attempts():
    # a one-leaf tree: no move applies (its root cannot lose its only child to a legal tree)
    rules = Rules((frozenset(),), batch=1)
    drawn = moves.propose_legal(tree_of("T[0]"), random.Random(0), rules, attempts=7)
    assert len(drawn) == 7
    assert all(tree is None for _, tree in drawn)


def test_a_chain_counts_each_move_kind_and_records_its_best_costs():
    model = CostModel(two_layer_network(8), load_target("set-8x8"))
    start = initial_tree(model)
    result = anneal(model, start, rounds=60, seed=3)
    counts = result.moves.values()
    assert set(result.moves) == {move.__name__ for move in moves.MOVES}
    assert all(c.proposed >= c.legal >= c.valid >= c.accepted >= c.improved for c in counts)
    assert sum(c.legal for c in counts) <= 60 <= sum(c.proposed for c in counts)
    assert sum(c.accepted for c in counts) == result.accepted
    assert result.curve[0] == (0, model.evaluate(start).value(model.objective))
    rounds = [at for at, _ in result.curve]
    costs = [cost for _, cost in result.curve]
    assert rounds == sorted(rounds)
    assert costs == sorted(costs, reverse=True)
    assert costs[-1] == result.cost


def test_a_round_of_set_prices_at_most_one_drawn_move():
    model = CostModel(two_layer_network(8), load_target("set-8x8"))
    result = anneal(model, initial_tree(model), rounds=60, seed=3, attempts=1)
    assert sum(c.proposed for c in result.moves.values()) == 60


class FakeClock:
    """`time.monotonic` advancing `step` seconds per call."""

    def __init__(self, step: float):
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize("budget", [None, 30.0])
def test_a_chain_cools_over_its_time_budget_and_returns_after_each_tenth(monkeypatch, budget):
    """Without a budget the schedule runs over the rounds; a budget that ends the chain at a
    third of its rounds (the clock moves 0.1 s a reading) cools it over the budget (x near 1
    at its end; 1/3 if it cooled over its rounds), and at the first round of each tenth of
    the budget the chain moves from its best tree so far (the six convs' chain wanders off
    its best tree in between)."""
    model = CostModel(deep_network(6), load_target("set-8x8"))
    start = initial_tree(model)
    clock = FakeClock(0.1)
    monkeypatch.setattr(annealing.time, "monotonic", clock)
    seen: list[float] = []
    monkeypatch.setattr(annealing, "temperature", lambda x: seen.append(x) or temperature(x))
    moved_from, candidates, read = [], [], []

    def recorded(tree, rng, rules, attempts):
        drawn = moves.propose_legal(tree, rng, rules, attempts)
        moved_from.append(repr(tree))
        candidates.append(repr(drawn[-1][1]))
        read.append(clock.now)  # the round's reading (before any return)
        return drawn

    monkeypatch.setattr(annealing, "propose_legal", recorded)
    deadline = None if budget is None else clock.now + budget
    started = clock.now + clock.step
    result = anneal(model, start, rounds=900, seed=0, deadline=deadline)
    assert seen == sorted(seen)
    assert seen[-1] > 0.95  # the rounds stop as long before the deadline as a recombination took
    if budget is None:
        assert result.rounds == 900
        assert seen[-1] <= 1
        return
    assert 200 <= result.rounds <= 300  # the clock also moves in recombinations
    improved = [done for done, _ in result.curve[1:]]
    tenths = [int((now - started) / budget / 0.1) for now in read]
    returns = [r for r in range(1, len(read)) if tenths[r] > tenths[r - 1]]
    assert len(returns) == 9
    for r in returns:
        bests = [candidates[i - 1] for i in improved if i <= r] or [repr(start)]
        assert moved_from[r] == bests[-1]
    assert any(
        tree not in {*map(candidates.__getitem__, [r - 1 for r in improved]), repr(start)} for tree in moved_from
    )
