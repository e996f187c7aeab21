"""The golden executor on small graphs whose results are worked out by hand."""

import numpy as np
import pytest
from xdsl.utils.exceptions import VerifyException

from stc.compiler.diagnostics import StcError
from stc.runtime.data import DataStore
from stc.runtime.from_ops import plain_block
from stc.runtime.golden import find_graph, random_inputs, run_module


def single(parse_ir, body: str, result: str, input_shape="1x2x2x3"):
    return parse_ir(
        f"""
        task.graph @g {{
          %x = task.input 0 "x" : tensor<{input_shape}xi8>
          {body}
          %out = task.buffer 99 so %y : tensor<{result}>
          task.output 100 "y" %out
        }}"""
    )


PASSTHROUGH = """
task.graph @g {
  %x = task.input 0 "x" : tensor<1x2x2x3xi8>
  %out = task.buffer 1 so %x : tensor<1x2x2x3xi8>
  task.output 2 "y" %out
}"""


def test_conv_with_dense_weights_bias_and_shift(parse_ir):
    module = single(
        parse_ir,
        """%in = task.buffer 1 sic %x : tensor<1x2x2x1xi8>
          %w = task.weight 2 dense<[[[[1], [2]], [[3], [4]]]]> : tensor<1x2x2x1xi8>
          %b = task.bias 3 dense<[5]> : tensor<1xi32>
          %y = task.conv 4 %in, %w bias %b pad [0, 1, 0, 1] shift 1 : tensor<1x2x2x1xi8>""",
        "1x2x2x1xi8",
        "1x2x2x1",
    )
    x = np.array([[[[10, 20], [30, 40]]]], dtype=np.int8)
    # Windows over the zero-padded 3x3 input: 10+40+90+160, 20+120, 30+80, 40; then +5 >> 1.
    expected = np.array([[[[152, 72], [57, 22]]]])
    assert run_module(module, {"x": x})["y"].tolist() == np.clip(expected, -128, 127).tolist()


def test_r_split_partial_sums_saturate_to_int32(parse_ir):
    module = single(
        parse_ir,
        """%in = task.buffer 1 sifc %x : tensor<1x1x1x2xi8>
          %w = task.weight 2 dense<[[[[-128, -128]]]]> : tensor<1x1x1x2xi8>
          %y = task.fc 3 %in, %w : tensor<1x1x1x1xi32>""",
        "1x1x1x1xi32",
        "1x1x1x2",
    )
    x = np.array([-128, -128], dtype=np.int8).reshape(1, 2, 1, 1)
    assert run_module(module, {"x": x})["y"].item() == 2 * 16384


def test_maxpool_compare_value_and_padding(parse_ir):
    module = single(
        parse_ir,
        """%in = task.buffer 1 si %x : tensor<1x2x2x1xi8>
          %y = task.maxpool 2 %in window [2, 2] pad [1, 0, 1, 0] cmp -50 : tensor<1x2x2x1xi8>""",
        "1x2x2x1xi8",
        "1x2x2x1",
    )
    x = np.array([[[[-100, -60], [-70, -80]]]], dtype=np.int8)
    assert run_module(module, {"x": x})["y"].tolist() == [[[[-50, -50], [-50, -50]]]]
    x = np.array([[[[-100, 60], [-70, -80]]]], dtype=np.int8)
    assert run_module(module, {"x": x})["y"].tolist() == [[[[-50, 60], [-50, 60]]]]


def test_relu_requantizes_an_int32_input(parse_ir):
    module = parse_ir(
        """
        task.graph @g {
          %x = task.input 0 "x" : tensor<1x1x1x4xi8>
          %in = task.buffer 1 sifc %x : tensor<1x1x1x4xi8>
          %w = task.weight 2 dense<[[[[100, 100, 100, 100]]]]> : tensor<1x1x1x4xi8>
          %acc = task.fc 3 %in, %w : tensor<1x1x1x1xi32>
          %r_in = task.buffer 4 si %acc : tensor<1x1x1x1xi32>
          %y = task.relu 5 %r_in shift 8 : tensor<1x1x1x1xi8>
          %out = task.buffer 6 so %y : tensor<1x1x1x1xi8>
          task.output 7 "y" %out
        }"""
    )
    assert run_module(module, {"x": np.full((1, 4, 1, 1), 50, np.int8)})["y"].item() == 78
    assert run_module(module, {"x": np.full((1, 4, 1, 1), -50, np.int8)})["y"].item() == 0


