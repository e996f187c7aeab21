"""Tests for the many-core machine: counters priced by hand, results against the golden
executor, and run-time errors."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import IntegerType, ModuleOp, StringAttr, TensorType, i8

from stc.compiler import targets
from stc.compiler.diagnostics import StcError
from stc.compiler.references import references_within
from stc.compiler.targets.cost_units import Work, energy_pj
from stc.compiler.targets.hardware import load_target
from stc.dialects import isa
from stc.dialects.isa import GlobalLayout, TileAttr
from stc.dialects.task import RandomDataAttr
from stc.runtime.data import DataStore, random_tensor
from stc.runtime.machine import Machine, find_program, random_inputs, run_isa_module
from stc.tools import isa_examples


def tile(address: int, shape: tuple[int, ...], element: IntegerType = i8) -> TileAttr:
    return TileAttr(address, TensorType(element, shape))


def module(*ops, target: str = "tianjicx") -> ModuleOp:
    return ModuleOp([isa.ProgramOp("p", target, list(ops))])


def network_input(shape=(1, 16, 4, 4), address=0, layout=GlobalLayout.NHWC, name="x") -> isa.InputOp:
    return isa.InputOp(name, TensorType(i8, shape), address, layout)


def network_output(shape=(1, 16, 4, 4), address=256, layout=GlobalLayout.NHWC, name="y") -> isa.OutputOp:
    return isa.OutputOp(name, TensorType(i8, shape), address, layout)


def relu_program() -> ModuleOp:
    """Load 256 bytes, relu them, store them: 16 + 16 + 16 cycles on tianjicx."""
    return module(
        network_input(),
        network_output(),
        isa.CoreOp(
            (0, 0),
            [
                isa.DmaLoadOp([256], 0, 0),
                isa.ReluOp([tile(0, (1, 4, 4, 16))], tile(256, (1, 4, 4, 16))),
                isa.DmaStoreOp([256], 256, 256),
                isa.SyncOp(0),
            ],
        ),
    )


def test_relu_program_computes_and_is_priced_by_hand() -> None:
    x = np.arange(-128, 128, dtype=np.int8).reshape(1, 16, 4, 4)
    outputs, counters = run_isa_module(relu_program(), {"x": x})
    assert np.array_equal(outputs["y"], np.maximum(x, 0))
    assert counters["cycles"] == 48
    assert counters["phase_cycles"] == [48]
    assert counters["core_cycles"] == {"0,0": 48}
    assert (counters["local_read_bytes"], counters["local_write_bytes"]) == (512, 512)
    assert (counters["dram_read_bytes"], counters["dram_write_bytes"]) == (256, 256)
    assert counters["energy_pj"]["local_memory"] == pytest.approx(512 * 1.054 + 512 * 1.872)
    assert counters["energy_pj"]["dram"] == pytest.approx(512 * 60.0)
    assert counters["time_us"] == pytest.approx(48 / 300.0)


def test_transfer_timing_hops_and_energy() -> None:
    """100 bytes over 3 hops on tianjicx: the sender is busy ⌈100 / 8⌉ = 13 cycles, the
    receiver gets the data 13 + 3 × 1 = 16 cycles into the phase."""
    program = module(
        isa.CoreOp((0, 0), [isa.SendOp(100, 0, (1, 2), 5), isa.SyncOp(0)]),
        isa.CoreOp((1, 2), [isa.RecvOp(100, 32, (0, 0), 5), isa.SyncOp(0)]),
    )
    _, counters = run_isa_module(program)
    assert counters["phase_cycles"] == [16]
    assert counters["core_cycles"] == {"0,0": 13, "1,2": 0}
    assert (counters["noc_bytes"], counters["noc_hop_bytes"], counters["noc_max_link_bytes"]) == (
        100,
        300,
        100,
    )
    assert counters["energy_pj"]["noc"] == pytest.approx(300 * 5.6)


def broadcast(destinations: list[tuple[int, int]], multicast: bool) -> ModuleOp:
    """Core (0, 0) sends 256 bytes of the input to every destination: one multicast send,
    or one send per destination; each destination stores them to its own output."""
    sends = (
        [isa.SendOp(256, 0, destinations, 0)]
        if multicast
        else [isa.SendOp(256, 0, destination, i) for i, destination in enumerate(destinations)]
    )
    outputs = [network_output(address=256 * (i + 1), name=f"y{i}") for i in range(len(destinations))]
    receivers = [
        isa.CoreOp(
            destination,
            [isa.RecvOp(256, 0, (0, 0), 0 if multicast else i), isa.DmaStoreOp([256], 256 * (i + 1), 0), isa.SyncOp(0)],
        )
        for i, destination in enumerate(destinations)
    ]
    return module(
        network_input(), *outputs, isa.CoreOp((0, 0), [isa.DmaLoadOp([256], 0, 0), *sends, isa.SyncOp(0)]), *receivers
    )


@settings(max_examples=12, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=6))
def test_a_multicast_send_delivers_what_unicasts_do_over_its_tree_once(cores: set[tuple[int, int]]) -> None:
    """Every destination gets the bytes; the hop-bytes are the tree's links (the union of
    the XY routes) once, the sender injects once, and each destination's data arrives
    after its own route's hops."""
    destinations = sorted(cores - {(0, 0)}) or [(0, 1)]
    x = random_inputs(isa.ProgramOp("q", "tianjicx", [network_input()]), 3)
    multicast, multicast_counters = run_isa_module(broadcast(destinations, True), x)
    unicast, unicast_counters = run_isa_module(broadcast(destinations, False), x)
    assert all(np.array_equal(multicast[name], x["x"]) for name in unicast)
    target = load_target("tianjicx")
    tree = {link for d in destinations for link in target.xy_route((0, 0), d)}
    routes = sum(len(target.xy_route((0, 0), d)) for d in destinations)
    port_hops = sum(256 * target.hops(d, target.dram_port(d)) for d in destinations)
    assert multicast_counters["noc_hop_bytes"] == 256 * len(tree) + port_hops
    assert unicast_counters["noc_hop_bytes"] == 256 * routes + port_hops
    assert multicast_counters["noc_bytes"] == 256
    assert multicast_counters["core_cycles"]["0,0"] == 16 + 32
    farthest = max(target.hops((0, 0), d) for d in destinations)
    shared_dram = 256 * (1 + len(destinations)) // 16  # the phase's DRAM bytes at 16 B/cycle
    assert multicast_counters["cycles"] == max(16 + 32 + farthest + 16, shared_dram)


