"""Hardware targets: the presets' figures, loading by path, every loading error, XY routes."""

from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stc.compiler.diagnostics import reported_errors
from stc.compiler.targets.hardware import TARGETS_DIR, HardwareTarget, load_target, target_names
from stc.compiler.targets.reading import TargetError

TINY_TARGET = """\
name = "tiny"
description = "a 2x3 test target"

[mesh]
chips_y = 1
chips_x = 1
cores_y = 2
cores_x = 3

[local_memory]
capacity_bytes = 4096
reserved_bytes = 1024
bandwidth_bytes_per_cycle = 16

[[local_memory.banks]]
name = "bank"
count = 2
capacity_bytes = 2048

[local_memory.alignment_bytes]
activation = 16
partial_sum = 64
weight = 32
bias = 16

[compute]
mac_array_shape = [2, 8]
macs_per_cycle = 16
frequency_mhz = 100

[noc]
routing = "xy"
link_bandwidth_bytes_per_cycle = 4
hop_latency_cycles = 1
packet_payload_bytes = 4

[global_memory]
capacity_bytes = 1048576
bandwidth_bytes_per_cycle = 8

[energy]
mac_pj = 0.1
local_memory_read_pj_per_byte = 1
local_memory_write_pj_per_byte = 1
noc_pj_per_hop_byte = 2
dram_pj_per_byte = 50

[activation_layout]
kind = "hwc"
"""

TILE_TYPE = """
[[tile_types]]
name = "{name}"
row_min = {row_min}
row_max = {row_max}
column_min = 0
column_max = 2
memory_bytes = 4096
computes = {computes}
"""


def tile_type(name: str, row_min: int, row_max: int, computes: str = "true") -> str:
    return TILE_TYPE.format(name=name, row_min=row_min, row_max=row_max, computes=computes)


def write_target(tmp_path: Path, text: str) -> str:
    path = tmp_path / "tiny.toml"
    path.write_text(text)
    return str(path)


# Presets.


def test_target_names_lists_the_presets():
    assert target_names() == ["aie-ml", "set-8x8", "tianjicx", "tpu-like"]


@pytest.mark.parametrize("name", target_names())
def test_preset_loads_under_its_name(name: str):
    target = load_target(name)
    assert target.name == name
    assert sum(bank.capacity_bytes for bank in target.local_memory.banks) == (target.local_memory.capacity_bytes)
    assert target.noc.routing == "xy"
    assert any(tile_type.computes for tile_type in target.tile_types)
    assert hash(target) == hash(load_target(name))


def test_presets_are_cached():
    assert load_target("tianjicx") is load_target("tianjicx")


def test_tianjicx():
    target = load_target("tianjicx")
    assert (target.mesh.chip_count, target.mesh.cores_y, target.mesh.cores_x) == (1, 10, 16)
    assert target.mesh.core_count == 160
    memory = target.local_memory
    assert memory.capacity_bytes == 144 * 1024
    assert [(bank.name, bank.capacity_bytes) for bank in memory.banks] == [
        ("mem0", 64 * 1024),
        ("mem1", 64 * 1024),
        ("mem2", 16 * 1024),
    ]
    assert memory.reserved_bytes == 4096
    assert target.usable_memory_bytes == 143_360
    assert memory.bandwidth_bytes_per_cycle == 32
    assert target.compute.mac_array_shape == (4, 32)
    assert target.compute.macs_per_cycle == 128
    assert target.max_phases == 32
    assert target.noc.packet_payload_bytes == 8
    assert target.activation_layout.kind == "hwc"
    assert [tile_type.name for tile_type in target.tile_types] == ["core"]


def test_tianjicx_alignment_follows_the_storage_size_model():
    target = load_target("tianjicx")
    assert target.aligned_bytes("activation", 20, rows=64) == 64 * 32
    assert target.aligned_bytes("activation", 16) == 16
    assert target.aligned_bytes("weight", 33) == 64
    assert target.aligned_bytes("partial_sum", 4 * 10) == 128
    assert target.aligned_bytes("bias", 0) == 0


