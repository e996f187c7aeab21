"""stc-report: the page's parts on small mapped and compiled networks, its self-containedness,
its errors, and (opt-in, STC_BROWSER_TESTS=1) a look at it in headless Chromium."""

import os
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from xdsl.context import Context
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, TensorType, i8

from stc.compiler.draw.report import report_html
from stc.compiler.draw.report.charts import heat_colour, link_load_svg, live_bytes, memory_svgs, timeline_svg
from stc.compiler.draw.report.measure import MemoryBlock, consecutive_runs, measure_module
from stc.compiler.ir_files import module_text
from stc.compiler.zoo import build_network
from stc.dialects import isa, task
from stc.dialects.task.stats import macs
from stc.passes.st_lmem_alloc import StLmemAllocPass
from stc.passes.st_place import StPlacePass
from stc.passes.st_route import StRoutePass
from stc.passes.st_search import StSearchPass
from stc.passes.stc_pipeline import StcPipelinePass
from stc.passes.task_split import TaskSplitPass
from stc.runtime.golden import find_graph
from stc.tools.bench_report import screenshot_is_blank, take_screenshot
from stc.tools.stc_report import cli as stc_report

EXTERNAL = re.compile(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", re.IGNORECASE)


def mapped(network: str, *splits: TaskSplitPass, allocate: bool = True) -> ModuleOp:
    module = build_network(network)
    passes = [*splits, TaskSplitPass(fit="tianjicx"), StPlacePass(target="tianjicx", iterations=500), StRoutePass()]
    for stage in passes + ([StLmemAllocPass()] if allocate else []):
        stage.apply(Context(), module)
    return module


@pytest.fixture(scope="module")
def tiny_measured():
    return measure_module(mapped("tiny"))


def compute_blocks(module: ModuleOp) -> list[task.ComputeBlock]:
    return [op for op in find_graph(module).tasks() if isinstance(op, task.ComputeBlock)]


def layer_macs(module: ModuleOp) -> list[int]:
    """The MACs of each compute block of an unsplit graph, in graph order."""
    return [macs(op) for op in compute_blocks(module)]


def test_layers_add_up_to_the_machine_counters(tiny_measured):
    counters = tiny_measured.machine.counters()
    layers = tiny_measured.layers
    assert sum(layer.macs for layer in layers) == counters["macs"]
    assert sum(layer.work.dram_bytes for layer in layers) == counters["dram_bytes"]
    assert sum(layer.cycles for layer in layers) == sum(
        sum(cycles) for cycles in tiny_measured.machine.core_phase_cycles.values()
    )
    total = sum(tiny_measured.energy_pj(layer) for layer in layers)
    assert total == pytest.approx(counters["energy_pj"]["total"])


def test_a_searched_set_8x8_schedule_adds_up_to_the_machine_counters():
    """On set-8x8 isa-lower also puts DMA beside compute, relays, late receives and kept
    results' sends at a phase's head, and convs apply their relu or lut: every such
    instruction is still some layer's, and the layers add up to the counters."""
    module = build_network("tiny", batch=2)
    passes = [StSearchPass(target="set-8x8", rounds=20, chains=1), StRoutePass(), StLmemAllocPass()]
    for stage in passes:
        stage.apply(Context(), module)
    measured = measure_module(module)
    counters = measured.machine.counters()
    assert sum(layer.macs for layer in measured.layers) == counters["macs"]
    assert sum(layer.work.dram_bytes for layer in measured.layers) == counters["dram_bytes"]
    assert sum(layer.cycles for layer in measured.layers) == sum(
        sum(cycles) for cycles in measured.machine.core_phase_cycles.values()
    )


def test_staging_areas_are_drawn_at_their_addresses():
    """On tpu-like (NC1HWC0) the buffers that load the network input and store its output
    have staging areas, `st.staging_in` / `st.staging_out = array<i64: address, bytes>`:
    the memory chart puts them at those addresses (it once took them for missing ones)."""
    module = build_network("tiny")
    for stage in [TaskSplitPass(fit="tpu-like"), StPlacePass(target="tpu-like"), StRoutePass(), StLmemAllocPass()]:
        stage.apply(Context(), module)
    declared = set()
    for op in find_graph(module).tasks():
        for name in ("st.staging_in", "st.staging_out"):
            if isinstance(staging := op.attributes.get(name), DenseArrayBase):
                address, size = staging.get_values()
                declared.add((int(address), int(size)))
    drawn = {(block.address, block.size) for block in measure_module(module).memory if block.kind == "staging"}
    assert declared
    assert drawn == declared


def test_a_split_layer_is_one_row(tiny_measured):
    """Conv 4 of tiny split in rows and along its reduction (pieces and the add of their
    partial sums), relu 6 split in rows: the rows still match the unsplit graph's layers."""
    whole = build_network("tiny")
    split = mapped("tiny", TaskSplitPass(task=4, vector=(2, 1, 1, 3)), TaskSplitPass(task=6, vector=(4, 1, 1, 1)))
    measured = measure_module(split)
    assert [layer.macs for layer in measured.layers] == [layer.macs for layer in tiny_measured.layers]
    convs = [m for m, op in zip(layer_macs(whole), compute_blocks(whole), strict=True) if isinstance(op, task.ConvOp)]
    assert [layer.macs for layer in measured.layers if layer.name.startswith("conv")] == convs
    assert re.fullmatch(r"conv \d+ \(16×3×3×3\)", measured.layers[0].name)  # named after its first piece
    blocks = {op.task_id: op for op in find_graph(split).tasks()}
    first = [blocks[task_id].name for task_id in measured.layers[0].blocks]
    assert sorted(name for name in first if name in ("task.conv", "task.add")) == ["task.add"] + ["task.conv"] * 6
    assert [layer.name.split()[0] for layer in measured.layers] == [
        op.name.removeprefix("task.") for op in compute_blocks(whole)
    ]


def test_memory_blocks_are_the_allocated_regions(tiny_measured):
    graph = find_graph(mapped("tiny"))
    addresses = {op.attributes["st.addr"].value.data for op in graph.tasks() if "st.addr" in op.attributes}
    blocks = tiny_measured.memory
    assert blocks
    assert {block.address for block in blocks} <= addresses
    for core in {block.core for block in blocks}:
        mine = [block for block in blocks if block.core == core]
        for first in mine:
            for second in mine:
                live_together = first.first <= second.last and second.first <= first.last
                apart = first.address + first.size <= second.address or second.address + second.size <= first.address
                assert first is second or not live_together or apart


def test_timeline_has_a_bar_per_busy_core_and_phase(tiny_measured):
    drawing = timeline_svg(tiny_measured)
    busy = [
        (coord, phase, cycles)
        for coord, phases in tiny_measured.machine.core_phase_cycles.items()
        for phase, cycles in enumerate(phases)
        if cycles
    ]
    assert drawing.count("<title>core ") == len(busy)
    coord, phase, cycles = busy[0]
    length = tiny_measured.machine.phase_cycles[phase]
    assert f"core ({coord[0]}, {coord[1]}), phase {phase}: busy {cycles} of {length} cycles" in drawing


def two_core_program() -> ModuleOp:
    """Core (0, 0) sends 256 bytes to (1, 2) (3 hops) and 64 to (0, 1); (0, 1) sends 32 back."""
    shape = TensorType(i8, (1, 4, 4, 16))
    cores = [
        isa.CoreOp(
            (0, 0),
            [isa.SendOp(256, 0, (1, 2), 0), isa.SendOp(64, 0, (0, 1), 1), isa.RecvOp(32, 512, (0, 1), 2)]
            + [isa.ReluOp([isa.TileAttr(0, shape)], isa.TileAttr(1024, shape)), isa.SyncOp(0)],
        ),
        isa.CoreOp((0, 1), [isa.RecvOp(64, 0, (0, 0), 1), isa.SendOp(32, 0, (0, 0), 2), isa.SyncOp(0)]),
        isa.CoreOp((1, 2), [isa.RecvOp(256, 0, (0, 0), 0), isa.SyncOp(0)]),
    ]
    return ModuleOp([isa.ProgramOp("p", "tianjicx", cores)])


def test_link_load_draws_each_used_link_direction_once():
    measured = measure_module(two_core_program())
    drawing = link_load_svg(measured)
    assert drawing.count("<line") == len(measured.machine.link_bytes) == 4
    assert "(0, 0) → (0, 1): 320 B" in drawing  # 256 B towards (1, 2) and 64 B to (0, 1) share the link
    assert "(0, 1) → (0, 0): 32 B" in drawing
    assert f'stroke="{heat_colour(1.0)}"' in drawing


def test_an_isa_program_gives_rows_per_instruction_kind_and_touched_tiles():
    measured = measure_module(two_core_program())
    assert measured.matrix is None
    assert {layer.name for layer in measured.layers} == {"isa.send", "isa.recv", "isa.relu"}
    sends = next(layer for layer in measured.layers if layer.name == "isa.send")
    assert sends.sent_bytes == 256 + 64 + 32
    ranges = {(b.address, b.size): b.kind for b in measured.memory if b.core == (0, 0)}
    assert ranges.keys() == {(0, 256), (0, 64), (512, 32), (1024, 256)}  # sends, the receive, relu's tiles
    assert ranges[(1024, 256)] == "activation"
    assert len(memory_svgs(measured)) == 3


def test_live_bytes_count_overlapping_blocks_once():
    blocks = [
        MemoryBlock((0, 0), 0, 1, 0, 100, "weight", "a"),
        MemoryBlock((0, 0), 1, 2, 50, 100, "activation", "b"),
        MemoryBlock((0, 0), 0, 0, 300, 10, "bias", "c"),
    ]
    assert [live_bytes(blocks, phase) for phase in range(4)] == [110, 150, 100, 0]


def test_consecutive_runs():
    assert consecutive_runs([0, 1, 2, 5, 7, 8]) == [(0, 2), (5, 5), (7, 8)]
    assert consecutive_runs([4]) == [(4, 4)]


def test_the_page_is_self_contained_and_has_every_part(tiny_measured):
    page = report_html(mapped("tiny"), source="tiny.mlir")
    assert page.startswith("<!DOCTYPE html>")
    assert not EXTERNAL.search(page)
    assert "http" not in page
    assert "<script" not in page
    assert "@import" not in page
    assert "url(" not in page
    for heading in ("Mesh per phase", "Timeline", "NoC link load", "Local memory per core", "Layers"):
        assert f"<h2>{heading}" in page
    assert page.count("<details") == len(tiny_measured.machine.phase_cycles)
    assert page.count("<tr>") == 1 + len(tiny_measured.layers)


@pytest.fixture
def lenet_files(tmp_path: Path) -> dict[str, Path]:
    files = {"plain": tmp_path / "lenet.mlir", "placed": tmp_path / "placed.mlir", "isa": tmp_path / "isa.mlir"}
    files["plain"].write_text(module_text(build_network("lenet")))
    files["placed"].write_text(module_text(mapped("lenet", allocate=False)))
    module = build_network("lenet")
    StcPipelinePass(target="tianjicx", iterations=200).apply(Context(), module)
    files["isa"].write_text(module_text(module))
    return files


def test_the_tool_writes_the_page_of_a_compiled_network(lenet_files, tmp_path):
    out = tmp_path / "report.html"
    result = CliRunner().invoke(stc_report, [str(lenet_files["isa"]), "-o", str(out), "--seed", "7"])
    assert result.exit_code == 0, result.output
    page = out.read_text()
    assert "random int8 inputs (seed 7)" in page
    assert "@lenet on tianjicx" in page
    assert "<td>isa.conv</td>" in page


def test_the_tool_maps_a_task_graph_as_the_pipeline_does(lenet_files, tmp_path):
    out = tmp_path / "report.html"
    result = CliRunner().invoke(stc_report, [str(lenet_files["plain"]), "--target", "tianjicx", "-o", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text()
    assert "<h2>Mesh per phase" in page
    assert re.search(r"<td>conv \d+ \(6×5×5×1\)</td>", page)
    again = CliRunner().invoke(stc_report, [str(lenet_files["isa"]), "--target", "tianjicx", "-o", str(out)])
    assert again.exit_code == 1
    assert "stc-report: error: --target maps a task graph that has no st.mapping yet" in again.output


@pytest.mark.parametrize(
    ("which", "message"),
    [
        ("plain", "stc-report: error: task.graph @lenet has no st.mapping; a report needs a mapped graph"),
        ("placed", "has no st.addr; run st-lmem-alloc first"),
        ("missing", "stc-report: error: no such file "),
    ],
)
def test_errors_are_one_message_and_exit_1(lenet_files, tmp_path, which, message):
    path = lenet_files.get(which, tmp_path / "missing.mlir")
    result = CliRunner().invoke(stc_report, [str(path), "-o", str(tmp_path / "r.html")])
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.skipif(os.environ.get("STC_BROWSER_TESTS") != "1", reason="opt-in: STC_BROWSER_TESTS=1")
@pytest.mark.skipif(shutil.which("chromium") is None, reason="needs Debian's chromium package")
def test_chromium_renders_the_page(tmp_path):
    page = tmp_path / "report.html"
    page.write_text(report_html(mapped("tiny"), source="tiny.mlir"))
    png = take_screenshot(page, tmp_path / "shot.png", tmp_path / "profile")
    assert not screenshot_is_blank(png)
