"""
The builtin integer attributes stc's ops hold: i64 integers and i64 arrays. Attributes
are immutable, and the same small integers and arrays (ids aside: offsets, pads,
strides, coordinates) recur in every op a pass creates, so each is built once and shared.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from xdsl.dialects.builtin import I64, ArrayAttr, BytesAttr, DenseArrayBase, IntAttr, IntegerAttr, i64

CACHED_ATTRIBUTES = 1 << 14
"""How many distinct integers (and arrays) are kept built."""


@lru_cache(maxsize=CACHED_ATTRIBUTES)
def i64_attr(value: int) -> IntegerAttr[I64]:
    return IntegerAttr(value, i64)


def i64_array(values: Sequence[int]) -> DenseArrayBase[I64]:
    return _i64_array(tuple(values))


@lru_cache(maxsize=CACHED_ATTRIBUTES)
def _i64_array(values: tuple[int, ...]) -> DenseArrayBase[I64]:
    return DenseArrayBase(i64, BytesAttr(i64.pack([i64.get_normalized_value(value) for value in values])))


def int_array(values: Sequence[int]) -> ArrayAttr[IntAttr]:
    """`[#builtin.int<1>, ...]`, the integer parameters of an attribute (a coordinate's parts)."""
    return _int_array(tuple(values))


@lru_cache(maxsize=CACHED_ATTRIBUTES)
def _int_array(values: tuple[int, ...]) -> ArrayAttr[IntAttr]:
    return ArrayAttr(IntAttr(value) for value in values)
