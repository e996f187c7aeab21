"""The buffers inside a core (`cost_units.core_buffer_work`, set-8x8's Polar core): accesses
of hand-computed layers, and the model counting what the machine counts."""

from __future__ import annotations

import pytest

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.network import network_of
from stc.compiler.cost.tree import Node
from stc.compiler.targets.cost_units import CORE_BUFFER_ACCESSES, Work, core_buffer_pj, core_buffer_work
from stc.compiler.targets.hardware import load_target
from stc.compiler.zoo import build_network
from stc.runtime.golden import find_graph
from stc.tools.search_machine import run_tree

TARGET = load_target("set-8x8")
BUFFERS = TARGET.core_buffers


def test_a_3x3_conv_of_256_channels():
    """14×14 positions of 32 of a 3×3×256 → 256 conv's filters, from a 16×16×256 box.
    Weight vectors per lane and filter: 9 taps × 256 / 8 = 288; 4 lane groups of 8 filters;
    the weight buffer (512 vectors per lane) holds one group, so the input is written into
    AL1 four times. MACs: 196 × 32 × 9 × 256 = 14,450,688."""
    work = core_buffer_work(BUFFERS, positions=196, filters=32, taps=9, channels=256, inputs=16 * 16 * 256)
    updates = 196 * 288 * 4 * 8  # one partial sum per lane and weight vector: MACs / 8
    assert updates == 14_450_688 // 8
    assert work == (
        196 * 288 * 4 * 8,  # AL1 reads: an 8-element vector per position, vector and lane group
        4 * 16 * 16 * 256,  # AL1 writes: the input once per lane group
        288 * 8 * 32,  # WL1 reads: the weights once, 196 positions in one tile of 256
        9 * 256 * 32,  # WL1 writes: the weights once
        updates + 196 * 32,  # OL1 reads: each update, and each output drained
        updates,
        196 * 32,  # OL2: each output written and read once
        196 * 32,
    )
    macs = 14_450_688
    pj = core_buffer_pj(TARGET, Work(0, 0, 0, 0, 0, 0, *work)) / macs
    # An AL1 read per 8 lanes, an OL1 read and write per 8-wide vector: 0.1997 pJ per MAC;
    # the rest per input element, weight and output.
    fixed = (0.3885 + 0.6416 + 0.5672) / 8
    rest = (0.3293 * 4 * 16 * 16 * 256 + (0.3053 + 0.2471) * 73_728 + (0.6416 + 0.61185 + 0.7919) * 6272) / macs
    assert pj == pytest.approx(fixed + rest)
    assert round(pj, 4) == 0.2093


def test_three_input_channels_fill_one_vector_of_eight():
    """DarkNet-19's first conv on one core: 3 channels take a whole 8-wide vector, so a MAC
    costs 8/3 of the AL1 and OL1 accesses of a full one; 300 positions make two tiles."""
    al1_reads, al1_writes, wl1_reads, wl1_writes, ol1_reads, ol1_writes, ol2_reads, ol2_writes = core_buffer_work(
        BUFFERS, positions=300, filters=32, taps=9, channels=3, inputs=1000
    )
    macs = 300 * 32 * 9 * 3
    assert al1_reads == ol1_writes == macs * 8 // 3 // 8
    assert al1_writes == 1000
    assert wl1_reads == 2 * 9 * 8 * 32
    assert wl1_writes == 9 * 3 * 32
    assert ol1_reads == ol1_writes + 300 * 32
    assert ol2_reads == ol2_writes == 300 * 32


def test_filters_round_up_to_lanes_and_weights_that_do_not_fit_stream():
    """5 filters take one group of 8 lanes; 3×3×1024 is 1,152 vectors per lane, more than the
    weight buffer's 512: each lane group is a chunk of its own."""
    work = core_buffer_work(BUFFERS, positions=10, filters=20, taps=9, channels=1024, inputs=7)
    assert work[0] == 10 * 1152 * 3 * 8
    assert work[1] == 7 * 3
    assert core_buffer_work(BUFFERS, positions=10, filters=5, taps=1, channels=8, inputs=7)[5] == 10 * 8


def test_no_core_buffers_no_accesses():
    assert core_buffer_work(load_target("tianjicx").core_buffers, 10, 20, 9, 64, 100) == (0,) * 8


def test_the_model_counts_the_machine_s_accesses():
    """LeNet b2 under one T-cut over its layers, one image per subbatch: the model's
    accesses are the machine's, buffer by buffer."""
    module = build_network("lenet", batch=2)
    network = network_of(find_graph(module))
    tree = Node.cut("T", [Node.leaf(i) for i in range(len(network.layers))], n=2)
    estimate = CostModel(network, TARGET).evaluate(tree)
    assert estimate.cost is not None
    work = estimate.cost.total_work
    run = run_tree(module, "set-8x8", tree)
    assert run.identical
    assert run.counters["core_buffers"] == {name: getattr(work, name) for name in CORE_BUFFER_ACCESSES}
    assert run.counters["energy_pj"]["core_buffers"] == pytest.approx(core_buffer_pj(TARGET, work))
    assert work.al1_reads > work.macs / 8  # LeNet's 1- and 6-channel convs fill few vector elements
