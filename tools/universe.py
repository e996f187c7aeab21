"""
stc's dialects, passes and output targets as an xDSL universe, published through the
`xdsl.universe` entry point so that a plain `xdsl-opt` sees them too once stc is
installed. Every entry is a lazy factory. Importing it applies `stc.compiler.xdsl_fixes`
(through `stc.dialects`).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.universe import Universe
from xdsl.utils.target import Target

from stc.dialects import get_all_dialects
from stc.passes import get_all_passes


def get_st_svg() -> type[Target]:
    from stc.compiler.draw.mapping_svg import StSvgTarget

    return StSvgTarget


def get_all_targets() -> dict[str, Callable[[], type[Target]]]:
    """stc's output formats (`-t`) by name."""
    return {"st-svg": get_st_svg}


STC_UNIVERSE = Universe(all_dialects=get_all_dialects(), all_passes=get_all_passes(), all_targets=get_all_targets())