@settings(max_examples=12, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=6))
def test_a_multicast_load_reads_dram_once_and_reaches_every_destination(cores: set[tuple[int, int]]) -> None:
    """Core (0, 0) loads 256 input bytes with `isa.dma_multicast` to the others, which store
    them each to an output: every output is the input; the DRAM is read once (256 bytes,
    not one load per core), the bytes cross each link of the XY tree from (0, 0)'s port
    once, and each destination takes them when the load ends plus its hops from the port."""
    destinations = sorted(cores - {(0, 0)}) or [(0, 1)]
    receivers = [
        isa.CoreOp(d, [isa.RecvOp(256, 0, (0, 0), 0), isa.DmaStoreOp([256], 256 * (i + 1), 0), isa.SyncOp(0)])
        for i, d in enumerate(destinations)
    ]
    outputs = [network_output(address=256 * (i + 1), name=f"y{i}") for i in range(len(destinations))]
    loader = isa.CoreOp((0, 0), [isa.DmaMulticastOp([256], 0, 0, destinations, 0), isa.SyncOp(0)])
    x = random_inputs(isa.ProgramOp("q", "tianjicx", [network_input()]), 3)
    result, counters = run_isa_module(module(network_input(), *outputs, loader, *receivers), x)
    assert all(np.array_equal(result[name], x["x"]) for name in result)
    target = load_target("tianjicx")
    port = target.dram_port((0, 0))
    tree = {link for d in [(0, 0), *destinations] for link in target.xy_route(port, d)}
    stores = sum(256 * target.hops(d, target.dram_port(d)) for d in destinations)
    assert counters["dram_read_bytes"] == 256
    assert counters["noc_hop_bytes"] == 256 * len(tree) + stores
    farthest = max(target.hops(port, d) for d in destinations)
    shared_dram = 256 * (1 + len(destinations)) // 16  # the phase's DRAM bytes at 16 B/cycle
    assert counters["cycles"] == max(16 + farthest + 16, shared_dram)


