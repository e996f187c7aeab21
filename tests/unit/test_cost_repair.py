"""The repair of a segment that overflows a core's buffer (`compiler/cost/repair.py`): by
hand on two layers, and on ResNet-50 v1 b64's segment that heaviest-first gave up."""

from types import SimpleNamespace

import attrs
import numpy as np
import pytest

from stc.compiler.cost import evaluate
from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.leaf_pricing import Place
from stc.compiler.cost.network import network_of
from stc.compiler.cost.node_cost import NodeCost
from stc.compiler.cost.partition import Partition
from stc.compiler.cost.repair import heaviest_first, repaired, steepest
from stc.compiler.cost.tree import Node
from stc.compiler.targets.cost_units import Work
from stc.compiler.targets.hardware import load_target
from stc.compiler.zoo import build_network
from stc.runtime.golden import find_graph

TARGET = load_target("set-8x8")  # 1,048,576 usable bytes a core
ROOMIER = attrs.evolve(TARGET, local_memory=attrs.evolve(TARGET.local_memory, capacity_bytes=1_100_000))
NETWORK = [SimpleNamespace(out_channels=2), SimpleNamespace(out_channels=2)]


def node(buf: float, wgt: float) -> NodeCost:
    zeros = np.zeros(2)
    return NodeCost(Work(), Work(), zeros, zeros, 0.0, zeros, np.array([wgt, 0.0]), np.array([buf, 0.0]))