def test_lut_add_mul_avgpool(parse_ir):
    table = ", ".join(str(((i + 128) % 256) - 128 if i < 128 else i - 256) for i in range(256))
    module = parse_ir(
        f"""
        task.graph @g {{
          %x = task.input 0 "x" : tensor<1x1x2x1xi8>
          %l_in = task.buffer 1 si %x : tensor<1x1x2x1xi8>
          %t = task.table 2 dense<[{table}]> : tensor<256xi8>
          %l = task.lut 3 %l_in, %t : tensor<1x1x2x1xi8>
          %a0 = task.buffer 4 si %l : tensor<1x1x2x1xi8>
          %a1 = task.buffer 5 si %x : tensor<1x1x2x1xi8>
          %ab = task.bias 6 dense<[1]> : tensor<1xi32>
          %a = task.add 7 %a0, %a1 bias %ab : tensor<1x1x2x1xi8>
          %m0 = task.buffer 8 si %a : tensor<1x1x2x1xi8>
          %m1 = task.buffer 9 si %l : tensor<1x1x2x1xi8>
          %m = task.mul 10 %m0, %m1 shift 2 : tensor<1x1x2x1xi8>
          %p_in = task.buffer 11 si %m : tensor<1x1x2x1xi8>
          %y = task.avgpool 12 %p_in window [1, 2] shift 1 : tensor<1x1x1x1xi8>
          %out = task.buffer 13 so %y : tensor<1x1x1x1xi8>
          task.output 14 "y" %out
        }}"""
    )
    # The table maps the unsigned byte u to u as a signed byte: the identity on int8.
    x = np.array([[[[3, -4]]]], dtype=np.int8)  # NCHW 1x1x1x2
    added = np.array([3 + 3 + 1, -4 - 4 + 1])
    product = (added * np.array([3, -4])) >> 2
    assert run_module(module, {"x": x})["y"].item() == (product.sum()) >> 1


def test_lut_indexes_the_table_by_the_unsigned_byte_of_every_int8_value(parse_ir):
    table = [(7 * u + 3) % 256 - 128 for u in range(256)]
    module = single(
        parse_ir,
        f"""%in = task.buffer 1 si %x : tensor<1x16x16x1xi8>
          %t = task.table 2 dense<{table}> : tensor<256xi8>
          %y = task.lut 3 %in, %t : tensor<1x16x16x1xi8>""",
        "1x16x16x1xi8",
        input_shape="1x16x16x1",
    )
    x = np.arange(-128, 128, dtype=np.int8).reshape(1, 1, 16, 16)
    expected = [table[v + 256 if v < 0 else v] for v in range(-128, 128)]
    assert run_module(module, {"x": x})["y"].ravel().tolist() == expected


def test_buffers_assemble_boxes_at_offsets(parse_ir):
    module = parse_ir(
        """
        task.graph @g {
          %x = task.input 0 "x" : tensor<1x1x2x2xi8>
          %y = task.buffer 1 so %x[0:1, 0:1, 1:2, 0:2], %x[0:1, 0:1, 0:1, 0:2] at [0, 0, 1, 0] : tensor<1x1x2x2xi8>
          task.output 2 "swapped" %y
        }"""
    )
    x = np.arange(4, dtype=np.int8).reshape(1, 2, 1, 2)  # NCHW: c=2, w=2
    assert np.array_equal(run_module(module, {"x": x})["swapped"], x[..., ::-1])


def test_random_inputs_are_deterministic_nchw_int8(parse_ir):
    module = parse_ir(PASSTHROUGH)
    first, again = random_inputs(find_graph(module), 7), random_inputs(find_graph(module), 7)
    assert first["x"].shape == (1, 3, 2, 2)
    assert first["x"].dtype == np.int8
    assert np.array_equal(first["x"], again["x"])
    assert not np.array_equal(first["x"], random_inputs(find_graph(module), 8)["x"])


@pytest.mark.parametrize(
    ("block", "element", "low", "high"),
    [("weight", "64x8x8x32xi8", -128, 127), ("bias", "65536xi32", -(2**15), 2**15 - 1)],
)
def test_random_data_is_deterministic_and_covers_its_range(parse_ir, block, element, low, high):
    blocks = "\n".join(
        f"%d{i} = task.{block} {i} #task.random<{seed}> : tensor<{element}>" for i, seed in enumerate((5, 5, 6))
    )
    graph = find_graph(parse_ir(f"task.graph @g {{\n{blocks}\n}}"))
    first, again, other = (DataStore().tensor(plain_block(op)) for op in graph.block.ops)
    assert first.dtype == np.dtype(element.split("x")[-1].replace("i", "int"))
    assert np.array_equal(first, again)
    assert not np.array_equal(first, other)
    assert (first.min(), first.max()) == (low, high)
    assert abs(first.mean() - (low + high) / 2) < (high - low) / 100