def test_set_8x8():
    target = load_target("set-8x8")
    assert target.mesh.core_count == 64
    assert target.compute.macs_per_cycle == 1024
    assert target.local_memory.capacity_bytes == 1024 * 1024
    assert len(target.local_memory.banks) == 16
    assert target.local_memory.banks[15].name == "ul3_15"
    assert target.compute.frequency_mhz == 1000
    assert target.noc.link_bandwidth_bytes_per_cycle == 24  # 24 GB/s at 1 GHz
    assert target.global_memory.bandwidth_bytes_per_cycle == 64
    energy = target.energy
    assert energy.mac_pj == 0.018
    assert energy.noc_pj_per_hop_byte == 5.6
    assert energy.dram_pj_per_byte == 60
    buffers = target.core_buffers
    assert buffers is not None
    # SET's Polar core (src/main.cpp): 8-wide vectors, 8 lanes, OL1 2 KB over 8 lanes, WL1 4 KB
    # of 8-element vectors; its energies per bit times 8.
    assert (buffers.vector_width, buffers.lanes) == (8, 8)
    assert (buffers.psum_positions, buffers.weight_vectors) == (2048 // 8, 4096 // 8)
    assert buffers.channel_split == 4  # a 4x4 PE array, PolarCore::Bus(4, 4, ...)
    per_bit = (0.0485625, 0.0411625, 0.0381625, 0.0308875, 0.0802, 0.0709, 0.07648125, 0.0989875)
    assert buffers.energies == pytest.approx(tuple(8 * pj for pj in per_bit))
    assert load_target("tianjicx").core_buffers is None
    assert (energy.local_memory_read_pj_per_byte, energy.local_memory_write_pj_per_byte) == (
        1.054,
        1.872,
    )
    assert target.max_phases is None
    assert target.aligned_bytes("weight", 33) == 33


def test_tpu_like():
    target = load_target("tpu-like")
    assert target.mesh.core_count == 1
    assert target.local_memory.capacity_bytes == 16 * 1024 * 1024
    assert len(target.local_memory.banks) == 16
    assert target.global_memory.capacity_bytes == 4 * 1024**3
    layout = target.activation_layout
    assert layout.kind == "nc1hwc0"
    assert (layout.c0(8), layout.c0(16), layout.c0(32)) == (32, 16, 16)
    with pytest.raises(ValueError, match="layout 'nc1hwc0' has no C0 for 4-bit elements"):
        layout.c0(4)


def test_aie_ml_tile_types():
    target = load_target("aie-ml")
    assert (target.mesh.cores_y, target.mesh.cores_x) == (11, 38)
    rows = {tt.name: (tt.row_min, tt.row_max) for tt in target.tile_types}
    assert rows == {"shim_tile": (0, 0), "memory_tile": (1, 2), "aie_tile": (3, 10)}
    assert all((tt.column_min, tt.column_max) == (0, 37) for tt in target.tile_types)
    memory = {tt.name: tt.memory_bytes for tt in target.tile_types}
    assert memory == {"shim_tile": 0, "memory_tile": 512 * 1024, "aie_tile": 64 * 1024}
    assert [tt.name for tt in target.tile_types if tt.computes] == ["aie_tile"]
    assert target.local_memory.capacity_bytes == 64 * 1024
    assert target.compute.macs_per_cycle == 256
    assert target.tile_type_at(0, 5).name == "shim_tile"
    assert target.tile_type_at(2, 37).name == "memory_tile"
    assert target.tile_type_at(10, 0).name == "aie_tile"


def test_tile_lookup_outside_the_mesh():
    target = load_target("tianjicx")
    assert target.core_exists(9, 15)
    assert not target.core_exists(10, 0)
    assert not target.core_exists(0, 16)
    assert not target.core_exists(-1, 0)
    with pytest.raises(ValueError, match=r"target 'tianjicx' has no tile at \(y=10, x=0\)"):
        target.tile_type_at(10, 0)


def test_aligned_bytes_rejects_unknown_kinds_and_negative_sizes():
    target = load_target("tianjicx")
    with pytest.raises(ValueError, match="unknown storage kind 'lut'"):
        target.aligned_bytes("lut", 16)
    with pytest.raises(ValueError, match="negative size: -1 bytes x 1 rows"):
        target.aligned_bytes("weight", -1)


# Loading by path.


def test_preset_loads_by_path_too():
    by_path = load_target(str(TARGETS_DIR / "tianjicx.toml"))
    assert by_path == load_target("tianjicx")
    assert by_path is not load_target("tianjicx")


def test_user_target_gets_one_core_tile_type_over_the_mesh(tmp_path: Path):
    target = load_target(write_target(tmp_path, TINY_TARGET))
    assert target.name == "tiny"
    assert [bank.name for bank in target.local_memory.banks] == ["bank_0", "bank_1"]
    assert target.usable_memory_bytes == 3072
    assert target.compute.frequency_mhz == 100.0
    assert len(target.tile_types) == 1
    core = target.tile_types[0]
    assert (core.name, core.row_max, core.column_max, core.computes) == ("core", 1, 2, True)
    assert core.memory_bytes == 4096
    assert target.max_phases is None


def test_user_target_with_tile_types(tmp_path: Path):
    text = TINY_TARGET + tile_type("io", 0, 0, "false") + tile_type("pe", 1, 1)
    target = load_target(write_target(tmp_path, text))
    assert target.tile_type_at(0, 2).name == "io"
    assert target.tile_type_at(1, 0).name == "pe"


def test_uncovered_positions_are_not_cores(tmp_path: Path):
    target = load_target(write_target(tmp_path, TINY_TARGET + tile_type("pe", 1, 1)))
    assert not target.core_exists(0, 0)
    assert target.core_exists(1, 0)


# Loading errors: one line, naming the file, the key and the problem.

CORE_BUFFERS = """[core_buffers]
vector_width = 8
lanes = 8
psum_positions = 256
weight_vectors = 512
channel_split = 4
activation_read_pj = 0.1
activation_write_pj = 0.1
weight_read_pj = 0.1
weight_write_pj = 0.1
psum_read_pj = 0.5
psum_write_pj = 0.5
output_read_pj = 0.2
output_write_pj = 0.2

"""

ERRORS = [
    ("cores_x = 3\n", "", "mesh.cores_x: missing key"),
    ("cores_y = 2", 'cores_y = "two"', "mesh.cores_y: expected an integer, got string 'two'"),
    ("cores_y = 2", "cores_y = true", "mesh.cores_y: expected an integer, got boolean True"),
    ("cores_y = 2", "cores_y = 0", "mesh.cores_y: expected an integer >= 1, got 0"),
    (
        "reserved_bytes = 1024",
        "reserved_bytes = -1",
        "local_memory.reserved_bytes: expected an integer >= 0, got -1",
    ),
    (
        "reserved_bytes = 1024",
        "reserved_bytes = 8192",
        "local_memory.reserved_bytes: 8192 exceeds capacity_bytes 4096",
    ),
    ("mac_pj = 0.1", "mac_pj = -0.1", "energy.mac_pj: expected a number >= 0, got -0.1"),
    ("mac_pj = 0.1", 'mac_pj = "low"', "energy.mac_pj: expected a number, got string 'low'"),
    (
        "[energy]",
        CORE_BUFFERS.replace("lanes = 8", "lanes = 0") + "[energy]",
        "core_buffers.lanes: expected an integer >= 1, got 0",
    ),
    (
        "[energy]",
        CORE_BUFFERS.replace("psum_write_pj = 0.5", "psum_write_pj = -0.5") + "[energy]",
        "core_buffers.psum_write_pj: expected a number >= 0, got -0.5",
    ),
    (
        "[energy]",
        CORE_BUFFERS.replace("lanes = 8\n", "") + "[energy]",
        "core_buffers.lanes: missing key",
    ),
    (
        "link_bandwidth_bytes_per_cycle = 4",
        "link_bandwidth_bytes_per_cycle = 0",
        "noc.link_bandwidth_bytes_per_cycle: expected a number > 0, got 0",
    ),
    (
        "capacity_bytes = 2048",
        "capacity_bytes = 1024",
        "local_memory.banks: bank sizes sum to 2048 bytes, not capacity_bytes 4096",
    ),
    (
        'name = "bank"\ncount = 2\ncapacity_bytes = 2048',
        'name = "a"\ncapacity_bytes = 2048\n[[local_memory.banks]]\nname = "a"\ncapacity_bytes = 2048',
        "local_memory.banks: duplicate bank names a",
    ),
    ("count = 2", "count = 0", "local_memory.banks[0].count: expected an integer >= 1, got 0"),
    (
        "weight = 32",
        "weight = 0",
        "local_memory.alignment_bytes.weight: expected an integer >= 1, got 0",
    ),
    ("cores_x = 3", "cores_x = 3\ncores_z = 1", "mesh.cores_z: unknown key"),
    ('routing = "xy"', 'routing = "yx"', "noc.routing: expected one of xy, got 'yx'"),
    (
        "macs_per_cycle = 16",
        "macs_per_cycle = 15",
        "compute.macs_per_cycle: 15 differs from mac_array_shape 2x8 = 16",
    ),
    (
        "mac_array_shape = [2, 8]",
        "mac_array_shape = [16]",
        "compute.mac_array_shape: expected a list of 2 integers, got array [16]",
    ),
    (
        'description = "a 2x3 test target"',
        'description = "a 2x3 test target"\nmax_phases = 0',
        "max_phases: expected an integer >= 1, got 0",
    ),
    (
        'kind = "hwc"',
        'kind = "nhwc"',
        "activation_layout.kind: expected one of hwc, nc1hwc0, got 'nhwc'",
    ),
    (
        'kind = "hwc"',
        'kind = "nc1hwc0"',
        "activation_layout.c0_by_element_bits: missing key (required by kind 'nc1hwc0')",
    ),
    (
        'kind = "hwc"',
        'kind = "hwc"\nc0_by_element_bits = { 8 = 32 }',
        "activation_layout.c0_by_element_bits: only meaningful for kind 'nc1hwc0'",
    ),
    (
        'kind = "hwc"',
        'kind = "nc1hwc0"\nc0_by_element_bits = { byte = 32 }',
        "activation_layout.c0_by_element_bits.byte: expected an element width in bits, such as 8",
    ),
    (
        "[energy]",
        "[energy]\n[spare]",
        "energy.mac_pj: missing key",
    ),
]


def test_user_target_with_core_buffers(tmp_path: Path):
    target = load_target(write_target(tmp_path, TINY_TARGET.replace("[energy]", CORE_BUFFERS + "[energy]", 1)))
    assert target.core_buffers is not None
    assert (target.core_buffers.lanes, target.core_buffers.energies[5]) == (8, 0.5)


@pytest.mark.parametrize(("old", "new", "message"), ERRORS)
def test_loading_error(tmp_path: Path, old: str, new: str, message: str):
    assert old in TINY_TARGET
    path = write_target(tmp_path, TINY_TARGET.replace(old, new, 1))
    with pytest.raises(TargetError) as error:
        load_target(path)
    assert str(error.value) == f"{path}: {message}"


TILE_TYPE_ERRORS = [
    (tile_type("pe", 0, 2), "tile_types[0].row_max: 2 is outside mesh.cores_y 2"),
    (tile_type("pe", 1, 0), "tile_types[0].row_max: 0 is below row_min 1"),
    (tile_type("a", 0, 1) + tile_type("b", 1, 1), "tile_types[1]: overlaps tile type 'a'"),
    (tile_type("a", 0, 0) + tile_type("a", 1, 1), "tile_types[1].name: duplicate tile type 'a'"),
    (tile_type("io", 0, 1, "false"), "tile_types: no tile type computes"),
    (tile_type("pe", 0, 1, "1"), "tile_types[0].computes: expected true or false, got 1"),
]


@pytest.mark.parametrize(("tile_types", "message"), TILE_TYPE_ERRORS)
def test_tile_type_error(tmp_path: Path, tile_types: str, message: str):
    path = write_target(tmp_path, TINY_TARGET + tile_types)
    with pytest.raises(TargetError) as error:
        load_target(path)
    assert str(error.value) == f"{path}: {message}"


def test_a_scalar_where_a_table_belongs(tmp_path: Path):
    text = TINY_TARGET.replace('name = "tiny"', 'name = "tiny"\nenergy = 1')
    path = write_target(tmp_path, text.replace("[energy]", "[spare]"))
    with pytest.raises(TargetError) as error:
        load_target(path)
    assert str(error.value) == f"{path}: energy: expected a table, got 1"


def test_invalid_toml(tmp_path: Path):
    path = write_target(tmp_path, TINY_TARGET.replace("cores_y = 2", "cores_y = "))
    with pytest.raises(TargetError, match=r"tiny\.toml: invalid TOML: .*line 7") as error:
        load_target(path)
    assert "\n" not in str(error.value)


def test_missing_file(tmp_path: Path):
    path = str(tmp_path / "absent.toml")
    with pytest.raises(TargetError, match=f"^{path}: cannot read: No such file or directory$"):
        load_target(path)


def test_unknown_preset_lists_the_available_ones():
    with pytest.raises(TargetError) as error:
        load_target("tianjic")
    assert str(error.value) == ("unknown target 'tianjic'; available: aie-ml, set-8x8, tianjicx, tpu-like")


def test_tools_report_a_bad_target_in_one_line(capsys: pytest.CaptureFixture[str]):
    exit_codes: list[int] = []
    with reported_errors("stc-opt", exit=exit_codes.append):
        load_target("tianjic")
    assert exit_codes == [1]
    assert capsys.readouterr().err == (
        "stc-opt: error: unknown target 'tianjic'; available: aie-ml, set-8x8, tianjicx, tpu-like\n"
    )


# XY routes.


@st.composite
def core_pairs(draw: st.DrawFn) -> tuple[HardwareTarget, tuple[int, int], tuple[int, int]]:
    target = load_target(draw(st.sampled_from(["tianjicx", "set-8x8", "aie-ml"])))
    ys = st.integers(0, target.mesh.cores_y - 1)
    xs = st.integers(0, target.mesh.cores_x - 1)
    return target, (draw(ys), draw(xs)), (draw(ys), draw(xs))


@settings(max_examples=50, deadline=None)
@given(core_pairs())
def test_xy_route_properties(case: tuple[HardwareTarget, tuple[int, int], tuple[int, int]]):
    target, source, destination = case
    route = target.xy_route(source, destination)
    assert len(route) == target.hops(source, destination)
    assert [link[0] for link in route[:1]] == ([source] if route else [])
    assert [link[1] for link in route[-1:]] == ([destination] if route else [])
    for (from_y, from_x), (to_y, to_x) in route:
        assert abs(from_y - to_y) + abs(from_x - to_x) == 1
        assert target.core_exists(to_y, to_x)
    for first, second in pairwise(route):
        assert first[1] == second[0]
    moves_along_y = [link[0][0] != link[1][0] for link in route]
    assert moves_along_y == sorted(moves_along_y), "every x move comes before every y move"


def test_xy_route_example():
    target = load_target("set-8x8")
    assert target.xy_route((2, 3), (2, 3)) == []
    assert target.xy_route((2, 3), (0, 1)) == [
        ((2, 3), (2, 2)),
        ((2, 2), (2, 1)),
        ((2, 1), (1, 1)),
        ((1, 1), (0, 1)),
    ]


def test_routes_between_missing_cores_are_errors():
    target = load_target("set-8x8")
    with pytest.raises(ValueError, match=r"target 'set-8x8' has no core at \(y, x\) = \(8, 0\)"):
        target.hops((0, 0), (8, 0))
    with pytest.raises(ValueError, match="has no core"):
        target.xy_route((0, -1), (0, 0))
