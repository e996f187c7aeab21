"""The hand-made isa programs against the golden executor on their task twins, and the
checked-in lit files against the generator."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp, TensorType, i8
from xdsl.parser import Parser

from stc.compiler.ir_files import stc_context
from stc.compiler.lowering.layout import vec_trans_scatter_ops
from stc.compiler.targets.hardware import load_target
from stc.dialects import isa
from stc.dialects.isa import GlobalLayout
from stc.runtime.golden import run_module
from stc.runtime.kernels.layout import Buffer, Nc1hwc0Geometry, layout_calls
from stc.runtime.machine import find_program, random_inputs, run_isa_module
from stc.tools import isa_examples

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
    st.integers(1, 12),
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


def nc1hwc0_by_numpy(x: np.ndarray) -> np.ndarray:
    """(N, C1, H, W, C0) with the channels zero-padded to C1 · C0."""
    batch, channels, height, width = x.shape
    c0 = 32 if x.itemsize == 1 else 16
    c1 = -(-channels // c0)
    padded = np.zeros((batch, c1 * c0, height, width), x.dtype)
    padded[:, :channels] = x
    return padded.reshape(batch, c1, c0, height, width).transpose(0, 1, 3, 4, 2)


def layout_transforms(shape: tuple[int, int, int, int], dtype: np.dtype) -> ModuleOp:
    """One core of tpu-like: load the raw bytes of an NCHW tensor `x` plane by plane,
    convert them to NC1HWC0, store that as `y` (its pixels, without the padded ones),
    convert it back and store the NCHW result as `z`. Network tensors are int8, so each
    holds its tensor's raw bytes."""
    geometry = Nc1hwc0Geometry.from_nchw(shape, dtype)
    batch, channels, height, width = shape
    itemsize, pixels, c1, c0 = dtype.itemsize, height * width, geometry.c1, geometry.c0
    local = isa_examples.local_allocator(load_target("tpu-like"))
    forward = isa_examples.staging_buffers(local, geometry)
    back = {Buffer.NC1HWC0: forward[Buffer.NC1HWC0], Buffer.NCHW: local.take(geometry.staging_bytes)}
    plane = geometry.padded_pixels * itemsize
    nchw_strides = [c1 * c0 * plane, plane, 1]
    nchw_sizes = [batch, channels, pixels * itemsize]
    nc1hwc0_sizes = [batch * c1, pixels * c0 * itemsize]
    x_bytes = batch * channels * pixels * itemsize
    y_bytes = batch * c1 * pixels * c0 * itemsize
    core = [
        isa.DmaLoadOp(nchw_sizes, 0, forward[Buffer.NCHW], local_strides=nchw_strides),
        isa.SyncOp(0),
        *vec_trans_scatter_ops(layout_calls(geometry, Buffer.NC1HWC0), forward),
        isa.DmaStoreOp(nc1hwc0_sizes, x_bytes, forward[Buffer.NC1HWC0], local_strides=[plane * c0, 1]),
        *vec_trans_scatter_ops(layout_calls(geometry, Buffer.NCHW), back),
        isa.DmaStoreOp(nchw_sizes, x_bytes + y_bytes, back[Buffer.NCHW], local_strides=nchw_strides),
        isa.SyncOp(1),
    ]
    raw = (batch, channels, height, width * itemsize)
    declarations = [
        isa.InputOp("x", TensorType(i8, raw), 0, GlobalLayout.NCHW),
        isa.OutputOp("y", TensorType(i8, (batch, c1, pixels, c0 * itemsize)), x_bytes, GlobalLayout.NCHW),
        isa.OutputOp("z", TensorType(i8, raw), x_bytes + y_bytes, GlobalLayout.NCHW),
    ]
    return ModuleOp([isa.ProgramOp("layout", "tpu-like", [*declarations, isa.CoreOp((0, 0), core)])])


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.float16, np.int32, np.uint32, np.float32])
@pytest.mark.parametrize("shape", [(1, 20, 3, 5), (2, 17, 2, 3), (1, 33, 4, 4), (1, 16, 1, 1)])
def test_emitted_layout_transforms_run_on_the_machine(dtype: type, shape: tuple[int, int, int, int]) -> None:
    """The emitter writes each element type the kernel moves, and the machine's result
    is numpy's NC1HWC0 (channels padded with zeros) and, converted back, the input."""
    module = layout_transforms(shape, np.dtype(dtype))
    module.verify()
    inputs = random_inputs(find_program(module), seed=sum(shape))
    outputs, _ = run_isa_module(module, inputs)
    x = inputs["x"].view(dtype)
    expected = nc1hwc0_by_numpy(x)
    assert outputs["y"].tobytes() == np.ascontiguousarray(expected).tobytes()
    assert outputs["z"].tobytes() == inputs["x"].tobytes()


@settings(max_examples=10, deadline=None)
@given(
    st.sampled_from(["int8", "int16", "float16", "int32", "float32"]),
    st.tuples(st.integers(1, 2), st.integers(1, 40), st.integers(1, 6), st.integers(1, 6)),
    st.integers(0, 2**16),
)
def test_layout_round_trip_of_any_type_is_the_identity(dtype, shape, seed) -> None:
    example = isa_examples.layout_round_trip(shape=shape, dtype=dtype)
    example.module.verify()
    inputs = random_inputs(find_program(example.module), seed)
    outputs, _ = run_isa_module(example.module, inputs)
    assert np.array_equal(outputs["y"], inputs["x"])


def test_cores_follow_a_snake_over_the_computing_tiles() -> None:
    assert isa_examples.snake(load_target("set-8x8"), 10) == [(0, x) for x in range(8)] + [(1, 7), (1, 6)]
    assert isa_examples.snake(load_target("aie-ml"), 2) == [(3, 37), (3, 36)]
    with pytest.raises(ValueError, match="65 cores are more than the 64 computing cores of set-8x8"):
        isa_examples.snake(load_target("set-8x8"), 65)


def test_a_row_split_thinner_than_the_halo_is_refused() -> None:
    with pytest.raises(ValueError, match="thinner than the 2-row halo"):
        isa_examples.conv_rows(height=7, cores=4, kernel=5)
