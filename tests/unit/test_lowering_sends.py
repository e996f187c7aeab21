"""isa-lower groups a result's fills to other cores into multicast sends (`multicasts`):
the same grouping as scanning each box's open sends for the first without the fill's core."""

from types import SimpleNamespace

import hypothesis.strategies as hs
from hypothesis import given

from stc.compiler.lowering.program import multicasts


def scanned(fills: list, sender) -> dict[int, list]:
    """The grouping by its definition: each fill joins the first send of its box that does
    not yet go to its core, or starts one."""
    open_sends: dict = {}
    groups: dict[int, list] = {}
    for index, each in enumerate(fills):
        if each.core == sender:
            continue
        sends = open_sends.setdefault(each.source, [])
        group = next((g for g in sends if all(m.core != each.core for m in g)), None)
        if group is None:
            group = groups[index] = []
            sends.append(group)
        group.append(each)
    return groups


@given(hs.lists(hs.tuples(hs.integers(0, 3), hs.integers(0, 4)), max_size=40))
def test_fills_are_grouped_into_sends_as_their_definition_groups_them(pairs):
    fills = [SimpleNamespace(source=box, core=core) for box, core in pairs]
    assert multicasts(fills, 0) == scanned(fills, 0)  # type: ignore[arg-type]
