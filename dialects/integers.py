"""The builtin integer attributes stc's ops hold: i64 integers and i64 arrays."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import I64, DenseArrayBase, IntegerAttr, i64


def i64_attr(value: int) -> IntegerAttr[I64]:
    return IntegerAttr(value, i64)


def i64_array(values: Sequence[int]) -> DenseArrayBase[I64]:
    return DenseArrayBase.from_list(i64, list(values))
