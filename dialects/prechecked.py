"""
Attributes built from data their reader has already checked, without xDSL's constructor,
which checks the data again (and that the attribute is one of its kinds): a mapped
ResNet-50 holds some 3,000 routes, each read in one match that checks what
`RouteAttr.verify` would, and some 5,000 integers, boxes and arrays of them.

    prechecked(RouteAttr, (4, 2048, ((0, 0, 0, 0), (0, 0, 0, 1))))  # == RouteAttr(...)
"""

from __future__ import annotations

from typing import Any, TypeVar

from xdsl.ir import Data

D = TypeVar("D", bound=Data[Any])


def prechecked(kind: type[D], data: Any) -> D:
    """The `kind` attribute holding `data`, which must be data `kind(data)` accepts."""
    attr = kind.__new__(kind)
    object.__setattr__(attr, "data", data)
    return attr