def test_receive_waits_for_data_sent_later_in_the_phase() -> None:
    """Core (0, 1) is listed first and receives first; the machine runs core (0, 0) up
    to its send before the receive completes, and copies the sender's bytes."""
    program = module(
        network_input(),
        network_output(),
        isa.CoreOp(
            (0, 1),
            [isa.RecvOp(256, 0, (0, 0), 0), isa.DmaStoreOp([256], 256, 0), isa.SyncOp(0)],
        ),
        isa.CoreOp((0, 0), [isa.DmaLoadOp([256], 0, 512), isa.SendOp(256, 512, (0, 1), 0), isa.SyncOp(0)]),
    )
    x = random_inputs(isa.ProgramOp("q", "tianjicx", [network_input()]), 5)["x"]
    outputs, counters = run_isa_module(program, {"x": x})
    assert np.array_equal(outputs["y"], x)
    # load 16, send 32 cycles + 1 hop; then the store's 16 cycles on the receiver.
    assert counters["phase_cycles"] == [16 + 32 + 1 + 16]


def test_the_trace_and_the_busy_cycles_of_each_core_and_phase() -> None:
    """Phase 0: core (0, 0) loads (16 cycles) and sends 256 bytes one hop (32 cycles);
    core (0, 1) receives at 16 + 32 + 1 and stores (16). Phase 1: core (0, 1) stores again."""
    program = module(
        network_input(),
        network_output(),
        isa.CoreOp((0, 0), [isa.DmaLoadOp([256], 0, 512), isa.SendOp(256, 512, (0, 1), 0), isa.SyncOp(0)]),
        isa.CoreOp(
            (0, 1),
            [isa.RecvOp(256, 0, (0, 0), 0), isa.DmaStoreOp([256], 256, 0), isa.SyncOp(0)]
            + [isa.DmaStoreOp([256], 256, 0), isa.SyncOp(1)],
        ),
    )
    machine = Machine(find_program(program), DataStore(None), trace=True)
    machine.run(random_inputs(find_program(program), 0))
    assert machine.core_phase_cycles == {(0, 0): [48, 0], (0, 1): [16, 16]}
    assert machine.link_bytes == {((0, 0), (0, 1)): 256}
    assert machine.trace is not None
    timeline = [(e.coord, e.phase, e.op.name, e.start, e.cycles) for e in machine.trace]
    assert timeline == [
        ((0, 0), 0, "isa.dma_load", 0, 16),
        ((0, 0), 0, "isa.send", 16, 32),
        ((0, 1), 0, "isa.recv", 49, 0),
        ((0, 1), 0, "isa.dma_store", 49, 16),
        ((0, 1), 1, "isa.dma_store", 0, 16),
    ]
    assert Machine(find_program(program), DataStore(None)).trace is None


def test_conv_cycles_come_from_macs() -> None:
    program = module(
        isa.CoreOp(
            (0, 0),
            [
                isa.ConvOp(
                    [tile(0, (1, 4, 4, 16)), tile(256, (8, 3, 3, 16))],
                    tile(1536, (1, 4, 4, 8)),
                    pad=(1, 1, 1, 1),
                ),
                isa.SyncOp(0),
            ],
        )
    )
    _, counters = run_isa_module(program)
    macs = 4 * 4 * 8 * 3 * 3 * 16
    assert counters["macs"] == macs
    assert counters["cycles"] == macs // 128
    assert counters["energy_pj"]["mac"] == pytest.approx(macs * 0.018)


