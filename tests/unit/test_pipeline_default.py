"""stc-pipeline's default path per target (passes/stc_pipeline.py): st-search with its own
budget where the search is the default (set-8x8), st-place elsewhere and under
`search=false`, st-search's defaults under `search=true`."""

from xdsl.context import Context

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.network import network_of
from stc.compiler.heap import apply_in_turn
from stc.compiler.ir_files import module_text
from stc.compiler.search.annealing import anneal, initial_tree
from stc.compiler.search.chains import search
from stc.compiler.targets.hardware import load_target
from stc.compiler.tiling.fit import split_reductions
from stc.compiler.zoo import build_network
from stc.passes.isa_lower import IsaLowerPass
from stc.passes.st_place import StPlacePass
from stc.passes.st_search import StSearchPass
from stc.passes.stc_pipeline import DEFAULT_ROUNDS, SEARCHED_BY_DEFAULT, StcPipelinePass
from stc.runtime.golden import find_graph, random_inputs, run_module
from stc.runtime.machine import run_isa_module


def test_set_8x8_searches_by_default_with_one_short_chain():
    assert SEARCHED_BY_DEFAULT == {"set-8x8"}
    first = StcPipelinePass(target="set-8x8").passes()[0]
    assert first == StSearchPass(target="set-8x8", rounds=DEFAULT_ROUNDS, chains=1, every=1.0, polish=False)
    assert StcPipelinePass(target="set-8x8", rounds=7, seed=3).passes()[0] == StSearchPass(
        target="set-8x8", seed=3, rounds=7, chains=1, every=1.0, polish=False
    )


def test_search_true_takes_st_search_s_defaults_and_false_takes_st_place():
    assert StcPipelinePass(target="set-8x8", search=True).passes()[0] == StSearchPass(target="set-8x8")
    for pipeline in (StcPipelinePass(target="set-8x8", search=False), StcPipelinePass(target="tianjicx")):
        assert any(isinstance(stage, StPlacePass) for stage in pipeline.passes())
    assert isinstance(StcPipelinePass(target="tianjicx", search=True).passes()[0], StSearchPass)


def test_a_chain_that_returns_only_at_the_end_is_annealing_with_every_1():
    """`every` reaches the chain: one chain of `search(every=1.0)` is `anneal(every=1.0)`,
    which on LeNet at 10 rounds ends elsewhere than a chain returning after each round."""
    graph = find_graph(build_network("lenet"))
    target = load_target("set-8x8").with_relay(True)
    split_reductions(graph, target)
    network = network_of(graph)
    result = search(network, target, rounds=10, chains=1, every=1.0, show_progress=False)
    model = CostModel(network, target)
    alone = anneal(model, initial_tree(model), 10, 0, every=1.0)
    assert result.tree.notation(network, 1) == alone.tree.notation(network, 1)
    assert (result.cost, result.chains[0].curve) == (alone.cost, alone.curve)
    assert anneal(model, initial_tree(model), 10, 0).cost != alone.cost


def test_the_default_on_set_8x8_runs_bit_exactly_and_isa_lower_s_check_changes_nothing():
    """The searched default's program computes the network bit-exactly, and is the program
    the same passes make with isa-lower checking the mapping again."""
    module = build_network("lenet")
    inputs = random_inputs(find_graph(module), 0)
    expected = run_module(module, inputs)
    checked = module.clone()
    pipeline = StcPipelinePass(target="set-8x8")
    apply_in_turn(pipeline.passes(), Context(), module)
    apply_in_turn([*pipeline.passes()[:-1], IsaLowerPass()], Context(), checked)
    assert module_text(module) == module_text(checked)
    outputs, counters = run_isa_module(module, inputs)
    for name, array in expected.items():
        assert (outputs[name] == array).all()
    assert counters["macs"] > 0
