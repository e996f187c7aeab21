"""Pieces shared by the `isa` ops that hold others or sit directly in a program."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Block, Operation, OpTraits, Region
from xdsl.irdl import lazy_traits_def
from xdsl.traits import HasParent, OpTrait


def single_block_region(body: Region | Sequence[Operation]) -> Region:
    """A region of one block: the parsed one (given a block if empty) or one of `ops`."""
    region = body if isinstance(body, Region) else Region(Block(body))
    if not region.blocks:
        region.add_block(Block())
    return region


def held_by_program(*traits: OpTrait) -> OpTraits:
    """`traits_def(*traits, HasParent(ProgramOp))` for an op that `isa.program` holds
    directly. The program's module imports these ops to list and verify them, so the
    parent is looked up when the traits are first used."""

    def with_parent() -> tuple[OpTrait, ...]:
        from stc.dialects.isa.program import ProgramOp

        return (*traits, HasParent(ProgramOp))

    return lazy_traits_def(with_parent)
