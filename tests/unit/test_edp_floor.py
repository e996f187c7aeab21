"""The least EDP under the cost model (tools/edp_floor.py)."""

import attrs
import pytest
from test_cost_layer import TARGET, conv
from test_energy_parts import NETWORK

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.network import Network
from stc.compiler.cost.tree import Node
from stc.compiler.targets.cost_units import core_buffer_pj
from stc.tools.edp_floor import busiest_floor, floor_rows, least_core_pj
from stc.tools.energy_parts import leaf_works

TREES = (
    Node.cut("T", [Node.leaf(0), Node.leaf(1)], n=2),
    Node.cut("T", [Node.leaf(0), Node.leaf(1)]),
    Node.cut("T", [Node.cut("T", [Node.leaf(0)], n=2), Node.leaf(1)]),
)


def test_the_busiest_core_s_floor_counts_macs_and_vector_work():
    """At batch 2 on 64 cores: layer a (1×1, 8 → 8 on 4×4) 1,024 MACs an image, 1 cycle
    at 1,024 MACs a cycle, and its fused block streams 2 bytes per output, 256 B at 128 B a
    cycle, 2 cycles; layer b (3×3, 8 → 16) 18,432 MACs, 18 cycles, and 512 B, 4 cycles:
    (3 + 22) · 2 / 64 = 0.78125 cycles, where the MACs alone take (1 + 18) · 2 / 64."""
    model = CostModel(NETWORK, TARGET)
    assert busiest_floor(model) == 0.78125
    assert NETWORK.macs / (64 * 1024) == 0.59375


def test_a_layer_s_least_core_energy_is_at_most_any_tree_s():
    """Over every subbatch and partition of all the cores: no tree spends less on a conv's
    core buffers (each tree's leaves priced by the model)."""
    model = CostModel(NETWORK, TARGET)
    least = [least_core_pj(model, layer) for layer in (0, 1)]
    assert all(value > 0 for value in least)
    for tree in TREES:
        works = leaf_works(model, tree)
        for layer in (0, 1):
            assert least[layer] <= core_buffer_pj(TARGET, works[layer][1]) + 1e-9


def test_a_vector_layer_spends_nothing_in_the_core_buffers():
    """Only convs (and fcs) pass through the buffers inside a core."""
    pool = attrs.evolve(conv("p", 0), kind="vector", macs_per_image=0, weight_bytes=0)
    network = Network("n", 2, (*NETWORK.layers, pool))
    assert least_core_pj(CostModel(network, TARGET), 2) == 0.0


@pytest.mark.parametrize("tree", TREES)
def test_the_floors_are_below_the_tree_s_edp(tree):
    """Each floor leaves out what the tree spends above it (NoC, sends, halos, DRAM round
    trips, idle cores), so none exceeds the tree's EDP; the least partitions' floor is at
    most the tree's partitions', and the busiest cores' latency above the compute bound."""
    model = CostModel(NETWORK, TARGET)
    estimate = model.evaluate(tree)
    reference = estimate.energy * estimate.latency
    lines = floor_rows(model, tree, reference)
    assert lines[2].endswith("the tree 1.0000")
    tree_parts, least_parts = (
        [float(value.split(" at ")[0]) for value in line.split(": ")[1].split(", ")] for line in lines[3:5]
    )
    assert least_parts[0] <= tree_parts[0] < tree_parts[1] <= 1.0
    assert least_parts[0] < least_parts[1] <= tree_parts[1]
