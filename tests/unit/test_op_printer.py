"""Tests for compiler/op_lines/printer.py: `LinePrinter` prints exactly what xDSL's
`Printer` prints, on every lit test, every zoo network (plain, split to fit, split into
many pieces, mapped), and on modules whose names, strings and data are drawn."""

from __future__ import annotations

from functools import cache
from io import StringIO
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import PassPipeline
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException, ParseError

from stc.compiler.ir_files import StcParser
from stc.compiler.op_lines.printer import LinePrinter
from stc.compiler.zoo import build_network, network_names
from stc.dialects import stc_context
from stc.dialects.task import GraphOp, InputOp, NpzDataAttr, OutputOp, WeightOp
from stc.passes import get_all_passes

LIT = Path(__file__).parent.parent / "lit"


def printed(printer_type: type[Printer], module: ModuleOp, **options: bool) -> str:
    out = StringIO()
    printer_type(stream=out, **options).print_op(module)
    return out.getvalue()


def assert_prints_alike(module: ModuleOp) -> None:
    assert printed(LinePrinter, module) == printed(Printer, module)
    generic = {"print_generic_format": True}
    assert printed(LinePrinter, module, **generic) == printed(Printer, module, **generic)


def lit_modules() -> list[tuple[str, str]]:
    chunks: list[tuple[str, str]] = []
    for path in sorted(LIT.glob("*/*.mlir")):
        for index, chunk in enumerate(path.read_text().split("// -----")):
            chunks.append((f"{path.parent.name}/{path.name}#{index}", chunk))
    return chunks


@pytest.mark.parametrize(("name", "text"), lit_modules(), ids=[name for name, _ in lit_modules()])
def test_every_lit_test_prints_the_same(name: str, text: str):
    try:
        module = StcParser(stc_context(), text, name).parse_module()
        module.verify()
    except (ParseError, DiagnosticException, ValueError):
        return  # an error case: nothing to print
    assert_prints_alike(module)


@cache
def split_modules() -> dict[str, ModuleOp]:
    """Zoo networks split to fit, a first conv split into many pieces (its pieces share a
    name hint), a split with partial sums (adds with a bias), and a mapped network."""
    passes = get_all_passes()
    modules: dict[str, ModuleOp] = {}
    for name, pipeline in (
        ("resnet18", [("task-split", {"fit": "tianjicx"})]),
        ("googlenet", [("task-split", {"fit": "aie-ml"})]),
        ("resnet18", [("task-split", {"task": 4, "vector": (14, 14, 1, 1)})]),
        ("resnet18", [("task-split", {"tasks": (4, 12), "vector": (1, 2, 3, 1, 2)})]),
        ("lenet", [("task-split", {"fit": "tianjicx"}), ("st-place", {"target": "tianjicx"}), ("st-route", {})]),
    ):
        module = build_network(name)
        PassPipeline(tuple(passes[p]()(**options) for p, options in pipeline)).apply(stc_context(), module)
        modules[f"{name} {pipeline}"] = module
    return modules


@pytest.mark.parametrize("name", network_names())
def test_every_zoo_network_prints_the_same(name: str):
    assert_prints_alike(build_network(name))


@pytest.mark.parametrize("index", range(5))
def test_split_and_mapped_networks_print_the_same(index: int):
    assert_prints_alike(list(split_modules().values())[index])


NAMES = hs.one_of(hs.none(), hs.sampled_from(["x", "x_1", "x_2", "w", "in", "in_1", "r2"]))
STRINGS = hs.text(hs.characters(min_codepoint=1, max_codepoint=300), min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(hs.data())
def test_drawn_names_strings_and_data_print_the_same(data: hs.DataObject):
    """Result names that collide with a hint's numbered forms, no hints (numbers), and
    input, output and npz names that need escapes or not."""
    module = build_network("tiny")
    graph = next(op for op in module.ops if isinstance(op, GraphOp))
    for op in graph.block.ops:
        for result in op.results:
            result.name_hint = data.draw(NAMES)
        if isinstance(op, InputOp | OutputOp):
            op.properties["name"] = type(op.properties["name"])(data.draw(STRINGS))
        if isinstance(op, WeightOp) and data.draw(hs.booleans()):
            op.properties["data"] = NpzDataAttr((data.draw(STRINGS), data.draw(STRINGS)))
    assert_prints_alike(module)
