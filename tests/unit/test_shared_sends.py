"""One send per box for every consumer layer that takes it (compiler/cost/shared_sends.py),
worked out by hand and against the machine."""

from test_cost_layer import CONTEXT, conv

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.inputs import Placed
from stc.compiler.cost.network import NETWORK_INPUT, network_of
from stc.compiler.cost.partition import Partition
from stc.compiler.cost.shared_sends import merged
from stc.compiler.cost.tree import Node
from stc.compiler.targets.hardware import load_target
from stc.compiler.zoo import build_network
from stc.runtime.golden import find_graph
from stc.tools.search_machine import run_tree

ONE = Partition(1, 1, 1, 1)
A, B, C = conv("a", NETWORK_INPUT, filters=8), conv("b", 0), conv("c", 0)


def test_two_layers_that_take_a_box_on_other_cores_get_one_send():
    """a's whole result (one image, 4×4×8 = 128 B) on core 0 goes to b on core 1 and c on
    core 2, both on row 0. Priced per layer: a route of 1 link and one of 2, 384 hop-bytes,
    the box read twice, two sends of ⌈128 / 24⌉ = 6 cycles. The machine sends it once along
    row 0 to both: 2 links, 256 hop-bytes. So 128 hop-bytes, 128 bytes read and 6 cycles
    of core 0 less."""
    mesh = CONTEXT.mesh
    hops, read, cycles = merged(mesh, 24.0, 0, Placed(A, 0, ONE, 1), ((B, 1, ONE, 1), (C, 2, ONE, 1)))
    assert (hops, read, cycles.tolist()) == (128.0, 128.0, [6.0])


def test_a_core_that_takes_a_box_twice_gets_a_second_send():
    """b and c both on core 1: the machine's sends to a core hold one copy each, so the
    box goes twice, as the model prices it: nothing to take off."""
    hops, read, cycles = merged(CONTEXT.mesh, 24.0, 0, Placed(A, 0, ONE, 1), ((B, 1, ONE, 1), (C, 1, ONE, 1)))
    assert (hops, read, cycles.tolist()) == (0.0, 0.0, [0.0])


def test_the_model_prices_the_machine_s_sends_to_two_layers():
    """tiny b2 on set-8x8 in one segment of one subbatch: conv4's result goes to conv10 and
    conv16, which take the same boxes. The machine's hop-bytes and local bytes read are the
    estimate's exactly, bit-identically (160,464 and 200,412; 216,796 before the convs
    applied their relus on the way out of the array; priced per layer the model said 163,536
    and 219,100 then)."""
    module = build_network("tiny", batch=2)
    network = network_of(find_graph(module))
    tree = Node.cut("T", [Node.cut("T", [Node.leaf(i) for i in range(len(network.layers))])])
    estimate = CostModel(network, load_target("set-8x8")).evaluate(tree)
    assert estimate.cost is not None
    run = run_tree(module, "set-8x8", tree)
    assert run.identical
    assert run.counters["noc_hop_bytes"] == run.estimate["noc_hop_bytes"] == 160_464
    assert run.counters["local_read_bytes"] == estimate.cost.total_work.local_read_bytes == 200_412
