"""Tests for the st dialect's own rules: the form of a split vector and the vectors of a
split_group, which the verifier, st-apply and task-split all go by."""

import pytest
from xdsl.utils.exceptions import VerifyException

from stc.dialects.st import SplitGroupOp, SplitTaskOp, is_split_vector


@pytest.mark.parametrize(
    ("counts", "form"),
    [
        ((2, 1, 1, 1), True),
        ((2, 1, 1, 1, 1), True),
        ((1, 2, 1, 1, 1, 1), True),
        ((1, 1, 1, 1, 2, 1), True),
        ((2, 1, 1), False),
        ((1, 1, 1, 1, 1, 1, 1), False),
        ((), False),
    ],
)
def test_a_split_vector_has_four_counts_five_with_the_batch_or_the_seeds_six(counts: tuple[int, ...], form: bool):
    assert is_split_vector(counts) == form


def test_the_verifier_refuses_a_vector_of_another_form():
    with pytest.raises(VerifyException, match=r"st.split_task: a split vector is \[ny, nx, nf, nr\]"):
        SplitTaskOp(3, [2, 1, 1]).verify()
    with pytest.raises(VerifyException, match=r"st.split_group: a split vector is .*, got \[1, 2, 1\]"):
        SplitGroupOp([3, 4], [[1, 2, 1]]).verify()


def test_split_group_gives_each_task_the_shared_vector_or_its_own():
    assert SplitGroupOp([3, 4, 5], [[1, 1, 2, 1]]).vectors_per_task == [(1, 1, 2, 1)] * 3
    assert SplitGroupOp([3, 4], [[1, 1, 2, 1], [2, 1, 1, 1]]).vectors_per_task == [(1, 1, 2, 1), (2, 1, 1, 1)]
    with pytest.raises(VerifyException, match="st.split_group: 2 vectors for 3 tasks"):
        SplitGroupOp([3, 4, 5], [[1, 1, 2, 1], [2, 1, 1, 1]]).verify()
