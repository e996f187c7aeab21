"""
Pointwise ONNX functions that become a 256-entry lookup table (`task.lut`): for each op
type, the float function of one element, given the node's attributes.

    >>> function(Node("s", "Sigmoid", ("x",), ("y",), {}))(np.array([0.0]))
    array([0.5])
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from stc.compiler.frontend.onnx_model import Node

Function = Callable[[np.ndarray], np.ndarray]


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def hard_sigmoid(node: Node) -> Function:
    alpha, beta = node.attr("alpha", 0.2), node.attr("beta", 0.5)
    return lambda x: np.clip(alpha * x + beta, 0, 1)


FUNCTIONS: dict[str, Callable[[Node], Function]] = {
    "Sigmoid": lambda node: sigmoid,
    "Tanh": lambda node: np.tanh,
    "LeakyRelu": lambda node: lambda x: np.where(x >= 0, x, node.attr("alpha", 0.01) * x),
    "Elu": lambda node: lambda x: np.where(x >= 0, x, node.attr("alpha", 1.0) * np.expm1(np.minimum(x, 0))),
    "HardSigmoid": hard_sigmoid,
    "HardSwish": lambda node: lambda x: x * np.clip(x / 6 + 0.5, 0, 1),
    "Softplus": lambda node: lambda x: np.logaddexp(0, x),
    "Abs": lambda node: np.abs,
    "Neg": lambda node: np.negative,
}
"""Op type → the element function of a node of that type."""


def function(node: Node) -> Function:
    return FUNCTIONS[node.op_type](node)
