"""Random action sequences either apply or end in a diagnostic, never in a crash; what STEnv
accepts, st-apply replays from the printed script to the same module or the same error."""

from collections.abc import Callable
from typing import Any

import hypothesis.strategies as hs
import pytest
from conftest import fuzz_examples
from hypothesis import given, settings
from xdsl.parser import Parser
from xdsl.utils.exceptions import DiagnosticException, PassFailedException

from stc.compiler.ir_files import module_text, stc_context
from stc.compiler.mapping.env import PIIndex, Shape, STCoord, STEnv
from stc.passes.st_apply import StApplyPass

TINY = """
task.graph @tiny {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 sic %x : tensor<1x8x8x16xi8>
  %w = task.weight 2 #task.random<7> : tensor<32x3x3x16xi8>
  %b = task.bias 3 #task.random<8> : tensor<32xi32>
  %c = task.conv 4 %in, %w bias %b pad [1, 1, 1, 1] shift 9 : tensor<1x8x8x32xi8>
  %r_in = task.buffer 5 si %c : tensor<1x8x8x32xi8>
  %r = task.relu 6 %r_in : tensor<1x8x8x32xi8>
  %p_in = task.buffer 7 si %r : tensor<1x8x8x32xi8>
  %p = task.maxpool 8 %p_in window [2, 2] stride [2, 2] : tensor<1x4x4x32xi8>
  %f_in = task.buffer 9 sifc %p : tensor<1x4x4x32xi8>
  %fw = task.weight 10 #task.random<9> : tensor<10x4x4x32xi8>
  %f = task.fc 11 %f_in, %fw shift 10 : tensor<1x1x1x10xi8>
  %out = task.buffer 12 so %f : tensor<1x1x1x10xi8>
  task.output 13 "y" %out
}
"""

Action = Callable[[STEnv], Any]

ids = hs.one_of(hs.integers(0, 13), hs.integers(0, 13), hs.integers(14, 40))
"""Mostly blocks of TINY, sometimes blocks a split may have created."""
shapes = hs.builds(Shape, hs.integers(1, 3), hs.integers(1, 2), hs.integers(1, 3), hs.integers(1, 2))
stages = hs.sampled_from([PIIndex.MEMORY, PIIndex.MEMORY, PIIndex.AXON, PIIndex.SOMA1, *PIIndex])

TARGETS = {
    "tianjicx": (hs.sampled_from([0, 0, 1, 10]), hs.integers(0, 1), hs.sampled_from(["core"])),
    "aie-ml": (
        hs.sampled_from([0, 1, 3, 3, 4, 11]),
        hs.sampled_from([0, 1, 37, 38]),
        hs.sampled_from(["aie_tile", "memory_tile", "shim_tile", "core"]),
    ),
}
"""Per target: core rows (aie-ml: shim row 0, memory-tile row 1, aie rows 3 and up, 11 is outside),
core columns and the tile types of area-group rectangles (core does not exist on aie-ml)."""


def later(start: STCoord, phases: int) -> STCoord:
    step, phase, pi = start.time_coord
    return STCoord(start.space_coord, (step, phase + phases, pi))


def actions(target: str) -> hs.SearchStrategy[Action]:
    rows, columns, tile_types = TARGETS[target]
    coords = hs.builds(
        lambda chip, y, x, step, phase, pi: STCoord((0, chip, y, x), (step, phase, pi)),
        hs.sampled_from([0, 0, 0, 0, 0, 1]),
        rows,
        columns,
        hs.sampled_from([0, 0, 0, 1, 2**40, 2**63 - 1]),
        hs.sampled_from([0, 1, 2, 33, 2**40, 2**63 - 1]),
        stages,
    )
    spans = hs.one_of(
        hs.tuples(coords, hs.none() | coords).map(lambda span: (span[0], lambda: span[1])),
        hs.builds(
            lambda start, more: (
                start,
                lambda: later(start, more),
            ),
            coords,
            hs.integers(0, 2) | hs.sampled_from([4095, 4096, 10**8]),
        ),
    )
    """A start coordinate and what makes its end, in the call (STCoord refuses a phase of
    2^63 or more, as the call must then): any end, or the same core and stage some phases later."""
    rects = hs.dictionaries(
        tile_types,
        hs.tuples(hs.tuples(hs.just(0), hs.integers(0, 17)), hs.tuples(hs.just(0), hs.integers(0, 10))),
        min_size=1,
        max_size=2,
    )
    return hs.one_of(
        hs.builds(lambda i, s: lambda env: env.split_task(i, s), ids, shapes),
        hs.builds(lambda i, s: lambda env: env.split_group(i, s), hs.lists(ids, min_size=1, max_size=3), shapes),
        hs.builds(
            lambda i, s: lambda env: env.split_group(i, s),
            hs.lists(ids, max_size=3),
            hs.none() | hs.lists(shapes, max_size=4) | hs.just("y"),
        ),
        hs.builds(lambda span, i: lambda env: env.put_in(span[0], i, span[1]()), spans, ids),
        hs.builds(lambda c, i: lambda env: env.put_group_in(c, i), coords, ids),
        hs.builds(lambda span, i: lambda env: env.take_out(span[0], i, span[1]()), spans, hs.none() | ids),
        hs.builds(
            lambda name, members, rects, flags: lambda env: env.area_group(name, members, rects, *flags),
            hs.sampled_from(["a", "b", "gün", "组", 'a b"\\', ""]),
            hs.lists(ids, max_size=3),
            rects | hs.just({}),
            hs.tuples(hs.booleans(), hs.booleans(), hs.booleans()),
        ),
    )


def replay(script: str) -> tuple[str, str]:
    """(module text, "") after st-apply replays `script` on TINY, or ("", error message)."""
    module = Parser(stc_context(), TINY + script).parse_module()
    try:
        StApplyPass().apply(stc_context(), module)
    except DiagnosticException as error:
        return "", str(error)
    return module_text(module), ""


@pytest.mark.parametrize("target", TARGETS)
@settings(max_examples=fuzz_examples(25), deadline=None)
@given(data=hs.data())
def test_random_actions_apply_or_diagnose(target: str, data: hs.DataObject):
    sequence = data.draw(hs.lists(actions(target), min_size=1, max_size=12))
    env = STEnv(Parser(stc_context(), TINY).parse_module(), target)
    for action in sequence:
        before = (env.script(), dict(env.executor.matrix.places))
        try:
            action(env)
        except PassFailedException:  # the one type STEnv raises
            assert (env.script(), dict(env.executor.matrix.places)) == before
        script = env.script()  # every printed script parses back to itself (non-ASCII names too)
        assert module_text(Parser(stc_context(), script).parse_module().body.block.ops.first) == script
    try:
        expected = (module_text(env.module), "")
    except DiagnosticException as error:
        expected = ("", str(error))
    assert replay(env.script()) == expected