def test_npz_references_resolve_relative_to_the_ir(parse_ir, tmp_path):
    np.savez(tmp_path / "data.npz", bias=np.array([7, -7], dtype=np.int32))
    module = parse_ir(
        """
        task.graph @g {
          %x = task.input 0 "x" : tensor<1x1x1x2xi8>
          %in = task.buffer 1 si %x : tensor<1x1x1x2xi8>
          %b = task.bias 2 #task.npz<"data.npz", "bias"> : tensor<2xi32>
          %y = task.avgpool 3 %in bias %b window [1, 1] : tensor<1x1x1x2xi8>
          %out = task.buffer 4 so %y : tensor<1x1x1x2xi8>
          task.output 5 "y" %out
        }"""
    )
    x = np.zeros((1, 2, 1, 1), np.int8)
    assert run_module(module, {"x": x}, base_dir=tmp_path)["y"].ravel().tolist() == [7, -7]
    with pytest.raises(StcError, match=r"task.bias 2: .*data.npz' does not exist"):
        run_module(module, {"x": x}, base_dir=tmp_path / "elsewhere")


def write_corrupt_npz(path):
    np.savez(path, weight=np.ones((1, 1, 1, 2), np.int8))
    data = bytearray(path.read_bytes())
    data[data.index(b"weight.npy") + 80] ^= 0xFF  # a byte of the member's data: its CRC no longer matches
    path.write_bytes(bytes(data))


def write_npy_named_npz(path):
    with path.open("wb") as file:
        np.save(file, np.ones((1, 1, 1, 2), np.int8))


@pytest.mark.parametrize(
    ("write", "message"),
    [
        (write_corrupt_npz, r"cannot read 'weight' from '.*data.npz' \(Bad CRC-32"),
        (lambda path: path.write_bytes(b"not a zip file"), r"'.*data.npz' is not an npz archive"),
        (write_npy_named_npz, r"'.*data.npz' is not an npz archive"),
        (
            lambda path: np.savez(path, weight=np.array([[[[1, None]]]], dtype=object)),
            r"cannot read 'weight' from '.*data.npz' \(Object arrays cannot be loaded when allow_pickle=False\)",
        ),
        (
            lambda path: np.savez(path, weight=np.full((1, 1, 1, 2), 0.7)),
            "'weight' holds float64 values, expected integers",
        ),
        (
            lambda path: np.savez(path, weight=np.ones((1, 1, 1, 2), bool)),
            "'weight' holds bool values, expected integers",
        ),
    ],
)
def test_bad_npz_data_is_reported_by_block(parse_ir, tmp_path, write, message):
    write(tmp_path / "data.npz")
    module = parse_ir(
        """
        task.graph @g {
          %x = task.input 0 "x" : tensor<1x1x1x2xi8>
          %in = task.buffer 1 sifc %x : tensor<1x1x1x2xi8>
          %w = task.weight 2 #task.npz<"data.npz", "weight"> : tensor<1x1x1x2xi8>
          %y = task.fc 3 %in, %w : tensor<1x1x1x1xi8>
          %out = task.buffer 4 so %y : tensor<1x1x1x1xi8>
          task.output 5 "y" %out
        }"""
    )
    with pytest.raises(StcError, match=f"^task.weight 2: {message}"):
        run_module(module, base_dir=tmp_path)


def test_inputs_become_int8_whatever_their_integer_dtype(parse_ir):
    x = np.arange(-6, 6, dtype=np.int64).reshape(1, 3, 2, 2)
    y = run_module(parse_ir(PASSTHROUGH), {"x": x})["y"]
    assert y.dtype == np.int8
    assert np.array_equal(y, x)


def test_a_block_too_large_for_any_target_is_named_with_its_bytes(parse_ir):
    """The verifier refuses it before a run tries to allocate it (running out of memory
    within the bound: test_tools.py, under a memory limit)."""
    with pytest.raises(VerifyException, match=r"^task.weight 0: data holds 7999760002399992 bytes, more than"):
        parse_ir(
            """
            task.graph @g {
              %w = task.weight 0 #task.random<1> : tensor<99999x99999x99999x8xi8>
            }"""
        )


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        ({"z": np.zeros((1, 3, 2, 2), np.int8)}, "graph @g has no input 'z'"),
        ({"x": np.zeros((1, 2, 2, 3), np.int8)}, r"input 'x' must be NCHW \[1, 3, 2, 2\], got \[1, 2, 2, 3\]"),
        ({"x": np.full((1, 3, 2, 2), 300)}, "input 'x' must hold int8 values"),
    ],
)
def test_bad_inputs_are_reported(parse_ir, inputs, message):
    module = parse_ir(PASSTHROUGH)
    with pytest.raises(StcError, match=message):
        run_module(module, inputs)
