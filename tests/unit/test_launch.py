"""The console scripts' imports: dataclasses' generated methods compiled once per text."""

from __future__ import annotations

import dataclasses
import inspect

from stc.tools.launch import generated_code_shared


def point_classes() -> tuple[type, type]:
    """Two dataclasses whose generated methods have the same texts."""

    @dataclasses.dataclass(frozen=True)
    class Point:
        x: int
        y: list[int] = dataclasses.field(default_factory=list)

    @dataclasses.dataclass(frozen=True)
    class Other:
        x: int
        y: list[int] = dataclasses.field(default_factory=list)

    return Point, Other


def test_classes_with_the_same_method_texts_share_their_code():
    with generated_code_shared():
        point, other = point_classes()
    assert point.__init__.__code__ is other.__init__.__code__
    assert point.__init__ is not other.__init__
    assert not hasattr(dataclasses, "exec")
    plain, _ = point_classes()
    assert plain.__init__.__code__ is not point.__init__.__code__


def test_shared_code_builds_the_classes_plain_code_builds():
    """Methods, annotations (objects, not strings), defaults, names and behaviour alike."""
    with generated_code_shared():
        shared, _ = point_classes()
    plain, _ = point_classes()
    for name in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"):
        mine, theirs = getattr(shared, name), getattr(plain, name)
        assert mine.__code__.co_code == theirs.__code__.co_code
        assert mine.__code__.co_filename == theirs.__code__.co_filename
        assert mine.__qualname__.rpartition(".")[2] == theirs.__qualname__.rpartition(".")[2]
    assert inspect.signature(shared.__init__) == inspect.signature(plain.__init__)
    assert shared.__init__.__annotations__ == plain.__init__.__annotations__  # not `_type_x` strings
    assert repr(shared(1)) == repr(plain(1)).replace(plain.__qualname__, shared.__qualname__)
    assert shared(1, [2]) == shared(1, [2]) != shared(2)
    assert hash(shared(1, ())) == hash(shared(1, ()))  # pyright: ignore[reportArgumentType]


def test_an_exec_set_by_another_is_left_alone():
    def other(*args: object) -> None:
        raise AssertionError("not used")

    dataclasses.exec = other  # pyright: ignore[reportAttributeAccessIssue]
    try:
        with generated_code_shared():
            assert dataclasses.exec is other  # pyright: ignore[reportAttributeAccessIssue]
        assert dataclasses.exec is other  # pyright: ignore[reportAttributeAccessIssue]
    finally:
        del dataclasses.exec  # pyright: ignore[reportAttributeAccessIssue]
