"""
The network zoo: real networks with their true layer shapes as task graphs.

    module = build_network("resnet50", batch=1)

Each network is a function that describes it to a `NetworkBuilder`, in a module of this
package imported only when asked for. Shifts are calibrated at batch 1 and reused for any
batch, so a network computes the same function whatever its batch.
"""

from __future__ import annotations

from importlib import import_module

from xdsl.dialects.builtin import ModuleOp

from stc.compiler.diagnostics import StcError
from stc.compiler.zoo.builder import NetworkBuilder

NETWORKS: dict[str, str] = {
    "tiny": "stc.compiler.zoo.tiny:tiny",
    "lenet": "stc.compiler.zoo.lenet:lenet",
    "resnet18": "stc.compiler.zoo.resnet:resnet18",
    "resnet50": "stc.compiler.zoo.resnet:resnet50",
    "resnet50-v1": "stc.compiler.zoo.resnet:resnet50_v1",
    "vgg19": "stc.compiler.zoo.vgg:vgg19",
    "vgg19-conv": "stc.compiler.zoo.vgg:vgg19_conv",
    "darknet19": "stc.compiler.zoo.darknet:darknet19",
    "googlenet": "stc.compiler.zoo.googlenet:googlenet",
}
"""Network name → `module:function` that builds it."""


def network_names() -> list[str]:
    return list(NETWORKS)


def build_network(name: str, batch: int = 1) -> ModuleOp:
    """The named network as a verified module holding one `task.graph`."""
    if name not in NETWORKS:
        raise StcError(f"unknown network {name!r}; the zoo has {', '.join(NETWORKS)}")
    if batch < 1:
        raise StcError(f"batch must be at least 1, got {batch}")
    module_name, function = NETWORKS[name].split(":")
    describe = getattr(import_module(module_name), function)
    calibration = NetworkBuilder(name)
    describe(calibration)
    if batch == 1:
        return calibration.finish()
    builder = NetworkBuilder(name, batch, shifts=calibration.shifts())
    describe(builder)
    return builder.finish()
