"""Tests for dialects/integers.py: an i64 integer built without xDSL's constructor is the
attribute that constructor builds, and a value it rejects fails as it does."""

import re
from collections.abc import Callable
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntAttr, IntegerAttr, i64
from xdsl.ir import Attribute

from stc.dialects.integers import I64_MAX, I64_MIN, i64_array, i64_attr, int_array

T = TypeVar("T")

EDGES = [I64_MIN - 1, I64_MIN, I64_MIN + 1, -1, 0, 1, I64_MAX - 1, I64_MAX, I64_MAX + 1, 1 << 64, (1 << 64) - 1]


def built_alike(build: Callable[[T], Attribute], reference: Callable[[], Attribute], value: T):
    """`build(value)` against xDSL's `reference()`: the same error, or an equal attribute with
    the same hash and text (then both are returned; None after an error)."""
    try:
        expected = reference()
    except Exception as error:  # noqa: BLE001 - whatever xDSL raises, `build` must raise it too
        with pytest.raises(type(error), match=re.escape(str(error))):
            build(value)
        return None
    attr = build(value)
    assert attr == expected
    assert hash(attr) == hash(expected)
    assert str(attr) == str(expected)
    return attr, expected


@settings(max_examples=300, deadline=None)
@given(hs.one_of(hs.integers(I64_MIN, I64_MAX), hs.integers(-(1 << 70), 1 << 70), hs.sampled_from(EDGES)))
def test_an_i64_is_the_attribute_xdsl_builds_or_fails_alike(value: int):
    built = built_alike(i64_attr, lambda: IntegerAttr(value, i64), value)
    if built is None:
        return
    attr, _ = built
    assert type(attr.value.data) is int
    attr.verify()


def test_a_bool_is_left_to_xdsl():
    assert i64_attr(True) == IntegerAttr(True, i64)


@settings(max_examples=300, deadline=None)
@given(hs.lists(hs.one_of(hs.integers(I64_MIN, I64_MAX), hs.integers(-(1 << 70), 1 << 70), hs.sampled_from(EDGES))))
def test_an_i64_array_is_the_attribute_xdsl_builds_or_fails_alike(values: list[int]):
    built = built_alike(i64_array, lambda: DenseArrayBase.from_list(i64, values), values)
    if built is None:
        return
    attr, expected = built
    assert attr.get_values() == expected.get_values()
    attr.verify()


@settings(max_examples=100, deadline=None)
@given(hs.lists(hs.integers(-(1 << 70), 1 << 70), max_size=5))
def test_an_int_array_is_the_attribute_xdsl_builds(values: list[int]):
    attr, expected = int_array(values), ArrayAttr(IntAttr(value) for value in values)
    assert attr == expected
    assert hash(attr) == hash(expected)
    assert [type(element.data) for element in attr] == [type(element.data) for element in expected]