def test_vec_trans_scatter_transposes_in_local_memory() -> None:
    """A 16 x 16 float16 tile transposed by one instruction, through DMA in and out."""
    rows = [16 * lane for lane in range(16)]
    from xdsl.dialects.builtin import Float16Type

    program = module(
        network_input((1, 1, 16, 32), 0, GlobalLayout.NCHW),
        network_output((1, 1, 16, 32), 512, GlobalLayout.NCHW),
        isa.CoreOp(
            (0, 0),
            [
                isa.DmaLoadOp([512], 0, 0),
                isa.VecTransScatterOp(Float16Type(), 1024, rows, 0, rows, 1),
                isa.DmaStoreOp([512], 512, 1024),
                isa.SyncOp(0),
            ],
        ),
        target="tpu-like",
    )
    x = np.random.default_rng(0).integers(-128, 128, (1, 1, 16, 32), dtype=np.int8)
    outputs, counters = run_isa_module(program, {"x": x})
    halves = x.reshape(-1).view(np.float16).reshape(16, 16)
    assert np.array_equal(outputs["y"].reshape(-1).view(np.uint16), halves.T.reshape(-1).view(np.uint16))
    # 512 bytes read and 512 written at 512 bytes per cycle; two 512-byte DMAs at 64 per cycle.
    assert counters["cycles"] == 2 + 8 + 8


def test_data_regions_hold_the_box_of_the_task_reference() -> None:
    """A weight box in global memory, copied to an output byte for byte."""
    from stc.dialects.task import BoxAttr

    box = BoxAttr(((1, 3), (0, 1), (0, 1), (0, 16)))
    program = module(
        network_output((1, 32, 1, 1), 1024, GlobalLayout.NCHW),
        isa.DataOp(RandomDataAttr(9), TensorType(i8, (4, 1, 1, 16)), 0, box),
        isa.CoreOp((0, 0), [isa.DmaLoadOp([32], 0, 0), isa.DmaStoreOp([32], 1024, 0), isa.SyncOp(0)]),
    )
    program.verify()
    outputs, _ = run_isa_module(program)
    whole = random_tensor(9, (4, 1, 1, 16), np.dtype(np.int8))
    assert np.array_equal(outputs["y"].reshape(-1), whole[1:3].reshape(-1))


def test_inputs_default_to_the_golden_draws_and_can_be_given() -> None:
    program = relu_program()
    drawn, _ = run_isa_module(program, seed=3)
    x = random_inputs(isa.ProgramOp("q", "tianjicx", [network_input()]), 3)["x"]
    assert np.array_equal(drawn["y"], np.maximum(x, 0))
    given, _ = run_isa_module(program, {"x": np.zeros((1, 16, 4, 4), np.int8)})
    assert not given["y"].any()


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        (
            {"image": np.zeros((1, 16, 4, 4), np.int8)},
            "isa.program @p has no input 'image' \\(inputs: x\\)",
        ),
        (
            {"x": np.zeros((1, 4, 4, 16), np.int8)},
            r"input 'x' must be NCHW \[1, 16, 4, 4\], got \[1, 4, 4, 16\]",
        ),
        ({"x": np.full((1, 16, 4, 4), 300)}, "input 'x' must hold int8 values"),
    ],
)
def test_bad_inputs(inputs: dict[str, np.ndarray], message: str) -> None:
    with pytest.raises(StcError, match=message):
        run_isa_module(relu_program(), inputs)


def test_out_of_range_access_of_an_unverified_program() -> None:
    program = module(
        isa.CoreOp(
            (0, 0),
            [
                isa.SyncOp(0),
                isa.ReluOp([tile(143300, (1, 4, 4, 16))], tile(0, (1, 4, 4, 16))),
                isa.SyncOp(1),
            ],
        )
    )
    with pytest.raises(
        StcError,
        match=r"core \(0, 0\), phase 1, #1 isa.relu: input bytes \[143300, 143556\) are "
        r"outside local memory \[0, 143360\)",
    ):
        run_isa_module(program)


def test_deadlock_names_the_waiting_receive() -> None:
    program = module(
        isa.CoreOp((0, 0), [isa.RecvOp(16, 0, (0, 1), 1), isa.SendOp(16, 0, (0, 1), 2), isa.SyncOp(0)]),
        isa.CoreOp((0, 1), [isa.RecvOp(16, 0, (0, 0), 2), isa.SendOp(16, 0, (0, 0), 1), isa.SyncOp(0)]),
    )
    program.verify()
    with pytest.raises(StcError, match=r"core \(0, 0\), phase 0, #0 isa.recv: waits for tag 1 from \(0, 1\)"):
        run_isa_module(program)


