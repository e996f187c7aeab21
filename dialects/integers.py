"""
The builtin integer attributes stc's ops hold: i64 integers and i64 arrays. Attributes
are immutable, and the same small integers and arrays (ids aside: offsets, pads,
strides, coordinates) recur in every op a pass creates, so each is built once and shared.
An i64 integer or array of them in range, and each `IntAttr` of a Python int, is built
without xDSL's constructor, which normalises each value and verifies it against its type
(6 µs for an integer, a third of building a task op; 13 µs for an array of four, against
2): the attribute is the one that constructor builds, equal to it
(tests/unit/test_integers.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from xdsl.dialects.builtin import I64, ArrayAttr, BytesAttr, DenseArrayBase, IntAttr, IntegerAttr, i64

from stc.dialects.by_identity import by_identity
from stc.dialects.prechecked import prechecked

CACHED_ATTRIBUTES = 1 << 14
"""How many distinct integers (and arrays) are kept built."""


I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1


def built_i64_attr(value: int) -> IntegerAttr[I64]:
    """`i64_attr(value)` built anew, not kept: for integers that do not recur (the ids of
    the blocks a split creates)."""
    if type(value) is not int or not I64_MIN <= value <= I64_MAX:
        return IntegerAttr(value, i64)  # xDSL's normalisation or its error
    attr = IntegerAttr.__new__(IntegerAttr)
    object.__setattr__(attr, "value", prechecked(IntAttr, value))
    object.__setattr__(attr, "type", i64)
    return attr


i64_attr = lru_cache(maxsize=CACHED_ATTRIBUTES)(built_i64_attr)


def i64_array(values: Sequence[int]) -> DenseArrayBase[I64]:
    return _i64_array(tuple(values))


@lru_cache(maxsize=CACHED_ATTRIBUTES)
def _i64_array(values: tuple[int, ...]) -> DenseArrayBase[I64]:
    return built_i64_array(values)


def built_i64_array(values: Sequence[int]) -> DenseArrayBase[I64]:
    """`i64_array(values)` built anew, not kept: for long arrays that do not recur (the ids
    of the blocks a split created)."""
    if not all(type(value) is int and I64_MIN <= value <= I64_MAX for value in values):
        return DenseArrayBase(i64, BytesAttr(i64.pack([i64.get_normalized_value(value) for value in values])))
    attr = DenseArrayBase.__new__(DenseArrayBase)
    object.__setattr__(attr, "elt_type", i64)
    object.__setattr__(attr, "data", prechecked(BytesAttr, i64.pack(values)))
    return attr


def int_array(values: Sequence[int]) -> ArrayAttr[IntAttr]:
    """`[#builtin.int<1>, ...]`, the integer parameters of an attribute (a coordinate's parts)."""
    return _int_array(tuple(values))


@lru_cache(maxsize=CACHED_ATTRIBUTES)
def _int_array(values: tuple[int, ...]) -> ArrayAttr[IntAttr]:
    return ArrayAttr(IntAttr(value) if type(value) is not int else prechecked(IntAttr, value) for value in values)


@by_identity
def array_values(array: DenseArrayBase) -> tuple[int, ...]:
    """The values of an integer array (`get_values`), unpacked once per array object."""
    return array.get_values()  # pyright: ignore[reportReturnType]
