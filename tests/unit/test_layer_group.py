"""task-layer-group: the seed's halo rule, backward-H against brute force, the searches,
and grouped networks (random and zoo) computing bit-identically before and after lowering."""

from pathlib import Path

import attrs
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_task_split import parse
from xdsl.context import Context
from xdsl.utils.exceptions import PassFailedException

from stc.compiler import targets
from stc.compiler.grouping.layers import Layer, LayerGraph, Window
from stc.compiler.grouping.price import StepWork, step_cycles, timeline_cycles
from stc.compiler.grouping.rewrite import write_groups
from stc.compiler.grouping.search import Groups
from stc.compiler.grouping.slicing import SlicingRefused, backward_rows, duplicated_rows, slice_group
from stc.compiler.grouping.timesteps import fits, plan_group
from stc.compiler.references import references_within
from stc.compiler.targets.hardware import load_target
from stc.compiler.zoo import build_network
from stc.compiler.zoo.builder import NetworkBuilder
from stc.dialects import task
from stc.dialects.st import STORE_LATE
from stc.dialects.task import window_output_size
from stc.dialects.task.stats import tensor_bytes
from stc.passes.isa_lower import IsaLowerPass
from stc.passes.st_lmem_alloc import StLmemAllocPass
from stc.passes.st_place import StPlacePass
from stc.passes.st_route import StRoutePass
from stc.passes.stc_pipeline import StcPipelinePass
from stc.passes.task_layer_group import TaskLayerGroupPass
from stc.passes.task_split import TaskSplitPass
from stc.runtime.golden import find_graph, random_inputs, run_module
from stc.runtime.machine import run_isa_module


def test_the_seeds_halo_example():
    """h = 100: [0, 80) and [20, 100) duplicate 60 rows (> 50, refused), [0, 60) and
    [20, 100) 40 (accepted)."""
    assert duplicated_rows([(0, 80), (20, 100)]) == 60
    assert duplicated_rows([(0, 60), (20, 100)]) == 40
    assert duplicated_rows([(0, 10), (10, 20), (20, 30)]) == 0
    assert duplicated_rows([(0, 12), (8, 22), (18, 30)]) == 8


def window_layer(height: int, kernel: int, stride: int, dilation: int, pad: tuple[int, int]) -> Layer:
    extent = dilation * (kernel - 1) + 1
    out = window_output_size(height, kernel, stride, pad[0], pad[1], dilation)
    return Layer(
        0,
        "task.conv",
        (1, out, 1, 1),
        1,
        "activation",
        height,
        Window(stride, extent, pad[0], kernel),
        False,
        0,
        True,
        (),
        (),
        (),
    )


@settings(max_examples=60, deadline=None)
@given(
    height=st.integers(1, 40),
    kernel=st.integers(1, 5),
    stride=st.integers(1, 4),
    dilation=st.integers(1, 3),
    pads=st.tuples(st.integers(0, 12), st.integers(0, 12)),
    data=st.data(),
)
def test_backward_rows_cover_every_window_and_keep_the_window_count(height, kernel, stride, dilation, pads, data):
    """Output rows [a, b) read rows that hold every input row their windows touch, and the
    slice's rows plus its pads give exactly b − a windows."""
    extent = dilation * (kernel - 1) + 1
    assume(max(pads) < extent)
    out = window_output_size(height, kernel, stride, pads[0], pads[1], dilation)
    assume(out >= 1)
    a = data.draw(st.integers(0, out - 1))
    b = data.draw(st.integers(a + 1, out))
    (lo, hi), (top, bottom) = backward_rows(window_layer(height, kernel, stride, dilation, pads), (a, b))
    touched = [w * stride - pads[0] + t * dilation for w in range(a, b) for t in range(kernel)]
    inside = [row for row in touched if 0 <= row < height] or [lo]
    assert 0 <= lo <= min(inside)
    assert max(inside) < hi <= height
    assert max(top, bottom) < extent
    assert window_output_size(hi - lo, kernel, stride, top, bottom, dilation) == b - a


