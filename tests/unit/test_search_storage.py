"""The cost model's buffer check counts what st-apply and st-lmem-alloc count: rows padded
to the target's alignment. On tianjicx a piece of a 3×3 conv over 512 channels with a few
output channels holds 32 B in each weight row; the model once counted the unpadded bytes,
accepted such a piece and the lowering refused it (ResNet-18). Such a conv's reduction is
now split before the search, so its pieces fit."""

from contextlib import chdir
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_layer_group import random_network
from test_task_split import parse

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.network import network_of
from stc.compiler.cost.tree import Node
from stc.compiler.ir_files import module_text
from stc.compiler.memory.storage_size import storage_bytes
from stc.compiler.search.lowering import Lowering
from stc.compiler.targets.hardware import load_target
from stc.compiler.tiling.fit import split_reductions
from stc.dialects import task
from stc.runtime.golden import find_graph
from stc.tools.search_machine import run_searched

WIDE_CONV = """
builtin.module {
  task.graph @wide {
    %0 = task.input 0 "x" : tensor<1x4x4x512xi8>
    %1 = task.buffer 1 sic %0 : tensor<1x4x4x512xi8>
    %2 = task.weight 2 #task.random<1> : tensor<8x3x3x512xi8>
    %3 = task.bias 3 #task.random<2> : tensor<8xi32>
    %4 = task.conv 4 %1, %2 bias %3 pad [1, 1, 1, 1] shift 12 : tensor<1x4x4x8xi8>
    %5 = task.buffer 5 si %4 : tensor<1x4x4x8xi8>
    %6 = task.relu 6 %5 : tensor<1x4x4x8xi8>
    %7 = task.buffer 7 so %6 : tensor<1x4x4x8xi8>
    task.output 8 "y" %7
  }
}
"""
"""Raw, a quarter of its weight is 9,216 B; padded to 32 output channels, 147,456 B."""


def test_a_conv_whose_padded_weights_overflow_splits_its_reduction_and_runs(small_tianjicx: str):
    module = parse(WIDE_CONV)
    assert split_reductions(find_graph(parse(WIDE_CONV)), load_target(small_tianjicx)) == [(4, (1, 1, 1, 1, 2))]
    with chdir(Path(small_tianjicx).parent):
        run = run_searched(module, small_tianjicx, rounds=20, chains=1)
    assert run.identical


def test_the_model_counts_a_piece_s_weight_as_st_apply_does(small_tianjicx: str):
    """Each layer its own segment: the most weight and bias bytes st-apply holds on a core
    in a phase is the most the model counts for a leaf on a core."""
    target = load_target(small_tianjicx)
    graph = find_graph(parse(WIDE_CONV))
    split_reductions(graph, target)
    model = CostModel(network_of(graph), target)
    tree = Node.cut("T", [Node.cut("T", [Node.leaf(layer)]) for layer in range(len(model.network.layers))])
    assert model.evaluate(tree).valid
    lowering = Lowering(graph, small_tianjicx, model)
    lowering.lower(tree)
    held: dict[tuple, int] = {}
    for op in lowering.graph.tasks():
        if isinstance(op, task.WeightOp | task.BiasOp):
            place = lowering.executor.matrix.places[op.task_id]
            key = (place.space, place.step, place.phase)
            held[key] = held.get(key, 0) + storage_bytes(op, target)
    places, segment_of = model.places(tree), model.segment_of(tree)
    leaves = [segment.children[0] for segment in tree.children]
    counted = [model.leaf(leaf.layer, places[id(leaf)], {}, segment_of)[1].wgt.max() for leaf in leaves]
    assert max(held.values()) == max(counted) == 32 * 3 * 3 * 256


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), seed=st.integers(0, 50))
def test_random_networks_searched_on_an_aligned_target_map_and_run(small_tianjicx: str, data, seed):
    """Every tree the model accepts lowers: the search's best tree maps, allocates and runs
    bit-identically on a target with alignment rules."""
    module = random_network(data.draw).finish()
    with chdir(Path(small_tianjicx).parent):
        run = run_searched(module, small_tianjicx, seed=seed, rounds=15, chains=1)
    assert run.identical, module_text(module)


def wide_fc(channels: int) -> str:
    """An fc of 4x4xC to 1,024 outputs: 16,384·C bytes of weights."""
    return f"""
builtin.module {{
  task.graph @wide {{
    %0 = task.input 0 "x" : tensor<1x4x4x{channels}xi8>
    %1 = task.buffer 1 sifc %0 : tensor<1x4x4x{channels}xi8>
    %2 = task.weight 2 #task.random<1> : tensor<1024x4x4x{channels}xi8>
    %3 = task.fc 3 %1, %2 shift 12 : tensor<1x1x1x1024xi8>
    %4 = task.buffer 4 so %3 : tensor<1x1x1x1024xi8>
    task.output 5 "y" %4
  }}
}}
"""


@pytest.mark.parametrize(
    ("channels", "splits"), [(2048, []), (4096, [(3, (1, 1, 1, 1, 2))]), (8192, [(3, (1, 1, 1, 1, 4))])]
)
def test_an_fc_whose_weights_fill_the_mesh_splits_its_reduction(channels: int, splits: list):
    """On set-8x8 (64 cores of 1 MB) an fc whose weights over all cores would take more than
    half of each (33,554,432 B: exactly half, no split; 67,108,864 B: 2 pieces; 134,217,728 B:
    4) splits its reduction into the fewest pieces that leave half of each core free."""
    assert split_reductions(find_graph(parse(wide_fc(channels))), load_target("set-8x8")) == splits