def two_layers(spreads: dict[int, int]):
    """Layer A (0) holds 600,000 B of weights on core 0 and layer B (1) 300,000, beside
    200,000 B of buffers; splitting A's weights two ways on its 2 cores halves them but
    doubles its images per piece (+400,000 B of buffers); splitting B's halves its own."""
    a, b = spreads[0], spreads[1]
    leaves = {0: node(200_000 + 400_000 * (a > 1), 600_000 / a), 1: node(0.0, 300_000 / b)}
    total = node(sum(leaf.buf[0] for leaf in leaves.values()), sum(leaf.wgt[0] for leaf in leaves.values()))
    located = {layer: (Place(0, 2, 4), Partition(2 // s, s, 1, 1)) for layer, s in spreads.items()}
    return total, located, leaves


def test_steepest_spreads_the_layer_that_lowers_the_peak_most():
    """By hand: the peak is 1,100,000 B. Heaviest first spreads A (1,200,000), then B
    (1,050,000 > 1,048,576) and can split no more; the steepest repair spreads B alone
    (950,000: fits) rather than A (1,200,000)."""
    start = two_layers({0: 1, 1: 1})
    assert start[0].buffer_peak() == 1_100_000
    cost, _ = heaviest_first(two_layers, [0, 1], start, NETWORK, TARGET)  # pyright: ignore[reportArgumentType]
    assert cost is not None
    assert cost.buffer_peak() == 1_050_000
    cost, located = repaired(two_layers, exact_floor, [0, 1], NETWORK, TARGET)  # pyright: ignore[reportArgumentType]
    assert cost is not None
    assert cost.buffer_peak() == 950_000
    assert cost.fits(TARGET)
    assert {layer: part.pk for layer, (_, part) in located.items()} == {0: 1, 1: 2}


def exact_floor(spreads: dict[int, int]) -> int:
    return two_layers(spreads)[0].buffer_peak()


PEAKS = {(1, 1, 1): 1_100_000, (2, 1, 1): 1_000_000, (1, 2, 1): 1_040_000, (1, 1, 2): 1_060_000}
"""Three layers' segment peak by their spreads: spreading layer 0 lowers it most."""


def three_layers(spreads: dict[int, int]):
    leaves = {layer: node(0.0, 100_000 / spreads[layer]) for layer in range(3)}
    located = {layer: (Place(0, 2, 4), Partition(2 // s, s, 1, 1)) for layer, s in spreads.items()}
    return node(PEAKS[spreads[0], spreads[1], spreads[2]], 0.0), located, leaves


@pytest.mark.parametrize(
    ("floor", "priced"),
    [
        (lambda spreads: three_layers(spreads)[0].buffer_peak(), [(2, 1, 1)]),
        (lambda spreads: 0, [(2, 1, 1), (1, 2, 1), (1, 1, 2)]),
        (lambda spreads: 1_030_000 * (spreads[2] == 1), [(1, 1, 2), (2, 1, 1)]),
    ],
)
def test_steepest_prices_a_trial_only_while_its_floor_could_beat_the_best(floor, priced):
    """Trials in order of their floors; one whose floor is above the best peak priced so
    far is not priced, and the choice is the same: layer 0."""
    seen = []

    def price(spreads):
        seen.append((spreads[0], spreads[1], spreads[2]))
        return three_layers(spreads)

    layers = [0, 1, 2]
    network = [SimpleNamespace(out_channels=2)] * 3
    start = three_layers(dict.fromkeys(layers, 1))
    cost, located = steepest(price, floor, layers, start, network, TARGET)  # pyright: ignore[reportArgumentType]
    assert cost is not None
    assert cost.buffer_peak() == 1_000_000
    assert {layer: part.pk for layer, (_, part) in located.items()} == {0: 2, 1: 1, 2: 1}
    assert seen == priced


def test_resnet50_s_last_segment_is_repaired_under_the_rows():
    """ResNet-50 v1 b64's conv334 … avgpool362 under `T 64/2` on 64 cores (segment 5 of
    the seed-0 tree of stop 27, docs/passes/st-search.md): each layer on its cheapest
    partition needs about 1.32 MB on a core (under the rows conv349 and conv355 split 8 ways
    by output channels). Heaviest first spread conv349, then conv343 (its buffers then grow
    more than its weights shrink) and gave the segment up: the tree was invalid. The
    steepest repair spreads conv349 and conv334 to 16 ways. Since the residuals' inputs
    held beside the layers between count in a subbatched segment, that needs 1,056,640 B,
    more than set-8x8's 1 MiB: on cores of 1,100,000 B it fits (1,094,272 B)."""
    network = network_of(find_graph(build_network("resnet50-v1", batch=64)))
    first = next(i for i, layer in enumerate(network.layers) if layer.name == "conv334")
    tree = Node.cut("T", [Node.leaf(i) for i in range(first, first + 7)], n=2)
    assert CostModel(network, TARGET).evaluate(tree).reason == "segment 0 needs 1056640 B on a core > 1048576 B"
    model = CostModel(network, ROOMIER)
    estimate = model.evaluate(tree)
    assert estimate.valid, estimate.reason
    assert estimate.cost is not None
    assert estimate.cost.buffer_peak() == 1_094_272
    parts = {network.layers[layer].name: (part.pb, part.pk) for layer, (_, part) in model.layout(tree).items()}
    assert parts["conv349"] == parts["conv334"] == (4, 16)


def test_a_segments_floor_is_never_above_its_peak(monkeypatch):
    """The floor steepest prunes its trials by (`CostModel.priced_segment`'s) on the
    ResNet-50 segment above on its 1,100,000 B cores, whose repair is steepest's: at most
    the peak each trial is priced at (here equal to it), no floor where the trial has no
    cost."""
    network = network_of(find_graph(build_network("resnet50-v1", batch=64)))
    first = next(i for i, layer in enumerate(network.layers) if layer.name == "conv334")
    tree = Node.cut("T", [Node.leaf(i) for i in range(first, first + 7)], n=2)
    pairs = []

    def checking(price, floor, layers, layer_list, target):
        def checked(spreads):
            cost = price(spreads)[0]
            pairs.append((floor(spreads), None if cost is None else cost.buffer_peak()))
            return pairs[-1][0]

        return repaired(price, checked, layers, layer_list, target)

    monkeypatch.setattr(evaluate, "repaired", checking)
    assert CostModel(network, ROOMIER).evaluate(tree).valid
    assert pairs
    assert all((least is None) == (peak is None) for least, peak in pairs)
    assert all(least <= peak for least, peak in pairs if least is not None and peak is not None)
    assert any(least == peak for least, peak in pairs)