def random_network(draw: st.DrawFn) -> NetworkBuilder:
    """A small random network: convs (strides, pads, dilations along y), a pool, relus, a
    residual add and a concatenation, at batch 1 or 2. Rows and batch items are multiples
    of 64 bytes, tpu-like's DMA alignment, which isa-lower needs where a buffer gathers
    several pieces from global memory."""
    batch = draw(st.integers(1, 2))
    builder = NetworkBuilder("random", batch=batch, seed=draw(st.integers(0, 1000)))
    x = builder.input("x", 16, draw(st.integers(6, 16)), 8)
    pooled = False
    for _ in range(draw(st.integers(1, 4))):
        choice = draw(st.sampled_from(["conv", "pool", "residual", "concat"]))
        if choice == "conv":
            kernel, dilation = draw(st.integers(1, 3)), draw(st.integers(1, 2))
            extent = dilation * (kernel - 1) + 1
            pad = draw(st.integers(0, extent - 1))
            if extent > x.shape[1] + 2 * pad:
                continue
            stride = (draw(st.integers(1, 2)), 1)
            x = builder.conv(x, 16, (kernel, 1), stride, (pad, pad, 0, 0), (dilation, 1), draw(st.booleans()))
        elif choice == "pool" and not pooled and x.shape[1] >= 2:
            x = builder.maxpool(x, 2, 2) if draw(st.booleans()) else builder.avgpool(x, 2, 2)
            pooled = True
        elif choice == "residual":
            x = builder.add_branches([x, builder.conv(x, x.channels, (3, 1), 1, (1, 1, 0, 0), relu=True)], relu=True)
        elif choice == "concat":
            x = builder.concat([x, builder.conv(x, 16, (3, 1), 1, (1, 1, 0, 0))])
    builder.output("y", x)
    return builder


@st.composite
def grouped_network(draw: st.DrawFn):
    """A random network's text, a run of its layers (one layer when the run drawn is not
    connected) and a slicing the halo rule allows (h = 1 when the one drawn is refused)."""
    builder = random_network(draw)
    module = builder.finish()
    layers = LayerGraph(find_graph(module), load_target("tpu-like"))
    start = draw(st.integers(0, len(layers) - 1))
    stop = draw(st.integers(start + 1, len(layers)))
    members = tuple(layer.task_id for layer in layers.ops[start:stop])
    if not layers.is_connected(members):
        members = members[:1]
    n, h = draw(st.integers(1, builder.batch)), draw(st.integers(1, 4))
    try:
        slice_group(layers, members, n, h)
    except SlicingRefused:
        h = 1
    return str(module), members, (n, h)


def run_against(module, reference, base_dir: Path | None = None) -> None:
    inputs = random_inputs(find_graph(reference), 0)
    expected = run_module(reference, inputs)
    for name, array in run_module(module, inputs).items():
        np.testing.assert_array_equal(array, expected[name])
    for stage in (StPlacePass(iterations=0), StRoutePass(), StLmemAllocPass(), IsaLowerPass()):
        stage.apply(Context(), module)
    module.verify()
    outputs, _ = run_isa_module(module, inputs, base_dir=base_dir)
    for name, array in expected.items():
        np.testing.assert_array_equal(outputs[name], array)


GDMA = Path(__file__).parents[1] / "lit" / "task-layer-group" / "Inputs" / "tpu-gdma.toml"
"""tpu-like whose DMA overlaps compute: groups load ahead there (software pipelining)."""


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=grouped_network())
def test_random_groups_compute_exactly_when_loads_run_ahead(case):
    """The same random groups on a target whose DMA overlaps compute, where the pass loads
    group inputs and weights a timestep early when that is cheaper: bit-identical."""
    text, members, slices = case
    module, reference = parse(text), parse(text)
    with references_within([GDMA.parent]):
        TaskLayerGroupPass(target=str(GDMA), group=members, slices=slices).apply(Context(), module)
        module.verify()
        run_against(module, reference, GDMA.parent)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=grouped_network())
