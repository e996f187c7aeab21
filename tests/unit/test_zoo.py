"""Every zoo network verifies, executes at batch 1, keeps int8 activations in range, and
has its published multiply-accumulate count."""

import numpy as np
import pytest
from xdsl.parser import Parser

from stc.compiler.diagnostics import StcError
from stc.compiler.ir_files import module_text, stc_context
from stc.compiler.zoo import build_network, network_names
from stc.dialects.task.stats import graph_stats
from stc.runtime.data import DataStore
from stc.runtime.execution import ACCUMULATORS, GoldenExecutor
from stc.runtime.from_ops import plain_graph
from stc.runtime.golden import find_graph, random_inputs, run_module

PUBLISHED_MACS = {
    "lenet": (0.42e6, 0.02),
    "resnet18": (1.8e9, 0.02),
    "resnet50": (4.1e9, 0.02),
    "resnet50-v1": (3.86e9, 0.01),
    "vgg19": (19.6e9, 0.01),
    "vgg19-conv": (19.5e9, 0.01),
    "darknet19": (2.8e9, 0.02),
    "googlenet": (1.5e9, 0.06),
}
"""Published totals (conv and fc) and the relative tolerance; GoogLeNet's paper rounds
its 1.58 G (with the 5×5 branch) to "1.5 billion". ResNet-50 v1 and VGG-19's convolutions
match SET's layer tables exactly."""
EXACT_MACS = {
    "lenet": 416_520,
    "resnet18": 1_814_073_344,
    "resnet50": 4_089_184_256,
    "resnet50-v1": 3_857_973_248,
    "vgg19": 19_632_062_464,
    "vgg19-conv": 19_508_428_800,
    "darknet19": 2_790_989_824,
    "googlenet": 1_582_671_872,
}


@pytest.fixture(scope="module", params=[n for n in network_names()])
def network(request):
    return request.param, build_network(request.param)


def test_the_zoo_lists_every_network():
    assert set(network_names()) >= {"tiny", *PUBLISHED_MACS}


def test_network_verifies_and_has_its_mac_count(network):
    name, module = network
    module.verify()
    macs = graph_stats(find_graph(module))["macs"]
    if name in PUBLISHED_MACS:
        published, tolerance = PUBLISHED_MACS[name]
        assert abs(macs - published) <= tolerance * published
        assert macs == EXACT_MACS[name]


class SaturationRecorder(GoldenExecutor):
    """The golden executor, noting the share of each int8 compute result that saturates."""

    def __init__(self):
        super().__init__(DataStore())
        self.saturated: dict[str, float] = {}

    def evaluate(self, block, args):
        value = super().evaluate(block, args)
        if block.name in ACCUMULATORS and value.dtype == np.int8:
            self.saturated[f"{block.name} {block.id}"] = float(np.mean((value == 127) | (value == -128)))
        return value


def test_network_executes_with_activations_in_range(network):
    name, module = network
    graph = find_graph(module)
    recorder = SaturationRecorder()
    outputs = recorder.run(plain_graph(graph), random_inputs(graph, 11))
    worst = max(recorder.saturated, key=recorder.saturated.__getitem__)
    assert recorder.saturated[worst] < 0.01, f"{name}: {recorder.saturated[worst]:.1%} of {worst} saturates"
    for array in outputs.values():
        assert array.dtype == np.int8
        saturated = np.mean((array == 127) | (array == -128))
        assert saturated < 0.05, f"{name}: {saturated:.1%} of the outputs saturate"
        assert len(np.unique(array)) > min(array.size // 4, 8), f"{name}: outputs carry no information"


def test_network_text_round_trips(network):
    _, module = network
    text = module_text(module)
    reparsed = Parser(stc_context(), text).parse_module()
    reparsed.verify()
    assert module_text(reparsed) == text


def test_batches_are_independent_samples():
    batched = build_network("lenet", batch=3)
    assert find_graph(batched).inputs()[0].result.type.get_shape() == (3, 32, 32, 1)
    x = np.random.default_rng(0).integers(-128, 128, size=(3, 1, 32, 32), dtype=np.int8)
    together = run_module(batched, {"image": x})["logits"]
    single = build_network("lenet")
    for index in range(3):
        alone = run_module(single, {"image": x[index : index + 1]})["logits"]
        assert np.array_equal(together[index : index + 1], alone)


@pytest.mark.parametrize(
    ("name", "batch", "message"),
    [("alexnet", 1, "unknown network 'alexnet'"), ("lenet", 0, "batch must be at least 1")],
)
def test_bad_requests(name, batch, message):
    with pytest.raises(StcError, match=message):
        build_network(name, batch)
