"""
The attributes `st-place` and `st-route` give a mapped task block, read in one match:

```mlir
{st.coord = #st.coord<(0, 0, 2, 2), (0, 0, memory)>, st.routes = [#st.route<from 0, 64 bytes, [(0, 0, 0, 0)]>]}
```
"""

from __future__ import annotations

import re

from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

from stc.dialects.st.attrs import COORD, COORD_TEXT, ROUTE_LIST_TEXT, ROUTES, CoordAttr, route_list

MAPPING_TEXT = re.compile(
    rf"\{{st\.coord = (?P<coord>#st\.coord<{COORD_TEXT.pattern}>)"
    rf"(?:, st\.routes = \[(?P<routes>{ROUTE_LIST_TEXT.pattern})\])?\}}"
)
"""The attributes of a mapped task block as st-place and st-route write them:
`{st.coord = #st.coord<...>, st.routes = [#st.route<...>, ...]}`."""

COORD_PARAMETERS = re.compile(rf"<{COORD_TEXT.pattern}>")
"""The parameters of `#st.coord` as stc prints them."""


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