def test_random_groups_compute_exactly_when_stores_run_late(case):
    """The same random groups on a target whose DMA overlaps compute, written with every
    result a later group reads stored one timestep late (the plan forced, not chosen by
    price): bit-identical on the machine, each late result's tile living one timestep
    longer without overlapping any other region (the local-memory verifier), and as many
    DRAM bytes as without delaying."""
    text, members, slices = case
    reference = parse(text)
    hardware = load_target(str(GDMA))
    dram = {}
    with references_within([GDMA.parent]):
        for delayed in (True, False):
            module = parse(text)
            graph = find_graph(module)
            layers = LayerGraph(graph, hardware)
            groups = Groups(layers, hardware)
            plan = plan_group(layers, slice_group(layers, members, *slices), hardware, delayed=delayed)
            if not fits(plan, groups.memory):
                return
            alone = [groups.single(p) for p, op in enumerate(layers.ops) if op.task_id not in members]
            chosen = sorted([*alone, groups.priced(plan)], key=lambda group: layers.position[group.members[0]])
            module.body.block.add_op(write_groups(graph, chosen, str(GDMA), hardware))
            late = [op for op in graph.tasks() if STORE_LATE in op.attributes]
            assert bool(late) <= delayed
            run_against(module, reference, GDMA.parent)
            dram[delayed] = run_isa_module(module, random_inputs(graph, 0), base_dir=GDMA.parent)[1]["dram_bytes"]
    assert dram[True] == dram[False]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=grouped_network())
def test_random_groups_compute_exactly_before_and_after_lowering(case):
    """A random run of layers of a random network, sliced a random way that the halo rule
    allows, computes bit-identically on the golden executor and on the machine."""
    text, members, slices = case
    module, reference = parse(text), parse(text)
    TaskLayerGroupPass(group=members, slices=slices).apply(Context(), module)
    module.verify()
    run_against(module, reference)


ZOO_CASES = [("tiny", "dp"), ("tiny", "greedy"), ("lenet", "dp"), ("lenet", "greedy"), ("googlenet", "dp")]


@pytest.mark.parametrize(("network", "strategy"), ZOO_CASES)
def test_zoo_networks_grouped_compute_exactly(network: str, strategy: str):
    module = build_network(network)
    reference = module.clone()
    TaskLayerGroupPass(strategy=strategy).apply(Context(), module)
    module.verify()
    run_against(module, reference)


def test_the_pipeline_keeps_lenets_activations_local_on_tpu_like():
    """Grouped, LeNet moves only its weights, biases, input and output through global
    memory: fewer DRAM bytes than layer by layer, measured by the machine."""
    counters = {}
    for group in ("best", "none"):
        module = build_network("lenet")
        inputs = random_inputs(find_graph(module), 0)
        StcPipelinePass(target="tpu-like", group=group).apply(Context(), module)
        _, counters[group] = run_isa_module(module, inputs)
    assert counters["best"]["dram_bytes"] < counters["none"]["dram_bytes"]
    graph = find_graph(build_network("lenet"))
    loaded = [op.result.type for op in graph.tasks() if isinstance(op, task.DataOp | task.InputOp)]
    stored = [op.source.type for op in graph.outputs()]
    compulsory = sum(tensor_bytes(typ) for typ in loaded + stored)
    assert counters["best"]["dram_bytes"] == compulsory


