"""Answers kept per attribute object: the same object is answered once, an equal one anew."""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType, i8

from stc.dialects import by_identity as module
from stc.dialects.by_identity import by_identity


def test_each_object_is_answered_once_and_an_equal_one_anew():
    calls: list[TensorType] = []

    @by_identity
    def shape(typ: TensorType) -> tuple[int, ...]:
        calls.append(typ)
        return typ.get_shape()

    first, equal = TensorType(i8, [1, 2]), TensorType(i8, [1, 2])
    assert first == equal
    assert first is not equal
    assert shape(first) == shape(first) == shape(equal) == (1, 2)
    assert [id(typ) for typ in calls] == [id(first), id(equal)]


def test_a_full_memory_forgets_and_still_answers_right(monkeypatch):
    monkeypatch.setattr(module, "KEPT", 4)
    calls: list[int] = []

    @by_identity
    def shape(typ: TensorType) -> tuple[int, ...]:
        calls.append(1)
        return typ.get_shape()

    types = [TensorType(i8, [n]) for n in range(1, 11)]
    assert [shape(typ) for typ in types] == [(n,) for n in range(1, 11)]
    assert [shape(typ) for typ in types[-2:]] == [(9,), (10,)]
    assert len(calls) == 10
