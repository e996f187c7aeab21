"""The whole path: zoo networks through stc-pipeline to per-core programs, run on the
machine bit-identically to the golden executor, on every target."""

import itertools

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.ir_files import stc_context
from stc.compiler.memory.allocation import AllocationError, Memory, Request, allocate, peak_live_bytes
from stc.compiler.zoo import build_network
from stc.passes.isa_lower import IsaLowerPass
from stc.passes.st_lmem_alloc import StLmemAllocPass
from stc.passes.stc_pipeline import StcPipelinePass
from stc.runtime.golden import find_graph, random_inputs, run_module
from stc.runtime.machine import run_isa_module

TARGETS = ["tianjicx", "set-8x8", "tpu-like", "aie-ml"]


def compiled_against_golden(network: str, target: str, seed: int = 0) -> dict:
    module = build_network(network)
    inputs = random_inputs(find_graph(module), seed)
    expected = run_module(module, inputs)
    StcPipelinePass(target=target, iterations=2000).apply(Context(), module)
    module.verify()
    outputs, counters = run_isa_module(module, inputs)
    assert outputs.keys() == expected.keys()
    for name, array in expected.items():
        np.testing.assert_array_equal(outputs[name], array)
    return counters


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("network", ["tiny", "lenet"])
def test_small_networks_compile_bit_exactly_on_every_target(network: str, target: str):
    counters = compiled_against_golden(network, target)
    assert counters["macs"] > 0


def test_resnet18_on_tianjicx_runs_bit_exactly_and_counts_its_macs():
    counters = compiled_against_golden("resnet18", "tianjicx")
    assert counters["macs"] == 1_814_073_344
    assert counters["noc_bytes"] > 0


def test_tpu_like_converts_layouts_with_vec_trans_scatter():
    module = build_network("tiny")
    StcPipelinePass(target="tpu-like", iterations=0).apply(Context(), module)
    names = [op.name for op in module.walk()]
    assert "isa.vec_trans_scatter" in names
    assert "isa.copy" in names


@pytest.mark.parametrize("stage", [IsaLowerPass(), StLmemAllocPass()])
def test_an_unmapped_graph_is_refused_naming_the_missing_pass(stage):
    module = build_network("tiny")
    with pytest.raises(PassFailedException, match="has no st.mapping; run st-place first"):
        stage.apply(stc_context(), module)


def test_the_allocator_keeps_live_regions_apart_aligned_and_inside_banks():
    requests = [
        Request("weight", 96, 32, 0, 3, "weight"),
        Request("a", 40, 16, 0, 1, "a"),
        Request("b", 40, 16, 1, 2, "b"),
        Request("c", 64, 16, 2, 3, "c"),
    ]
    addresses = allocate(requests, Memory(256, (128, 128)))
    for first, second in itertools.combinations(requests, 2):
        if first.start <= second.end and second.start <= first.end:
            a, b = addresses[first.key], addresses[second.key]
            assert a + first.size <= b or b + second.size <= a
    for request in requests:
        address = addresses[request.key]
        assert address % request.alignment == 0
        assert address + request.size <= 256
        assert address // 128 == (address + request.size - 1) // 128
    assert peak_live_bytes(requests) == 200


def test_the_allocator_names_the_time_and_the_live_bytes_when_full():
    requests = [Request("a", 96, 16, 0, 1, "a"), Request("b", 96, 16, 1, 2, "b")]
    with pytest.raises(AllocationError) as error:
        allocate(requests, Memory(128))
    assert (error.value.time, error.value.needed, error.value.usable) == (1, 192, 128)