def small_tpu(tmp_path: Path, capacity: int, overlap: bool = False) -> str:
    """tpu-like with `capacity` bytes of local memory in four banks, as a TOML file; with
    `overlap`, its DMA runs beside its compute (`global_memory.dma_overlaps_compute`)."""
    text = (Path(targets.__file__).parent / "tpu-like.toml").read_text()
    bandwidth = "bandwidth_bytes_per_cycle = 64.0  # assumed\n"
    for old, new in [
        (bandwidth, bandwidth + ("dma_overlaps_compute = true\n" if overlap else "")),
        ("capacity_bytes = 16777216", f"capacity_bytes = {capacity}"),
        ("memory_bytes = 16777216", f"memory_bytes = {capacity}"),
        ("count = 16", "count = 4"),
        ("capacity_bytes = 1048576", f"capacity_bytes = {capacity // 4}"),
        ('name = "tpu-like"', 'name = "tpu-small"'),
    ]:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "tpu-small.toml"
    path.write_text(text)
    return str(path)


def concat_network(batch: int):
    """Two branches concatenated (a 1×1 conv, a 3×3 conv and a relu), then a maxpool: one
    buffer with two writers. Rows are 64 bytes, tpu-like's DMA alignment."""
    builder = NetworkBuilder("concat", batch=batch, seed=3)
    x = builder.input("x", 16, 8, 4)
    y = builder.concat([builder.conv(x, 16, 1), builder.conv(x, 16, 3, 1, 1, relu=True)])
    builder.output("y", builder.maxpool(y, 2, 2))
    return builder.finish()


NETWORKS = {
    "tiny": lambda batch: build_network("tiny", batch=batch),
    "lenet": lambda batch: build_network("lenet", batch=batch),
    "concat": concat_network,
}


@pytest.mark.parametrize("network", ["tiny", "lenet", "concat"])
def test_a_small_local_memory_makes_the_searches_slice(tmp_path: Path, network: str):
    """On a tpu-like of 64 KB (8 KB for the concatenation), batch-2 networks need N and H
    slices: the pipeline's groups are sliced, compute bit-identically before lowering (the
    golden executor) and on the machine, and move fewer DRAM bytes, exactly as many as the
    groups' plan predicts."""
    target = small_tpu(tmp_path, 8192 if network == "concat" else 65536)
    with references_within([tmp_path]):
        module = NETWORKS[network](2)
        inputs = random_inputs(find_graph(module), 0)
        expected = run_module(module, inputs)
        counters = {}
        for group in ("best", "none"):
            module = NETWORKS[network](2)
            StcPipelinePass(target=target, group=group).apply(Context(), module)
            outputs, counters[group] = run_isa_module(module, inputs, base_dir=tmp_path)
            for name, array in expected.items():
                np.testing.assert_array_equal(outputs[name], array)
        assert counters["best"]["dram_bytes"] < counters["none"]["dram_bytes"]
        module = NETWORKS[network](2)
        TaskSplitPass(fit=target).apply(Context(), module)
        hardware = load_target(target)
        groups = Groups(LayerGraph(find_graph(module), hardware), hardware).search("best")
        assert sum(group.plan.work.dram_bytes for group in groups) == counters["best"]["dram_bytes"]
        TaskLayerGroupPass(target=target, strategy="best").apply(Context(), module)
        tasks = find_graph(module).tasks()
        assert max(op.attributes["lg.slice"].value.data for op in tasks if "lg.slice" in op.attributes) > 0
        for name, array in run_module(module, inputs).items():
            np.testing.assert_array_equal(array, expected[name])


