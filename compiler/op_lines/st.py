"""
The attributes `st-place` and `st-route` give a mapped task block, read in one match:

```mlir
{st.coord = #st.coord<(0, 0, 2, 2), (0, 0, memory)>, st.routes = [#st.route<from 0, 64 bytes, [(0, 0, 0, 0)]>]}
```
"""

from __future__ import annotations

from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

from stc.compiler.spelling import COORD_TEXT, MAPPING_TEXT
from stc.dialects.st.attrs import COORD, ROUTES, CoordAttr, route_list


def mapping_attributes(known: dict[str, Attribute], text: str, start: int) -> tuple[dict[str, Attribute], int] | None:
    """
    The attribute dictionary at `start` of `text` and where it ends, if it is a mapping
    as st-place and st-route write it; each coordinate is built once per spelling and
    kept in `known`. A coordinate or route that breaks a rule raises VerifyException.
    """
    spelled = MAPPING_TEXT.match(text, start)
    if spelled is None:
        return None
    if (coord := known.get(spelled["coord"])) is None:
        body = COORD_TEXT.match(spelled["coord"], len("#st.coord<"))
        assert body is not None
        coord = known[spelled["coord"]] = CoordAttr.of_text(body)
    if spelled["routes"] is None:
        return {COORD: coord}, spelled.end()
    return {COORD: coord, ROUTES: route_list(spelled["routes"])}, spelled.end()


def valid_mapping_attributes(
    known: dict[str, Attribute], text: str, start: int
) -> tuple[dict[str, Attribute], int] | None:
    """`mapping_attributes`, or None for a coordinate or route that breaks a rule (which
    xDSL's parser then reports, at its position)."""
    try:
        return mapping_attributes(known, text, start)
    except VerifyException:
        return None
