"""The buffers inside a core (`core_dataflow`, set-8x8's Polar core): accesses of
hand-computed layers per dataflow, the compiler's choice among them, and the model counting
what the machine counts."""

from __future__ import annotations

import numpy as np
import pytest

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.network import network_of
from stc.compiler.cost.tree import Node
from stc.compiler.search.annealing import anneal, initial_tree
from stc.compiler.targets.core_dataflow import (
    Dataflow,
    buffer_pj,
    cheapest,
    cheapest_work,
    chosen,
    core_buffer_work,
    dataflow_problem,
)
from stc.compiler.targets.cost_units import CORE_BUFFER_ACCESSES, Work, core_buffer_pj
from stc.compiler.targets.hardware import load_target
from stc.compiler.zoo import build_network
from stc.dialects import isa
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


def test_packed_taps_fill_the_vectors():
    """DarkNet-19's first conv on one core, its 3×3 taps of 3 channels packed into the
    vectors (im2col): 27 elements in 4 vectors of 8, not 9 vectors of 3; the activation buffer
    is written the P × 27 im2col rows; 128 groups of 4 vectors fit, one chunk."""
    flow = Dataflow(packed=True, split=1, groups=4, tile=256)
    work = core_buffer_work(BUFFERS, positions=300, filters=32, taps=9, channels=3, inputs=1000, flow=flow)
    assert work == (
        300 * 4 * 4 * 8,  # AL1 reads: 4 vectors per position and lane group
        300 * 27,  # AL1 writes: the im2col rows once
        2 * 4 * 8 * 4 * 8,  # WL1 reads: the padded weights once per tile of 256 positions
        9 * 3 * 32,
        300 * 4 * 4 * 8 + 300 * 32,
        300 * 4 * 4 * 8,
        300 * 32,
        300 * 32,
    )
    macs = 300 * 32 * 27
    unpacked = core_buffer_work(BUFFERS, positions=300, filters=32, taps=9, channels=3, inputs=1000)
    outputs_pj = 9600 * (0.61185 + 0.7919)
    by_hand = 38_400 * 0.3885 + 8100 * 0.3293 + 2048 * 0.3053 + 864 * 0.2471 + 48_000 * 0.6416 + 38_400 * 0.5672
    assert buffer_pj(BUFFERS, work) == pytest.approx(by_hand + outputs_pj)
    assert round(buffer_pj(BUFFERS, work) / macs, 4) == 0.3259  # SET's dataflow: 0.6157
    assert round(buffer_pj(BUFFERS, unpacked) / macs, 4) == 0.6157


def test_channels_split_over_pes():
    """The 3×3 conv of 256 channels above, each lane group's channels split over 4 PEs: 72
    vectors per lane and PE, so 7 groups fit and the input is written once, not 4 times; each
    output's 4 partial sums are read: 0.2093 → 0.2057 pJ per MAC."""
    flow = Dataflow(packed=False, split=4, groups=4, tile=256)
    work = core_buffer_work(BUFFERS, positions=196, filters=32, taps=9, channels=256, inputs=16 * 16 * 256, flow=flow)
    updates = 196 * 288 * 4 * 8
    assert work == (updates, 16 * 16 * 256, 288 * 8 * 32, 9 * 256 * 32, updates + 4 * 196 * 32, updates, 6272, 6272)
    assert round(buffer_pj(BUFFERS, work) / 14_450_688, 4) == 0.2057


def test_the_compiler_chooses_the_cheapest_dataflow():
    """Packed for few channels, split where the weights of all groups do not fit one PE's
    lanes, SET's (no clause) where neither saves: a 1×1 conv of 64 channels fits whole."""
    assert cheapest(BUFFERS, 300, 32, 9, 3, 1000) == Dataflow(True, 1, 4, 256)
    assert chosen(BUFFERS, 196, 32, 9, 256, 16 * 16 * 256) == Dataflow(False, 4, 4, 256)
    assert chosen(BUFFERS, 196, 64, 1, 64, 196 * 64) is None
    positions, filters, inputs = np.array([300, 196, 196]), np.array([32, 32, 64]), np.array([1000, 65536, 12544])
    per_core = cheapest_work(BUFFERS, positions, filters, 9, 256, inputs)
    for core in range(3):
        args = (int(positions[core]), int(filters[core]), 9, 256, int(inputs[core]))
        assert tuple(count[core] for count in per_core) == core_buffer_work(BUFFERS, *args, cheapest(BUFFERS, *args))


def test_a_dataflow_that_does_not_fit_the_buffers():
    assert dataflow_problem(BUFFERS, Dataflow(False, 1, 2, 256), 9, 256) == (
        "2 lane groups of 288 weight vectors do not fit a weight buffer of 512 vectors (at most 1)"
    )
    assert dataflow_problem(BUFFERS, Dataflow(False, 4, 7, 256), 9, 256) is None
    assert dataflow_problem(BUFFERS, Dataflow(True, 1, 1, 257), 9, 3) == (
        "a tile of 257 positions does not fit a partial-sum buffer of 256"
    )


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


def test_a_searched_schedule_runs_its_chosen_dataflows_as_priced():
    """tiny b2 (a first conv of 3 channels), a short search: the machine counts each core
    buffer access the model priced along the chosen dataflows, bit-identically."""
    module = build_network("tiny", batch=2)
    network = network_of(find_graph(module))
    model = CostModel(network, TARGET)
    tree = anneal(model, initial_tree(model), rounds=20, seed=0).tree
    work = model.evaluate(tree).cost.total_work
    run = run_tree(module, "set-8x8", tree)
    assert run.identical
    assert run.counters["core_buffers"] == {name: getattr(work, name) for name in CORE_BUFFER_ACCESSES}
    flows = [op.chosen_dataflow() for op in module.walk() if isinstance(op, isa.ConvOp)]
    assert any(flow is not None and flow.packed for flow in flows)