@pytest.mark.parametrize("network", ["tiny", "lenet"])
def test_pipelined_slices_compute_exactly_in_fewer_cycles(tmp_path: Path, network: str):
    """On a 64 KB tpu-like whose DMA overlaps compute, batch-2 networks are sliced, and
    some group inputs are loaded a timestep before their reader (software pipelining):
    bit-identical on the machine, as many DRAM bytes as the groups' plan predicts, and
    fewer cycles than with `pipeline=false`, measured in the same run."""
    target = small_tpu(tmp_path, 65536, overlap=True)
    hardware = load_target(target)
    with references_within([tmp_path]):
        module = NETWORKS[network](2)
        inputs = random_inputs(find_graph(module), 0)
        expected = run_module(module, inputs)
        counters, early, planned = {}, {}, {}
        for pipeline in (True, False):
            module = NETWORKS[network](2)
            TaskSplitPass(fit=target).apply(Context(), module)
            groups = Groups(LayerGraph(find_graph(module), hardware), hardware, pipeline).search("best")
            early[pipeline] = sum(group.plan.pipelined for group in groups)
            planned[pipeline] = sum(group.plan.work.dram_bytes for group in groups)
            TaskLayerGroupPass(target=target, strategy="best", pipeline=pipeline).apply(Context(), module)
            for stage in (StPlacePass(target=target), StRoutePass(), StLmemAllocPass(), IsaLowerPass()):
                stage.apply(Context(), module)
            outputs, counters[pipeline] = run_isa_module(module, inputs, base_dir=tmp_path)
            for name, array in expected.items():
                np.testing.assert_array_equal(outputs[name], array)
    assert (early[True] > 0, early[False]) == (True, 0)
    assert [counters[p]["dram_bytes"] for p in (True, False)] == [planned[True], planned[False]]
    assert counters[True]["cycles"] < counters[False]["cycles"]


@pytest.mark.parametrize(("network", "capacity"), [("tiny", 40960), ("lenet", 49152)])
def test_delayed_stores_compute_exactly_on_zoo_networks(tmp_path: Path, network: str, capacity: int):
    """On a tpu-like of 40 or 48 KB whose DMA overlaps compute, batch-2 networks are sliced
    and some group outputs are stored a timestep late (`st.store_late`), where the price
    says that pays: bit-identical before lowering (golden executor) and after (machine),
    with the DRAM bytes the plan predicts, the same as with `delay=false`, in fewer machine
    cycles."""
    target = small_tpu(tmp_path, capacity, overlap=True)
    hardware = load_target(target)
    with references_within([tmp_path]):
        reference = NETWORKS[network](2)
        counters = {}
        for delay in (True, False):
            module = NETWORKS[network](2)
            TaskSplitPass(fit=target).apply(Context(), module)
            groups = Groups(LayerGraph(find_graph(module), hardware), hardware, delay=delay).search("best")
            planned = sum(group.plan.work.dram_bytes for group in groups)
            TaskLayerGroupPass(target=target, strategy="best", delay=delay).apply(Context(), module)
            late = [op for op in find_graph(module).tasks() if STORE_LATE in op.attributes]
            assert (len(late) > 0) == delay
            run_against(module, reference, tmp_path)
            counters[delay] = run_isa_module(module, random_inputs(find_graph(reference), 0), base_dir=tmp_path)[1]
            assert counters[delay]["dram_bytes"] == planned
    assert counters[True]["dram_bytes"] == counters[False]["dram_bytes"]
    assert counters[True]["cycles"] < counters[False]["cycles"]


