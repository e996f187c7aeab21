"""Tests for the isa dialect: construction, syntax, memory footprints and verifier rules."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import Float16Type, IntegerType, ModuleOp, TensorType, i8, i32
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from stc.compiler.ir_files import module_text, stc_context
from stc.compiler.targets.hardware import load_target
from stc.dialects import isa
from stc.dialects.isa import Access, GlobalLayout, TileAttr, races


def tile(address: int, shape: tuple[int, ...], element: IntegerType = i8) -> TileAttr:
    return TileAttr(address, TensorType(element, shape))


def program(*cores: isa.CoreOp, target: str = "tianjicx", declarations=()) -> ModuleOp:
    return ModuleOp([isa.ProgramOp("p", target, [*declarations, *cores])])


def parse(text: str) -> ModuleOp:
    module = Parser(stc_context(), text).parse_module()
    module.verify()
    return module


def relu(source: int = 0, result: int = 256) -> isa.ReluOp:
    return isa.ReluOp([tile(source, (1, 4, 4, 16))], tile(result, (1, 4, 4, 16)))


def test_built_program_prints_and_parses_back() -> None:
    module = program(
        isa.CoreOp(
            (0, 0),
            [isa.DmaLoadOp([256], 0, 0), relu(), isa.SendOp(256, 256, (0, 1), 7), isa.SyncOp(0)],
        ),
        isa.CoreOp((0, 1), [isa.RecvOp(256, 0, (0, 0), 7), isa.SyncOp(0)]),
        declarations=[isa.InputOp("x", TensorType(i8, (1, 16, 4, 4)), 0, GlobalLayout.NHWC)],
    )
    module.verify()
    text = module_text(module)
    assert "isa.send 256 bytes from 256 to (0, 1) tag 7" in text
    assert module_text(parse(text)) == text


def test_instructions_are_built_as_xdsl_builds_them() -> None:
    """An instruction's constructor sets the fields xDSL's generic builder sets, to the
    same values, with None properties left out and the rest in the order given."""
    from xdsl.irdl import IRDLOperation

    built = [
        isa.SendOp([1, 4, 64], 128, [(0, 1), (2, 3)], 7, [1024, 128, 1]),
        isa.RecvOp(256, 0, (1, 1), 7),
        isa.DmaLoadOp([2, 16], 0, 512, [64, 1]),
        isa.CopyOp([64], 0, 256),
        isa.SyncOp(3),
        relu(),
        isa.ConvOp([tile(0, (1, 4, 4, 16)), tile(256, (16, 3, 3, 16))], tile(4096, (1, 4, 4, 16)), None, shift=2),
    ]
    for op in built:
        theirs = type(op).__new__(type(op))
        IRDLOperation.__init__(theirs, properties=dict(op.properties))
        assert vars(op).keys() == vars(theirs).keys()
        assert list(op.properties.items()) == list(theirs.properties.items())
        for name in ("operands", "results", "attributes", "location", "regions", "successors", "parent"):
            assert getattr(op, name) == getattr(theirs, name), (op.name, name)
    assert "bias" not in built[-1].properties


def test_dense_strides_are_elided_and_strided_ones_printed() -> None:
    dense = isa.DmaLoadOp([4, 64], 0, 0)
    strided = isa.DmaLoadOp([4, 64], 0, 0, global_strides=[128, 1])
    assert isa.ints(dense.global_strides) == (64, 1)
    module = program(isa.CoreOp((0, 0), [dense, strided, isa.SyncOp(0)]))
    text = module_text(module)
    assert "isa.dma_load sizes [4, 64] from global 0 to local 0\n" in text
    assert "isa.dma_load sizes [4, 64] from global 0 strides [128, 1] to local 0\n" in text


def test_strided_extent_and_self_overlap() -> None:
    assert isa.dense_strides((2, 3, 4)) == (12, 4, 1)
    assert isa.strided_extent((10, 8, 16), (256, 16, 1)) == 9 * 256 + 7 * 16 + 16
    assert not isa.self_overlap((4, 16), (32, 1))
    assert not isa.self_overlap((1, 4, 16), (0, 16, 1))
    assert isa.self_overlap((4, 16), (0, 1))
    assert isa.self_overlap((4, 16), (8, 1))
    assert isa.self_overlap((3, 2), (1, 2))


def test_compute_accesses_carry_the_storage_kind_of_each_tile() -> None:
    conv = isa.ConvOp(
        [tile(0, (1, 6, 8, 16)), tile(1024, (32, 3, 3, 16))],
        tile(6144, (1, 4, 6, 32), i32),
        tile(5632, (32,), i32),
    )
    assert conv.local_accesses() == [
        Access("input", 0, 768, "activation"),
        Access("weight", 1024, 4608, "weight"),
        Access("bias", 5632, 128, "bias"),
        Access("output", 6144, 3072, "partial_sum"),
    ]
    lut = isa.LutOp([tile(0, (1, 4, 4, 16)), tile(256, (256,))], tile(512, (1, 4, 4, 16)))
    assert [access.alignment for access in lut.local_accesses()] == [
        "activation",
        "bias",
        "activation",
    ]


def test_vec_trans_scatter_footprint_covers_every_repeat_and_half() -> None:
    lanes = [32 * lane for lane in range(16)]
    op = isa.VecTransScatterOp(i8, 4096, lanes, 0, lanes, 3, 16, 16, src_high_half=True)
    op.verify_()
    # 16 blocks at 0..480, three repeats 512 bytes apart; the last source half ends at +32.
    assert op.local_accesses() == [
        Access("dst blocks", 4096, 480 + 2 * 512 + 16, "block"),
        Access("src blocks", 0, 480 + 2 * 512 + 32, "block"),
    ]
    assert op.moved_bytes() == 3 * 16 * 16
    half_words = isa.VecTransScatterOp(
        Float16Type(),
        0,
        [16 * lane for lane in range(16)],
        8192,
        [16 * lane for lane in range(16)],
        1,
    )
    assert half_words.lane_addresses("dst") == lanes
    assert half_words.moved_bytes() == 16 * 32
    assert isa.VecTransScatterOp(i8, 0, lanes, 4096, lanes, 0).local_accesses() == []


def test_alignment_rules_follow_the_target() -> None:
    tianjicx, tpu = load_target("tianjicx"), load_target("tpu-like")
    assert isa.required_alignment(tianjicx, "partial_sum") == 128
    assert isa.required_alignment(tpu, "activation") == 64
    assert isa.required_alignment(tpu, "block") == 32
    assert isa.local_capacity(tianjicx, (0, 0)) == 143360
    assert isa.local_capacity(load_target("aie-ml"), (0, 0)) == 0


def test_phases_split_at_syncs_and_number_every_instruction() -> None:
    core = isa.CoreOp((0, 0), [isa.DmaLoadOp([16], 0, 0), isa.SyncOp(0), isa.SyncOp(1), relu(), isa.SyncOp(2)])
    assert [len(phase) for phase in core.phases()] == [1, 0, 1]
    assert [(phase, index, op.name) for phase, index, op in core.numbered_instructions()] == [
        (0, 0, "isa.dma_load"),
        (2, 3, "isa.relu"),
    ]


@pytest.mark.parametrize(
    ("cores", "message"),
    [
        (
            [isa.CoreOp((0, 0), [relu(), isa.SyncOp(0)]), isa.CoreOp((0, 0), [])],
            r"core \(0, 0\) has two programs",
        ),
        (
            [isa.CoreOp((0, 0), [relu(result=8), isa.SyncOp(0)])],
            "output address 8 is not a multiple of 16",
        ),
        (
            [isa.CoreOp((0, 0), [relu(result=143200), isa.SyncOp(0)])],
            r"output bytes \[143200, 143456\) are outside",
        ),
        (
            [isa.CoreOp((0, 0), [isa.SendOp(16, 0, (0, 1), 1), isa.SyncOp(0)])],
            "no isa.recv takes tag 1",
        ),
        (
            [
                isa.CoreOp((0, 0), [isa.SendOp(16, 0, (0, 1), 1), isa.SyncOp(0)]),
                isa.CoreOp((0, 1), [isa.RecvOp(32, 0, (0, 0), 1), isa.SyncOp(0)]),
            ],
            "sends 16 bytes with tag 1, but core \\(0, 1\\), phase 0, #0 isa.recv receives 32",
        ),
        ([isa.CoreOp((0, 0), [relu()])], "phase 0 is not ended by isa.sync 0"),
    ],
)
def test_program_rules(cores: list[isa.CoreOp], message: str) -> None:
    with pytest.raises(VerifyException, match=message):
        program(*cores).verify()


def test_instruction_rules() -> None:
    with pytest.raises(VerifyException, match="repeat_times = 1 with dst_rep_stride = 16 and src_rep_stride = 0"):
        isa.VecTransScatterOp(
            i8, 0, [32 * lane for lane in range(16)], 4096, [32 * lane for lane in range(16)], 1, 16
        ).verify()
    with pytest.raises(VerifyException, match="write some bytes twice"):
        isa.DmaLoadOp([4, 16], 0, 0, local_strides=[8, 1]).verify()
    with pytest.raises(VerifyException, match="the output must be"):
        isa.ConvOp([tile(0, (1, 6, 8, 16)), tile(1024, (32, 3, 3, 16))], tile(6144, (1, 6, 8, 32))).verify()
    with pytest.raises(VerifyException, match="takes no bias"):
        isa.ReluOp([tile(0, (1, 4, 4, 16))], tile(256, (1, 4, 4, 16)), tile(512, (16,), i32)).verify()


def test_data_kinds_and_footprints() -> None:
    from stc.dialects.task import BoxAttr, RandomDataAttr

    weight = isa.DataOp(
        RandomDataAttr(1),
        TensorType(i8, (32, 3, 3, 16)),
        0,
        BoxAttr(((0, 16), (0, 3), (0, 3), (0, 16))),
    )
    bias = isa.DataOp(RandomDataAttr(2), TensorType(i32, (32,)), 4096)
    assert (weight.kind, weight.nbytes) == ("weight", 16 * 9 * 16)
    assert (bias.kind, bias.nbytes) == ("bias", 128)
    with pytest.raises(VerifyException, match="overlaps"):
        program(declarations=[weight, isa.DataOp(RandomDataAttr(2), TensorType(i32, (32,)), 2000)]).verify()


def brief_race(first: isa.CoreOp, second: isa.CoreOp) -> ModuleOp:
    return program(
        first, second, declarations=[isa.OutputOp("y", TensorType(i8, (1, 16, 4, 4)), 512, GlobalLayout.NHWC)]
    )


def test_a_store_and_a_load_of_two_cores_in_one_phase_race_in_either_order() -> None:
    """The audit's repro: which of the two cores runs first decides what the load sees.
    Listed either way round, the program is refused with the same message."""
    messages = []
    for order in (1, -1):
        store = isa.CoreOp((0, 0), [isa.DmaStoreOp([256], 512, 0), isa.SyncOp(0)])
        load = isa.CoreOp((0, 1), [isa.DmaLoadOp([256], 512, 0), isa.SyncOp(0)])
        with pytest.raises(VerifyException) as error:
            brief_race(*[store, load][::order]).verify()
        messages.append(str(error.value).splitlines()[0])
    assert messages[0] == messages[1]
    assert messages[0] == (
        "core (0, 0), phase 0, #0 isa.dma_store writes global bytes [512, 768) and core (0, 1), phase 0, "
        "#0 isa.dma_load reads global bytes [512, 768): both touch bytes [512, 768) in phase 0, where cores "
        "run in no defined order"
    )


@st.composite
def global_touches(draw: st.DrawFn) -> list[races.GlobalTouch]:
    touches = []
    for index in range(draw(st.integers(2, 6))):
        rank = draw(st.integers(1, 3))
        sizes = draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank))
        strides = draw(st.lists(st.integers(0, 9), min_size=rank, max_size=rank))
        kind = draw(st.sampled_from([isa.DmaLoadOp, isa.DmaStoreOp]))
        op = kind(sizes, draw(st.integers(0, 40)), 0, global_strides=strides)
        (access,) = op.global_accesses()
        touches.append(races.GlobalTouch((0, draw(st.integers(0, 2))), 0, index, op, access))
    return touches


def touched_bytes(access: Access) -> set[int]:
    """Every byte of a strided box, one by one."""
    offsets = {0}
    for size, stride in zip(access.sizes, access.strides, strict=True):
        offsets = {offset + step * stride for offset in offsets for step in range(size)}
    return {access.start + offset for offset in offsets}


@settings(max_examples=200, deadline=None)
@given(global_touches())
def test_races_are_found_exactly_as_byte_sets_say(touches: list[races.GlobalTouch]) -> None:
    racing = any(
        a.coord != b.coord
        and (a.access.writes or b.access.writes)
        and touched_bytes(a.access) & touched_bytes(b.access)
        for a, b in itertools.combinations(touches, 2)
    )
    race = races.first_race(touches)
    assert (race is not None) == racing
    if race is not None:
        first, second, (start, end) = race
        shared = touched_bytes(first.access) & touched_bytes(second.access)
        assert first.coord != second.coord
        assert first.access.writes or second.access.writes
        assert start == min(shared)
        assert set(range(start, end)) <= shared
