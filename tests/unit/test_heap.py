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


def test_what_a_paused_collection_created_between_passes_is_frozen_at_its_end():
    with frozen_between_passes():
        with collection_paused():
            assert not gc.isenabled()
            made = [[index] for index in range(1000)]
        assert gc.isenabled()
        assert gc.get_freeze_count() >= len(made)
    assert gc.get_freeze_count() == 0


def test_a_paused_collection_outside_passes_freezes_nothing():
    with collection_paused():
        made = [[index] for index in range(1000)]
    assert gc.isenabled()
    assert len(made) == 1000
    assert gc.get_freeze_count() == 0
