"""
Answers about immutable attributes, kept per object. A module shares each type, box and
integer array among thousands of ops, and a verifier asks the same of each: its shape,
its values, whether a rule holds. Hashing an attribute walks its parameters, so the
answer is kept by the object's identity instead (the object is kept alive with it, so
that its id is not reused while the answer is kept).

    shape = by_identity(lambda typ: typ.get_shape())
    shape(tensor_type)   # computed once per type object
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

Key = TypeVar("Key")
Answer = TypeVar("Answer")

KEPT = 1 << 12
"""How many objects each function keeps answers for; all are forgotten when it is full."""


def by_identity(function: Callable[[Key], Answer]) -> Callable[[Key], Answer]:
    """`function`, computed once per argument object (compared by identity)."""
    known: dict[int, tuple[Key, Answer]] = {}

    def answer(key: Key) -> Answer:
        found = known.get(id(key))
        if found is not None and found[0] is key:
            return found[1]
        result = function(key)
        if len(known) >= KEPT:
            known.clear()
        known[id(key)] = (key, result)
        return result

    return answer