def test_unreceived_and_mismatched_messages_of_unverified_programs() -> None:
    unreceived = module(isa.CoreOp((0, 0), [isa.SendOp(16, 0, (0, 1), 4), isa.SyncOp(0)]), isa.CoreOp((0, 1), []))
    with pytest.raises(
        StcError,
        match=r"core \(0, 0\), phase 0, #0 isa.send: tag 4 is sent but never received in phase 0",
    ):
        run_isa_module(unreceived)
    mismatched = module(
        isa.CoreOp((0, 0), [isa.SendOp(16, 0, (0, 1), 4), isa.SyncOp(0)]),
        isa.CoreOp((0, 1), [isa.RecvOp(32, 0, (0, 0), 4), isa.SyncOp(0)]),
    )
    with pytest.raises(
        StcError,
        match="receives 32 bytes with tag 4, but core \\(0, 0\\), phase 0, #0 isa.send sent 16",
    ):
        run_isa_module(mismatched)


def test_vec_trans_scatter_errors_name_the_instruction() -> None:
    lanes = [32 * lane for lane in range(16)]
    program = module(
        isa.CoreOp((0, 0), [isa.VecTransScatterOp(i8, 0, lanes, 32, lanes, 1), isa.SyncOp(0)]),
        target="tpu-like",
    )
    program.verify()
    with pytest.raises(StcError, match=r"#0 isa.vec_trans_scatter: at repeat 0 .* partial overlap is not supported"):
        run_isa_module(program)


def test_energy_is_the_sum_of_its_parts() -> None:
    energy = energy_pj(
        load_target("set-8x8"),
        Work(10, 2, 3, 1, 0, 4, *range(1, 9)),
    )
    # set-8x8's AL1, WL1, OL1 and OL2 reads and writes: 1 … 8 accesses.
    core = 0.3885 + 2 * 0.3293 + 3 * 0.3053 + 4 * 0.2471 + 5 * 0.6416 + 6 * 0.5672 + 7 * 0.61185 + 8 * 0.7919
    assert energy["core_buffers"] == pytest.approx(core)
    assert energy["total"] == pytest.approx(10 * 0.018 + core + 2 * 1.054 + 3 * 1.872 + 60.0 + 4 * 5.6)


@pytest.mark.parametrize("make", [isa_examples.conv_rows, isa_examples.every_op], ids=["conv_rows", "every_op"])
def test_the_order_cores_are_listed_in_changes_nothing(make) -> None:
    """Verified programs have no races: on global memory the verifier refuses them, and
    NoC transfers act in each core's own program order, so listing the cores the other
    way round gives the same outputs and counters."""
    program = find_program(make().module)
    ops = [op.clone() for op in program.body.block.ops]
    cores = [op for op in ops if isinstance(op, isa.CoreOp)]
    declarations = [op for op in ops if not isinstance(op, isa.CoreOp)]
    flipped = ModuleOp([isa.ProgramOp("flipped", program.target.data, [*declarations, *cores[::-1]])])
    flipped.verify()
    outputs, counters = run_isa_module(ModuleOp([program.clone()]), seed=4)
    flipped_outputs, flipped_counters = run_isa_module(flipped, seed=4)
    assert outputs.keys() == flipped_outputs.keys()
    assert all(np.array_equal(outputs[name], flipped_outputs[name]) for name in outputs)
    assert counters == flipped_counters


