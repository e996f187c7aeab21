"""Tests for dialects/integers.py: an i64 integer built without xDSL's constructor is the
attribute that constructor builds, and a value it rejects fails as it does."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntAttr, IntegerAttr, i64

from stc.dialects.integers import I64_MAX, I64_MIN, i64_array, i64_attr, int_array

EDGES = [I64_MIN - 1, I64_MIN, I64_MIN + 1, -1, 0, 1, I64_MAX - 1, I64_MAX, I64_MAX + 1, 1 << 64, (1 << 64) - 1]


@settings(max_examples=300, deadline=None)
@given(hs.one_of(hs.integers(I64_MIN, I64_MAX), hs.integers(-(1 << 70), 1 << 70), hs.sampled_from(EDGES)))
def test_an_i64_is_the_attribute_xdsl_builds_or_fails_alike(value: int):
    try:
        expected = IntegerAttr(value, i64)
    except Exception as error:  # noqa: BLE001 - whatever xDSL raises, i64_attr must raise it too
        with pytest.raises(type(error), match=re.escape(str(error))):
            i64_attr(value)
        return
    attr = i64_attr(value)
    assert attr == expected
    assert hash(attr) == hash(expected)
    assert str(attr) == str(expected)
    assert type(attr.value.data) is int
    attr.verify()


def test_a_bool_is_left_to_xdsl():
    assert i64_attr(True) == IntegerAttr(True, i64)


@settings(max_examples=300, deadline=None)
@given(hs.lists(hs.one_of(hs.integers(I64_MIN, I64_MAX), hs.integers(-(1 << 70), 1 << 70), hs.sampled_from(EDGES))))
def test_an_i64_array_is_the_attribute_xdsl_builds_or_fails_alike(values: list[int]):
    try:
        expected = DenseArrayBase.from_list(i64, values)
    except Exception as error:  # noqa: BLE001 - whatever xDSL raises, i64_array must raise it too
        with pytest.raises(type(error), match=re.escape(str(error))):
            i64_array(values)
        return
    attr = i64_array(values)
    assert attr == expected
    assert hash(attr) == hash(expected)
    assert str(attr) == str(expected)
    assert attr.get_values() == expected.get_values()
    attr.verify()


@settings(max_examples=100, deadline=None)
@given(hs.lists(hs.integers(-(1 << 70), 1 << 70), max_size=5))
def test_an_int_array_is_the_attribute_xdsl_builds(values: list[int]):
    attr, expected = int_array(values), ArrayAttr(IntAttr(value) for value in values)
    assert attr == expected
    assert hash(attr) == hash(expected)
    assert [type(element.data) for element in attr] == [type(element.data) for element in expected]
