"""The hand-made isa programs against the golden executor on their task twins, and the
checked-in lit files against the generator."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.parser import Parser

from stc.compiler import isa_examples
from stc.compiler.ir_files import stc_context
from stc.runtime.golden import run_module
from stc.runtime.machine import find_program, random_inputs, run_isa_module

LIT_DIR = Path(__file__).parents[1] / "lit" / "isa"


def agree(example: isa_examples.Example, seed: int) -> None:
    """The program and its twin give bit-identical outputs on the same random inputs."""
    example.module.verify()
    twin = Parser(stc_context(), example.twin).parse_module()
    twin.verify()
    outputs, _ = run_isa_module(example.module, seed=seed)
    expected = run_module(twin, seed=seed)
    assert outputs.keys() == expected.keys()
    for name, array in expected.items():
        assert outputs[name].dtype == array.dtype
        assert np.array_equal(outputs[name], array), name


@pytest.mark.parametrize("make", list(isa_examples.LIT_EXAMPLES.values()), ids=list(isa_examples.LIT_EXAMPLES))
@pytest.mark.parametrize("seed", [0, 1])
def test_lit_examples_agree_with_their_twins(make, seed: int) -> None:
    agree(make(), seed)


def test_checked_in_lit_files_are_the_generated_ones(tmp_path: Path) -> None:
    for path in isa_examples.write_lit_files(tmp_path):
        assert (LIT_DIR / path.name).read_text() == path.read_text(), f"regenerate {path.name}"


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(["tianjicx", "set-8x8"]),
    st.integers(1, 4),
    st.sampled_from([1, 3, 5]),
    st.integers(0, 12),
    st.integers(1, 9),
    st.sampled_from([16, 32]),
    st.integers(1, 40),
    st.integers(0, 2**16),
)
def test_conv_split_by_rows_agrees(target, cores, kernel, extra_rows, width, channels, filters, seed) -> None:
    height = cores * max(kernel // 2, 1) + extra_rows
    example = isa_examples.conv_rows(target, height, width, channels, filters, cores, kernel, shift=8)
    agree(example, seed)


@settings(max_examples=10, deadline=None)
@given(
    st.integers(1, 32),
    st.integers(1, 32),
    st.integers(1, 9),
    st.integers(1, 9),
    st.integers(0, 2**16),
)
def test_layout_conv_agrees(channels, filters, height, width, seed) -> None:
    agree(
        isa_examples.layout_conv(height=height, width=width, channels=channels, filters=filters),
        seed,
    )


@settings(max_examples=20, deadline=None)
@given(
    st.integers(1, 2),
    st.integers(1, 70),
    st.integers(1, 9),
    st.integers(1, 9),
    st.integers(0, 2**16),
)
def test_layout_round_trip_is_the_identity(batch, channels, height, width, seed) -> None:
    example = isa_examples.layout_round_trip(shape=(batch, channels, height, width))
    example.module.verify()
    inputs = random_inputs(find_program(example.module), seed)
    outputs, counters = run_isa_module(example.module, inputs)
    assert np.array_equal(outputs["y"], inputs["x"])
    assert counters["local_read_bytes"] > 0


def test_a_row_split_thinner_than_the_halo_is_refused() -> None:
    with pytest.raises(ValueError, match="thinner than the 2-row halo"):
        isa_examples.conv_rows(height=7, cores=4, kernel=5)
