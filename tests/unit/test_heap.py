"""The collector during a compilation: objects frozen between passes, collectable after."""

from __future__ import annotations

import gc

import pytest

from stc.compiler.heap import collection_paused, frozen_between_passes


def test_settle_freezes_what_is_alive_and_the_exit_unfreezes_it():
    assert gc.get_freeze_count() == 0
    with frozen_between_passes() as settle:
        alive = [object() for _ in range(100)]
        settle()
        assert gc.get_freeze_count() >= len(alive)
    assert gc.get_freeze_count() == 0


def test_an_error_in_a_pass_still_unfreezes():
    def failing_pipeline() -> None:
        with frozen_between_passes() as settle:
            settle()
            raise ValueError("a pass failed")

    with pytest.raises(ValueError, match="a pass failed"):
        failing_pipeline()
    assert gc.get_freeze_count() == 0


def test_a_heap_the_caller_froze_or_a_disabled_collector_is_left_alone():
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with frozen_between_passes() as settle:
            settle()
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
    gc.disable()
    try:
        with frozen_between_passes() as settle:
            settle()
            assert gc.get_freeze_count() == 0
    finally:
        gc.enable()


def in_generation(generation: int, objects: list[list[int]]) -> int:
    """How many of `objects` the collector holds in `generation`."""
    ids = {id(o) for o in objects}
    return sum(id(o) in ids for o in gc.get_objects(generation))


def test_what_a_pause_created_ends_in_the_oldest_generation_without_a_collection():
    collections = gc.get_stats()
    with collection_paused():
        made = [[index] for index in range(1000)]
        assert in_generation(0, made) == len(made)
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0
    assert in_generation(2, made) == len(made)
    assert [s["collections"] for s in gc.get_stats()] == [s["collections"] for s in collections]


def test_a_pause_leaves_a_heap_the_caller_froze_as_it_is():
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with collection_paused():
            made = [[index] for index in range(1000)]
        assert gc.get_freeze_count() == frozen
        assert in_generation(2, made) == 0
    finally:
        gc.unfreeze()