def test_stores_are_delayed_one_by_one_where_that_pays(tmp_path: Path):
    """tiny at batch 2 on a 40 KB tpu-like whose DMA overlaps compute: some group the
    searches weigh stores only some of its outputs late, priced below storing all of them
    late and below storing none; compiled alone (`group=`, `slices=`), it computes
    bit-identically, marks only those members `st.store_late`, and the machine takes fewer
    cycles than with `delay=false`."""
    target = small_tpu(tmp_path, 40960, overlap=True)
    hardware = load_target(target)
    with references_within([tmp_path]):
        reference = build_network("tiny", batch=2)
        module = build_network("tiny", batch=2)
        TaskSplitPass(fit=target).apply(Context(), module)
        layers = LayerGraph(find_graph(module), hardware)
        groups = Groups(layers, hardware)
        groups.search("best")
        partial = []
        for group in filter(None, groups.known.values()):
            plan = group.plan
            every = plan_group(layers, plan.slicing, hardware, plan.hoisted, plan.pipelined, True)
            none = plan_group(layers, plan.slicing, hardware, plan.hoisted, plan.pipelined, False)
            if plan.late and plan.late < every.late:
                partial.append(group)
                assert group.cycles < timeline_cycles(every.timeline, hardware)
                assert group.cycles < timeline_cycles(none.timeline, hardware)
        assert partial
        chosen = partial[0]
        counters = {}
        for delay in (True, False):
            module = build_network("tiny", batch=2)
            TaskSplitPass(fit=target).apply(Context(), module)
            slices = (chosen.plan.slicing.n, chosen.plan.slicing.h)
            TaskLayerGroupPass(target=target, group=chosen.members, slices=slices, delay=delay).apply(Context(), module)
            late = {op.task_id for op in find_graph(module).tasks() if STORE_LATE in op.attributes}
            assert len(late) == (len(chosen.plan.late) if delay else 0)
            run_against(module, reference, tmp_path)
            counters[delay] = run_isa_module(module, random_inputs(find_graph(reference), 0), base_dir=tmp_path)[1]
    assert counters[True]["cycles"] < counters[False]["cycles"]


@pytest.mark.parametrize(("network", "target"), [("tiny", "tianjicx"), ("lenet", "tianjicx"), ("tiny", "set-8x8")])
def test_many_core_groups_keep_intermediates_in_the_cores(network: str, target: str):
    """On a many-core target the group's buffers are held on their readers' cores: the
    programs compute bit-identically and move fewer DRAM bytes than layer by layer."""
    module = build_network(network)
    inputs = random_inputs(find_graph(module), 0)
    expected = run_module(module, inputs)
    counters = {}
    for group in ("best", "none"):
        module = build_network(network)
        StcPipelinePass(target=target, group=group, iterations=200, search=False).apply(Context(), module)
        outputs, counters[group] = run_isa_module(module, inputs)
        for name, array in expected.items():
            np.testing.assert_array_equal(outputs[name], array)
    assert counters["best"]["dram_bytes"] < counters["none"]["dram_bytes"]


SMALL_MESH = Path(__file__).parents[1] / "lit" / "task-layer-group" / "Inputs" / "tianjicx-1x3.toml"
"""Three tianjicx cores of 6 KB usable: a group's held buffers compete for room there."""


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=grouped_network())
def test_random_groups_on_a_crowded_mesh_compute_exactly_and_spare_global_memory(case):
    """A random network through stc-pipeline on three small cores, where st-place keeps
    room for the held buffers: bit-identical, grouped and layer by layer, and grouping
    stores no more bytes to global memory than layer by layer."""
    text, _, _ = case
    reference = parse(text)
    inputs = random_inputs(find_graph(reference), 0)
    expected = run_module(reference, inputs)
    written = {}
    with references_within([SMALL_MESH.parent]):
        for group in ("best", "none"):
            module = parse(text)
            try:
                StcPipelinePass(target=str(SMALL_MESH), group=group, iterations=100).apply(Context(), module)
            except PassFailedException as error:
                assume("split it further" not in str(error) and "overflows" not in str(error))
                raise
            outputs, counters = run_isa_module(module, inputs, base_dir=SMALL_MESH.parent)
            for name, array in expected.items():
                np.testing.assert_array_equal(outputs[name], array)
            written[group] = counters["dram_write_bytes"]
    assert written["best"] <= written["none"]