def test_the_machine_benchmark_names_a_split_that_does_not_fit() -> None:
    """ResNet-18's 56x56x64 conv over 4 tianjicx cores overflows local memory: one line
    naming the instruction and the smallest core count that fits, exit code 1."""
    result = subprocess.run(
        [sys.executable, "-m", "stc.tools.bench_machine", "--target", "tianjicx", "--runs", "1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr == (
        "bench_machine: error: the layer does not fit 4 cores of tianjicx: "
        "isa.program: core (0, 1), phase 2, #9 isa.conv: "
        "output bytes [94464, 144640) are outside local memory [0, 143360); 5 cores fit\n"
    )


def test_strided_transfers_and_copies_move_boxes_of_nhwc_tiles():
    """Core (0, 0) sends the left four columns of a 4x8x16 NHWC tile as a strided box
    and copies the right four into a dense tile; core (0, 1) receives the box densely."""
    left_half = isa.SendOp([4, 4, 16], 0, (0, 1), 7, strides=[128, 16, 1])
    module_op = module(
        network_input((1, 16, 4, 8), 0),
        network_output((1, 16, 4, 4), 512, name="right"),
        network_output((1, 16, 4, 4), 768, name="left"),
        isa.CoreOp(
            (0, 0),
            [
                isa.DmaLoadOp([512], 0, 0),
                left_half,
                isa.CopyOp([4, 4, 16], 64, 1024, source_strides=[128, 16, 1]),
                isa.DmaStoreOp([256], 512, 1024),
                isa.SyncOp(0),
            ],
        ),
        isa.CoreOp((0, 1), [isa.RecvOp([4, 4, 16], 0, (0, 0), 7), isa.DmaStoreOp([256], 768, 0), isa.SyncOp(0)]),
    )
    module_op.verify()
    x = np.random.default_rng(0).integers(-128, 128, (1, 16, 4, 8), dtype=np.int8)
    outputs, counters = run_isa_module(module_op, {"x": x})
    assert (outputs["left"] == x[..., :4]).all()
    assert (outputs["right"] == x[..., 4:]).all()
    assert counters["noc_bytes"] == 256
    assert counters["local_write_bytes"] == 512 + 256 + 256


def overlapping_target(tmp_path, flag: str = "true") -> str:
    """tianjicx whose DMA engines run beside its compute units, as a TOML file."""
    text = (Path(targets.__file__).parent / "tianjicx.toml").read_text()
    old = "bandwidth_bytes_per_cycle = 16.0       # assumed\n"
    assert old in text
    text = text.replace(old, f"{old}dma_overlaps_compute = {flag}\n").replace('name = "tianjicx"', 'name = "tj-gdma"')
    path = tmp_path / "tj-gdma.toml"
    path.write_text(text)
    return str(path)


def test_dma_beside_compute_overlaps_only_what_does_not_wait(tmp_path) -> None:
    """On a target whose DMA overlaps compute, an instruction waits for the bytes it reads
    that its phase wrote: the relu program (load 16, relu 16, store 16 cycles) is a chain
    and still takes 48 cycles; a second load that no instruction of the phase reads (a
    prefetch) runs beside the relu: 48 cycles instead of 64 one after the other. The
    outputs and the work counted do not change."""
    x = np.arange(-128, 128, dtype=np.int8).reshape(1, 16, 4, 4)
    target = overlapping_target(tmp_path)
    prefetching = relu_program()
    core = next(op for op in find_program(prefetching).body.ops if isinstance(op, isa.CoreOp))
    core.body.block.insert_op_after(isa.DmaLoadOp([256], 0, 512), core.body.block.first_op)
    runs = {}
    for name, program in [("chain", relu_program()), ("prefetch", prefetching)]:
        _, runs[name, "serial"] = run_isa_module(program.clone(), {"x": x})
        find_program(program).target = StringAttr(target)
        with references_within([tmp_path]):
            outputs, runs[name] = run_isa_module(program, {"x": x}, base_dir=tmp_path)
        assert np.array_equal(outputs["y"], np.maximum(x, 0))
        assert runs[name]["dram_bytes"] == runs[name, "serial"]["dram_bytes"]
    assert (runs["chain"]["cycles"], runs["chain", "serial"]["cycles"]) == (48, 48)
    assert (runs["prefetch"]["cycles"], runs["prefetch", "serial"]["cycles"]) == (48, 64)
    assert runs["prefetch"]["core_cycles"] == runs["prefetch", "serial"]["core_cycles"] == {"0,0": 64}
    assert load_target("tianjicx").global_memory.dma_overlaps_compute is False


def test_dma_overlap_is_a_boolean(tmp_path) -> None:
    with pytest.raises(StcError, match="global_memory.dma_overlaps_compute: expected true or false, got 1"):
        load_target(overlapping_target(tmp_path, "1"))
