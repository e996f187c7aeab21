"""The st-svg picture: row 0 at the bottom, every step and phase drawn, storage named, and
no route line through a label."""

import io
import itertools
import re
import xml.etree.ElementTree as ElementTree

from test_st_place import CHAIN, relu_chain
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from stc.compiler.draw.mapping_svg import CHAR, StSvgTarget
from stc.compiler.ir_files import stc_context
from stc.passes.st_place import StPlacePass
from stc.passes.st_route import StRoutePass

SVG = "{http://www.w3.org/2000/svg}"
LABEL = re.compile(r"(A|S|IO|M)( \d+)+( \+\d+)?$")
"""The block ids at some stages of a core."""


def picture(module: ModuleOp, **options) -> ElementTree.Element:
    StPlacePass(target="tianjicx").apply(stc_context(), module)
    StRoutePass().apply(stc_context(), module)
    output = io.StringIO()
    StSvgTarget(**options).emit(stc_context(), module, output)
    return ElementTree.fromstring(output.getvalue())


def tile_tops(svg: ElementTree.Element) -> dict[str, float]:
    """The y of each core's cell in the first panel, by the core's coordinate."""
    tops: dict[str, float] = {}
    for rect in svg.iter(f"{SVG}rect"):
        title = rect.find(f"{SVG}title")
        if title is not None and (match := re.match(r"core (\(.*?\))", title.text or "")):
            tops.setdefault(match[1], float(rect.attrib["y"]))
    return tops


def test_row_zero_is_drawn_at_the_bottom():
    svg = picture(Parser(stc_context(), CHAIN).parse_module())
    tops = tile_tops(svg)
    assert tops["(0, 0, 0, 0)"] > tops["(0, 0, 1, 0)"] > tops["(0, 0, 9, 0)"]
    assert tops["(0, 0, 0, 0)"] == tops["(0, 0, 0, 15)"]


def test_every_step_and_phase_is_drawn_and_every_block_named():
    script = 'st.mapping @ag target "tianjicx" { st.put_group_in 4 at (0, 0, 5, 5), (1, 3, soma1) }'
    module = Parser(stc_context(), CHAIN + script).parse_module()
    svg = picture(module)
    texts = [element.text or "" for element in svg.iter(f"{SVG}text")]
    panels = [text for text in texts if text.startswith("step ")]
    assert panels == ["step 0, phase 0", "step 0, phase 2", "step 1, phase 3"]
    labels = [text.split() for text in texts if LABEL.match(text)]
    assert {label[0] for label in labels} == {"S", "IO", "M"}
    labelled = {int(token) for label in labels for token in label[1:] if not token.startswith("+")}
    tooltips = " ".join(title.text or "" for title in svg.iter(f"{SVG}title"))
    assert labelled | {int(i) for i in re.findall(r"task\.\w+ (\d+)", tooltips)} == set(range(9))
    assert {1, 3, 5, 7} <= labelled


def test_route_lines_pass_clear_of_the_labels():
    svg = picture(Parser(stc_context(), relu_chain(24, "1x32x64x32")).parse_module())
    boxes = [
        (float(text.attrib["x"]), float(text.attrib["y"]) - 8, len(text.text or "") * CHAR, 10)
        for text in svg.iter(f"{SVG}text")
        if LABEL.match(text.text or "")
    ]
    segments = [
        ((x0, y0), (x1, y1))
        for line in svg.iter(f"{SVG}polyline")
        for (x0, y0), (x1, y1) in itertools.pairwise(
            tuple(map(float, point.split(","))) for point in line.attrib["points"].split()
        )
    ]
    assert boxes
    assert segments
    for (x0, y0), (x1, y1) in segments:
        for left, top, width, height in boxes:
            crosses_x = min(x0, x1) <= left + width and max(x0, x1) >= left
            crosses_y = min(y0, y1) <= top + height and max(y0, y1) >= top
            assert not (crosses_x and crosses_y)