def test_searches_agree_on_one_group_when_everything_fits():
    target = load_target("tpu-like")
    layers = LayerGraph(find_graph(build_network("tiny")), target)
    groups = Groups(layers, target)
    for found in (groups.greedy(), groups.dp()):
        assert [group.members for group in found] == [tuple(layer.task_id for layer in layers.ops)]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"strategy": "cheapest"}, "task-layer-group: unknown strategy 'cheapest'; expected dp, greedy or best"),
        ({"slices": (1, 2)}, "task-layer-group: `slices` is n,h and needs a `group`"),
        ({"group": (4, 10)}, "task-layer-group: group [4, 10] is not a run of consecutive layers: task.relu 6 lies"),
        ({"group": (4, 99)}, "task-layer-group: task.graph @tiny has no compute block 99"),
        ({"group": (4, 6), "slices": (1, 17)}, "task-layer-group: group [4, 6] sliced n=1 h=17: task.relu 6 has 16"),
        ({"group": (4, 6), "slices": (2, 1)}, "task-layer-group: group [4, 6] sliced n=2 h=1: cannot cut a batch"),
        (
            {"target": "tianjicx", "group": (4, 6), "slices": (1, 2)},
            "task-layer-group: tianjicx has 160 cores: a group's",
        ),
    ],
)
def test_bad_options_are_refused_in_one_line(options, message):
    with pytest.raises(PassFailedException) as error:
        TaskLayerGroupPass(**options).apply(Context(), build_network("tiny"))
    assert str(error.value).startswith(message)


def test_only_a_prefetch_hides_behind_compute_when_dma_overlaps_it():
    """2 compute cycles and 10 DMA cycles: 12 one after the other; where DMA overlaps
    compute, a load the timestep computes on still comes first (12), a load for a later
    timestep runs beside the compute (10)."""
    target = load_target("tpu-like")
    overlapping = target.with_global_memory(dma_overlaps_compute=True)
    own, ahead = StepWork(compute=2, loaded=10), StepWork(compute=2, prefetched=10)
    assert step_cycles(own, target) == step_cycles(ahead, target) == 12
    assert (step_cycles(own, overlapping), step_cycles(ahead, overlapping)) == (12, 10)


def test_a_delayed_store_hides_behind_the_next_timesteps_compute():
    """2 compute cycles and 10 DMA cycles: a store after the timestep's compute takes 12
    either way; stored in the next timestep, where DMA overlaps compute, it runs beside
    that timestep's compute (10), and with a prefetch there the two share the DMA."""
    target = load_target("tpu-like")
    overlapping = target.with_global_memory(dma_overlaps_compute=True)
    now, late = StepWork(compute=2, stored=10), StepWork(compute=2, delayed=10)
    assert step_cycles(now, target) == step_cycles(late, target) == 12
    assert (step_cycles(now, overlapping), step_cycles(late, overlapping)) == (12, 10)
    assert step_cycles(StepWork(compute=2, prefetched=10, delayed=10), overlapping) == 20


def test_a_store_waits_for_its_layer_not_the_copies_after_it():
    """Where DMA overlaps compute, a result's store starts once its layer has run, beside
    the local copies isa-lower emits after it (5 of compute, 6 of copies: 5 + 18 = 23, not
    29), and an output's store once its staging has written the bytes it reads (the last
    4 cycles write padding: 8 + 16 = 24, not 28). One after the other: the sum."""
    target = load_target("tpu-like")
    overlapping = target.with_global_memory(dma_overlaps_compute=True)
    spill = StepWork(compute=11, stored=18, after_store=6)
    assert (step_cycles(spill, overlapping), step_cycles(spill, target)) == (23, 29)
    output = StepWork(compute=12, output_stored=16, after_store=12, unread_tail=4)
    assert (step_cycles(output, overlapping), step_cycles(output, target)) == (24, 28)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(*(st.integers(0, 12) for _ in range(5)), st.booleans()),
        min_size=1,
        max_size=7,
    )
)
def test_the_late_stores_chosen_price_lowest(steps: list[tuple[int, int, int, int, int, bool]]):
    """`cheapest_late` against every set of stores that may move: none prices the
    timesteps lower than the set it returns (a store moved from t to t + 1 leaves t's
    `stored` for t + 1's `delayed`)."""
    from itertools import combinations
    from types import SimpleNamespace

    from stc.compiler.grouping.search import cheapest_late

    target = load_target("tpu-like").with_global_memory(dma_overlaps_compute=True)
    timeline = [
        StepWork(compute=c, loaded=dma, prefetched=p, stored=s if movable else 0, after_store=min(a, c))
        for c, dma, p, s, a, movable in steps
    ]
    movable = [t for t, step in enumerate(timeline[:-1]) if step.stored]
    late_timeline = [attrs.evolve(step) for step in timeline]
    for t in movable:
        late_timeline[t + 1] = attrs.evolve(late_timeline[t + 1], delayed=timeline[t].stored)
    every = SimpleNamespace(late=frozenset(movable), timeline=late_timeline)

    def price(late: frozenset[int]) -> int:
        moved = list(timeline)
        for t in late:
            moved[t] = attrs.evolve(moved[t], stored=0)
            moved[t + 1] = attrs.evolve(moved[t + 1], delayed=moved[t + 1].delayed + timeline[t].stored)
        return timeline_cycles(moved, target)

    chosen = cheapest_late(timeline, every, target)  # pyright: ignore[reportArgumentType]
    assert chosen <= every.late
    subsets = (frozenset(c) for k in range(len(movable) + 1) for c in combinations(movable, k))
    assert price(chosen) == min(price(subset) for subset in subsets)


def test_staging_runs_on_the_compute_clock_after_its_load():
    """Where DMA overlaps compute, staging a network input waits for its load but not for
    the loads after it (5 + 14 beside 13, then 8 of compute: 27); staging a prefetched
    input waits for the prefetch and the compute before it (27 + 14 = 41), and a store
    waits for the compute that makes it (27 + 16 = 43). One after the other: the sum."""
    target = load_target("tpu-like")
    overlapping = target.with_global_memory(dma_overlaps_compute=True)
    step = StepWork(compute=8, loaded=13, input_loads=5, stage_in=14)
    assert (step_cycles(step, overlapping), step_cycles(step, target)) == (27, 35)
    ahead = StepWork(compute=8, loaded=13, input_loads=5, stage_in=14, prefetched=13, stage_ahead=14)
    assert (step_cycles(ahead, overlapping), step_cycles(ahead, target)) == (41, 62)
    stored = StepWork(compute=8, loaded=13, input_loads=5, stage_in=14, stored=16)
    assert step_cycles(stored, overlapping) == 43


def test_fit_counts_the_staging_of_a_network_input_on_nc1hwc0():
    """A conv reading ResNet-50's batch-8 image through 2 column pieces needs 13 MB of
    NC1HWC0 staging beside its input on tpu-like (st-lmem-alloc refused layer by layer for
    it): `fit` counts it there, and not on an hwc target, and a conv reading a buffer
    that no network input fills has none."""
    from stc.compiler.memory.plan import staging_bytes
    from stc.compiler.targets.hardware import ActivationLayout
    from stc.compiler.tiling.fit import PieceSizer

    target = load_target("tpu-like")
    hwc = attrs.evolve(target, activation_layout=ActivationLayout("hwc"))
    builder = NetworkBuilder("staged", batch=8, seed=5)
    first = builder.conv(builder.input("x", 3, 224, 224), 64, 7, 2, 3)
    builder.output("y", builder.conv(first, 8, 3, 2, 1))
    convs = [op for op in find_graph(builder.finish()).tasks() if isinstance(op, task.ConvOp)]
    counts = (1, 1, 2, 1, 1)
    staged, plain = PieceSizer(convs[0], target).regions(counts), PieceSizer(convs[0], hwc).regions(counts)
    assert len(staged) == len(plain) + 1
    assert staged[1] == staging_bytes((8, 224, 115, 3)) == 13_189_120  # 115 columns: the half and its halo
    assert len(PieceSizer(convs[1], target).regions(counts)) == len(PieceSizer(convs[1], hwc).regions(counts))
