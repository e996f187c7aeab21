"""stc-import: small ONNX models built with onnx.helper, one per supported op and per refused
one; the imported graph's blocks, its agreement with onnxruntime, and bit-exact compilation."""

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from stc.compiler.diagnostics import StcError  # noqa: E402
from stc.compiler.frontend.onnx_import import Calibration, import_onnx  # noqa: E402
from stc.compiler.frontend.scales import is_pow2, pow2_scale, rounded_bias, shift_for, table  # noqa: E402
from stc.compiler.ir_files import module_text  # noqa: E402
from stc.dialects import task  # noqa: E402
from stc.runtime.golden import find_graph  # noqa: E402
from stc.tools.stc_import import cli as stc_import  # noqa: E402
from stc.tools.stc_opt import main as stc_opt  # noqa: E402
from stc.tools.stc_run import cli as stc_run  # noqa: E402

RNG = np.random.default_rng(0)


def constant(name: str, shape, spread: float = 0.3, dtype=np.float32) -> onnx.TensorProto:
    return numpy_helper.from_array((RNG.standard_normal(shape) * spread).astype(dtype), name)


def save_model(path: Path, nodes, x_shape, y_shape, initializers=(), extra_inputs=()) -> Path:
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, x_shape)]
    inputs += [helper.make_tensor_value_info(name, TensorProto.FLOAT, shape) for name, shape in extra_inputs]
    graph = helper.make_graph(
        nodes, "net", inputs, [helper.make_tensor_value_info("y", TensorProto.FLOAT, y_shape)], list(initializers)
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return path


def imported(path: Path, samples: int = 4):
    return import_onnx(path, path.with_suffix(".npz"), Calibration(samples=samples))


def block_names(result) -> list[str]:
    return [op.name for op in find_graph(result.module).block.ops if isinstance(op, task.ComputeBlock)]


def residual_model(path: Path) -> Path:
    """Conv-BN-ReLU, max pool, a residual Conv + Add, global average pool, Flatten, Gemm."""
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c1", "g", "beta", "mean", "var"], ["bn1"], name="bn1"),
        helper.make_node("Relu", ["bn1"], ["r1"], name="relu1"),
        helper.make_node("MaxPool", ["r1"], ["p1"], name="pool1", kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Conv", ["p1", "w2"], ["c2"], name="conv2", pads=[1, 1, 1, 1]),
        helper.make_node("Add", ["c2", "p1"], ["a"], name="add"),
        helper.make_node("Relu", ["a"], ["r2"], name="relu2"),
        helper.make_node("GlobalAveragePool", ["r2"], ["g2"], name="gap"),
        helper.make_node("Dropout", ["g2"], ["d"], name="drop"),
        helper.make_node("Flatten", ["d"], ["f"], name="flat"),
        helper.make_node("Gemm", ["f", "wf", "bf"], ["y"], name="fc", transB=1),
    ]
    initializers = [
        constant("w1", (8, 3, 3, 3)),
        constant("b1", (8,), 0.1),
        numpy_helper.from_array(RNG.uniform(0.5, 1.5, 8).astype(np.float32), "g"),
        constant("beta", (8,), 0.1),
        constant("mean", (8,), 0.1),
        numpy_helper.from_array(RNG.uniform(0.5, 1.5, 8).astype(np.float32), "var"),
        constant("w2", (8, 8, 3, 3), 0.2),
        constant("wf", (10, 8)),
        constant("bf", (10,), 0.1),
    ]
    return save_model(path, nodes, [1, 3, 12, 12], [1, 10], initializers)


def test_a_residual_network_imports_with_batchnorm_folded_and_agrees_with_onnxruntime(tmp_path):
    result = imported(residual_model(tmp_path / "res.onnx"), samples=8)
    assert block_names(result) == [
        "task.conv", "task.relu", "task.maxpool", "task.conv", "task.add", "task.relu", "task.avgpool", "task.fc"
    ]  # fmt: skip
    assert result.folded == {"BatchNormalization": 1, "Dropout": 1}
    assert result.imported["Conv"] == 2
    assert result.imported["Gemm"] == 1
    (agreement,) = result.agreement
    assert agreement.output == "y"
    assert agreement.cosine > 0.99
    assert agreement.top1 is not None
    assert all(is_pow2(scale) for scale in result.scales.values())
    graph = find_graph(result.module)
    for op in graph.block.ops:
        if isinstance(op, task.DataOp):
            assert isinstance(op.data, task.NpzDataAttr)
            assert op.data.path == "res.npz"


def test_the_imported_graph_compiles_for_tianjicx_and_runs_bit_exactly(tmp_path):
    model = residual_model(tmp_path / "res.onnx")
    ir, isa_ir = tmp_path / "res.mlir", tmp_path / "res.isa.mlir"
    result = CliRunner().invoke(stc_import, [str(model), "-o", str(ir)])
    assert result.exit_code == 0, result.output
    assert "cosine similarity" in result.output
    assert (tmp_path / "res.npz").is_file()
    assert stc_opt([str(ir), "-p", "stc-pipeline{target=tianjicx}", "-o", str(isa_ir)]) == 0
    compared = CliRunner().invoke(stc_run, [str(ir), "--compare", str(isa_ir)])
    assert compared.exit_code == 0, compared.output
    assert "1 outputs bit-identical" in compared.output


def single_op_model(path: Path, op: str, x_shape=(1, 4, 6, 6), y_shape=None, inputs=("x",), **attributes) -> Path:
    node = helper.make_node(op, list(inputs), ["y"], name=op.lower(), **attributes)
    return save_model(path, [node], list(x_shape), list(y_shape or x_shape))


@pytest.mark.parametrize(
    ("op", "attributes", "block"),
    [
        ("Relu", {}, "task.relu"),
        ("Sigmoid", {}, "task.lut"),
        ("Tanh", {}, "task.lut"),
        ("LeakyRelu", {"alpha": 0.1}, "task.lut"),
        ("HardSwish", {}, "task.lut"),
    ],
)
def test_pointwise_ops_become_relu_or_a_lookup_table(tmp_path, op, attributes, block):
    result = imported(single_op_model(tmp_path / "m.onnx", op, **attributes))
    assert block_names(result) == [block]
    assert result.agreement[0].cosine > 0.995


def test_clip_is_relu6_as_a_table_and_keeps_its_input_scale(tmp_path):
    nodes = [
        helper.make_node("Mul", ["x", "x"], ["sq"], name="square"),
        helper.make_node("Clip", ["sq", "lo", "hi"], ["y"], name="relu6"),
    ]
    bounds = [numpy_helper.from_array(np.array(v, dtype=np.float32), n) for n, v in (("lo", 0.0), ("hi", 6.0))]
    result = imported(save_model(tmp_path / "m.onnx", nodes, [1, 4, 6, 6], [1, 4, 6, 6], bounds), samples=8)
    assert block_names(result) == ["task.mul", "task.lut"]
    assert result.agreement[0].cosine > 0.995


@pytest.mark.parametrize(
    ("op", "attributes", "size"),
    [
        ("MaxPool", {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}, 3),
        ("AveragePool", {"kernel_shape": [2, 2], "strides": [2, 2]}, 3),
        ("AveragePool", {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1], "count_include_pad": 1}, 6),
        ("GlobalAveragePool", {}, 1),
    ],
)
def test_pools(tmp_path, op, attributes, size):
    result = imported(single_op_model(tmp_path / "m.onnx", op, y_shape=(1, 4, size, size), **attributes))
    assert block_names(result) == ["task.maxpool" if op == "MaxPool" else "task.avgpool"]
    assert result.agreement[0].cosine > 0.99


def test_a_per_channel_constant_added_to_a_conv_joins_its_bias(tmp_path):
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], name="conv"),
        helper.make_node("Add", ["shift", "c"], ["y"], name="shift"),
    ]
    initializers = [constant("w", (6, 4, 1, 1)), constant("shift", (1, 6, 1, 1), 1.0)]
    result = imported(save_model(tmp_path / "m.onnx", nodes, [1, 4, 5, 5], [1, 6, 5, 5], initializers))
    assert block_names(result) == ["task.conv"]
    assert result.agreement[0].cosine > 0.99


@pytest.mark.parametrize(("groups", "filters"), [(2, 6), (4, 4)])
def test_grouped_and_depthwise_convolutions_are_one_conv_per_group(tmp_path, groups, filters):
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], name="grouped", group=groups, pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["y"], name="relu"),
    ]
    initializers = [constant("w", (filters, 4 // groups, 3, 3)), constant("b", (filters,), 0.1)]
    model = save_model(tmp_path / "g.onnx", nodes, [1, 4, 6, 6], [1, filters, 6, 6], initializers)
    result = imported(model)
    assert block_names(result) == ["task.conv"] * groups + ["task.relu"]
    assert result.agreement[0].cosine > 0.99
    graph = find_graph(result.module)
    weights = [op for op in graph.block.ops if isinstance(op, task.WeightOp)]
    assert {op.data for op in weights} == {task.NpzDataAttr(("g.npz", "grouped.weight"))}
    assert [op.region.lo[0] for op in weights] == list(range(0, filters, filters // groups))
    ir = tmp_path / "g.mlir"
    ir.write_text(module_text(result.module))
    assert stc_opt([str(ir), "-p", "stc-pipeline{target=tianjicx}", "-o", str(tmp_path / "g.isa.mlir")]) == 0
    compared = CliRunner().invoke(stc_run, [str(ir), "--compare", str(tmp_path / "g.isa.mlir")])
    assert compared.exit_code == 0, compared.output


def test_a_model_onnxruntime_rejects_is_one_message(tmp_path, capfd):
    nodes = [helper.make_node("Conv", ["x", "w"], ["y"], name="dw", group=3)]
    model = save_model(tmp_path / "m.onnx", nodes, [1, 4, 5, 5], [1, 3, 5, 5], [constant("w", (3, 1, 1, 1))])
    result = CliRunner().invoke(stc_import, [str(model), "-o", str(tmp_path / "m.mlir")])
    assert result.exit_code == 1
    assert result.output.startswith("stc-import: error: onnxruntime cannot run")
    assert "Input channels C is not equal to kernel channels * group" in result.output
    assert capfd.readouterr().err == ""  # onnxruntime's own log stays quiet


def test_scaling_by_a_positive_constant_changes_the_scale_not_the_codes(tmp_path):
    nodes = [
        helper.make_node("Mul", ["three", "x"], ["m"], name="triple"),
        helper.make_node("Div", ["m", "ten"], ["d"], name="tenth"),
        helper.make_node("Conv", ["d", "w"], ["y"], name="conv"),
    ]
    initializers = [
        numpy_helper.from_array(np.array(3.0, np.float32), "three"),
        numpy_helper.from_array(np.array([10.0], np.float32), "ten"),
        constant("w", (6, 4, 1, 1)),
    ]
    result = imported(save_model(tmp_path / "m.onnx", nodes, [1, 4, 5, 5], [1, 6, 5, 5], initializers))
    assert block_names(result) == ["task.conv"]
    assert result.imported["Mul"] == result.imported["Div"] == 1
    assert result.agreement[0].cosine > 0.99


def test_concat_of_branches_at_different_scales_is_aligned(tmp_path):
    nodes = [
        helper.make_node("Conv", ["x", "wa"], ["a"], name="conv_a"),
        helper.make_node("Conv", ["x", "wb"], ["b"], name="conv_b"),
        helper.make_node("Concat", ["a", "b", "x"], ["y"], name="cat", axis=1),
    ]
    weights = [constant("wa", (4, 4, 1, 1), 3.0), constant("wb", (2, 4, 1, 1), 0.05)]
    result = imported(save_model(tmp_path / "m.onnx", nodes, [1, 4, 5, 5], [1, 10, 5, 5], weights))
    assert block_names(result).count("task.conv") == 2
    assert result.agreement[0].cosine > 0.99


def test_identity_reshape_and_a_flattened_feature_map_into_gemm(tmp_path):
    nodes = [
        helper.make_node("Identity", ["x"], ["i"], name="same"),
        helper.make_node("Reshape", ["i", "shape"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "w"], ["y"], name="fc", transB=1, alpha=0.5),
    ]
    initializers = [numpy_helper.from_array(np.array([1, -1], dtype=np.int64), "shape"), constant("w", (5, 36))]
    result = imported(save_model(tmp_path / "m.onnx", nodes, [1, 4, 3, 3], [1, 5], initializers))
    assert block_names(result) == ["task.fc"]
    assert result.folded == {"Identity": 1}
    assert result.agreement[0].cosine > 0.99


def test_squeeze_and_unsqueeze_of_unit_dimensions_move_no_data(tmp_path):
    axes = numpy_helper.from_array(np.array([2, 3], dtype=np.int64), "axes")
    nodes = [
        helper.make_node("GlobalAveragePool", ["x"], ["g"], name="gap"),
        helper.make_node("Squeeze", ["g", "axes"], ["s"], name="squeeze"),
        helper.make_node("Unsqueeze", ["s", "axes"], ["u"], name="unsqueeze"),
        helper.make_node("Flatten", ["u"], ["f"], name="flat"),
        helper.make_node("Gemm", ["f", "w"], ["y"], name="fc", transB=1),
    ]
    result = imported(save_model(tmp_path / "m.onnx", nodes, [1, 4, 3, 3], [1, 5], [axes, constant("w", (5, 4))]))
    assert block_names(result) == ["task.avgpool", "task.fc"]
    assert result.agreement[0].cosine > 0.99


def test_matmul_and_the_constant_added_to_it_become_an_fc_with_a_bias(tmp_path):
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["m"], name="mm"),
        helper.make_node("Add", ["m", "b"], ["y"], name="bias"),
    ]
    initializers = [constant("w", (16, 8)), constant("b", (8,), 1.0)]
    result = imported(save_model(tmp_path / "m.onnx", nodes, [1, 16], [1, 8], initializers))
    assert block_names(result) == ["task.fc"]
    assert result.folded == {"Add": 1}
    assert result.agreement[0].cosine > 0.99
    assert result.agreement[0].top1 is not None


def qdq(name: str, scale: float, source: str, target: str) -> list:
    return [
        helper.make_node("QuantizeLinear", [source, f"{name}_s", f"{name}_z"], [f"{name}_q"], name=f"{name}_quant"),
        helper.make_node("DequantizeLinear", [f"{name}_q", f"{name}_s", f"{name}_z"], [target], name=f"{name}_deq"),
    ]


def qdq_constants(name: str, scale: float) -> list:
    return [
        numpy_helper.from_array(np.array(scale, dtype=np.float32), f"{name}_s"),
        numpy_helper.from_array(np.array(0, dtype=np.int8), f"{name}_z"),
    ]


def test_a_qdq_model_with_power_of_two_scales_keeps_them(tmp_path):
    nodes = [
        *qdq("in", 2**-5, "x", "xq"),
        *qdq("w", 2**-6, "w", "wq"),
        helper.make_node("Conv", ["xq", "wq"], ["c"], name="conv"),
        *qdq("out", 2**-3, "c", "y"),
    ]
    constants = [*qdq_constants("in", 2**-5), *qdq_constants("w", 2**-6), *qdq_constants("out", 2**-3)]
    weight = np.clip(RNG.standard_normal((8, 4, 1, 1)) * 0.3, -1, 1).astype(np.float32)
    weight[0, 0, 0, 0] = 1.5  # code 96: the codes use the weight's scale 2^-6 as they are
    path = save_model(
        tmp_path / "m.onnx", nodes, [1, 4, 5, 5], [1, 8, 5, 5], [numpy_helper.from_array(weight, "w"), *constants]
    )
    result = imported(path)
    assert result.scales == {"x": 2**-5, "y": 2**-3}
    conv = next(op for op in find_graph(result.module).block.ops if isinstance(op, task.ConvOp))
    assert conv.int("shift") == 8  # accumulator step 2^-11, output 2^-3
    assert result.agreement[0].cosine > 0.99


def test_qlinearconv_with_power_of_two_scales_is_a_conv(tmp_path):
    q = [helper.make_node("QuantizeLinear", ["x", "xs", "z"], ["xq"], name="quant")]
    conv = helper.make_node(
        "QLinearConv", ["xq", "xs", "z", "w", "ws", "z", "ys", "z"], ["yq"], name="qconv", pads=[1, 1, 1, 1]
    )
    dq = helper.make_node("DequantizeLinear", ["yq", "ys", "z"], ["y"], name="deq")
    constants = [
        numpy_helper.from_array(RNG.integers(-100, 100, (6, 4, 3, 3)).astype(np.int8), "w"),
        numpy_helper.from_array(np.array(2**-4, dtype=np.float32), "xs"),
        numpy_helper.from_array(np.array(2**-7, dtype=np.float32), "ws"),
        numpy_helper.from_array(np.array(2**-2, dtype=np.float32), "ys"),
        numpy_helper.from_array(np.array(0, dtype=np.int8), "z"),
    ]
    result = imported(save_model(tmp_path / "m.onnx", [*q, conv, dq], [1, 4, 5, 5], [1, 6, 5, 5], constants))
    assert block_names(result) == ["task.conv"]
    assert result.folded["QLinearConv (as Conv)"] == 1
    assert result.agreement[0].cosine > 0.999


REFUSED = [
    (
        "unsupported",
        lambda p: single_op_model(p, "Softmax"),
        "node 'softmax' (Softmax) is not supported; stc-import supports Abs, Add",
    ),
    (
        "broadcast",
        lambda p: save_model(p, [helper.make_node("Add", ["x", "z"], ["y"], name="add")], [1, 4, 5, 5], [1, 4, 5, 5],
                             extra_inputs=[("z", [1, 4, 1, 1])]),
        "node 'add' (Add): adds tensors of shapes",
    ),
    (
        "avgpool-excluding-pad",
        lambda p: single_op_model(p, "AveragePool", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        "node 'averagepool' (AveragePool): padding with count_include_pad=0",
    ),
    (
        "moving-reshape",
        lambda p: save_model(p, [helper.make_node("Reshape", ["x", "s"], ["y"], name="r")], [1, 4, 6, 6],
                             [1, 4, 36, 1], [numpy_helper.from_array(np.array([1, 4, 36, 1], dtype=np.int64), "s")]),
        "node 'r' (Reshape): reshaping [1, 4, 6, 6] to [1, 4, 36, 1] moves data",
    ),
    (
        "lone-batchnorm",
        lambda p: save_model(p, [helper.make_node("BatchNormalization", ["x", "g", "g", "g", "g"], ["y"], name="bn")],
                             [1, 4, 5, 5], [1, 4, 5, 5], [numpy_helper.from_array(np.ones(4, np.float32), "g")]),
        "node 'bn' (BatchNormalization): BatchNormalization is folded into the Conv before it",
    ),
    (
        "constant-along-width",
        lambda p: save_model(p, [helper.make_node("Conv", ["x", "w"], ["c"], name="conv"),
                                 helper.make_node("Add", ["c", "k"], ["y"], name="add")],
                             [1, 4, 5, 5], [1, 4, 5, 5], [constant("w", (4, 4, 1, 1)), constant("k", (5,))]),
        "node 'add' (Add): input 'k' is a constant; stc-import takes activations here",
    ),
    (
        "negative-scale",
        lambda p: save_model(p, [helper.make_node("Mul", ["x", "k"], ["y"], name="flip")], [1, 4, 5, 5], [1, 4, 5, 5],
                             [numpy_helper.from_array(np.array(-2.0, np.float32), "k")]),
        "node 'flip' (Mul): takes an activation and a positive scalar constant here, got 'k' of shape []",
    ),
    (
        "non-power-of-two-qdq",
        lambda p: save_model(p, qdq("in", 0.1, "x", "y"), [1, 4, 5, 5], [1, 4, 5, 5], qdq_constants("in", 0.1)),
        "node 'in_quant' (QuantizeLinear): scale 0.1 of 'in_s' is not a power of two",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("make", "message"), [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED])
def test_refused_models_end_in_one_message(tmp_path, make, message):
    model = make(tmp_path / "m.onnx")
    with pytest.raises(StcError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        imported(model)
    result = CliRunner().invoke(stc_import, [str(model), "-o", str(tmp_path / "m.mlir")])
    assert result.exit_code == 1
    assert result.output.startswith("stc-import: error: node ")
    assert "Traceback" not in result.output


def test_calibration_from_a_folder_of_npy_files(tmp_path):
    model = residual_model(tmp_path / "res.onnx")
    folder = tmp_path / "calibration"
    folder.mkdir()
    for index in range(3):
        np.save(folder / f"{index}.npy", RNG.standard_normal((3, 12, 12)).astype(np.float32) * 2)
    result = import_onnx(model, tmp_path / "res.npz", Calibration(directory=folder))
    assert result.calibration == f"3 samples from {folder}"
    np.save(folder / "bad.npy", np.zeros((4, 4)))
    with pytest.raises(StcError, match=r"bad.npy' has shape \[4, 4\]; input 'x' takes \[1, 3, 12, 12\]"):
        import_onnx(model, tmp_path / "res.npz", Calibration(directory=folder))


def test_a_file_that_is_not_onnx_is_one_message(tmp_path):
    path = tmp_path / "junk.onnx"
    path.write_bytes(b"\xff\x00 not a model")
    result = CliRunner().invoke(stc_import, [str(path), "-o", str(tmp_path / "m.mlir")])
    assert result.exit_code == 1
    assert result.output.startswith("stc-import: error: ")


def test_power_of_two_arithmetic():
    assert pow2_scale(6.0) == 2**-4
    assert pow2_scale(127.0) == 1
    assert pow2_scale(0.0) == 1
    assert shift_for(2**-12, 6.0) == 8
    assert shift_for(1.0, 1.0) == 0
    assert rounded_bias(np.array([3.4, -2.6]), 2).tolist() == [5, -1]
    codes = table(np.tanh, 2**-5, 2**-7)
    assert codes[0] == 0
    assert codes[127] == 127
    assert codes[128] == -128


def test_the_resnet18_benchmark_is_skipped_cleanly_without_torch(monkeypatch):
    from stc.tools import bench_import

    real = bench_import.importlib.util.find_spec
    monkeypatch.setattr(bench_import.importlib.util, "find_spec", lambda name: None if name == "torch" else real(name))
    result = CliRunner().invoke(bench_import.main, [])
    assert result.exit_code == 0
    assert result.output.startswith("bench_import: skipped, torch and torchvision are not installed")


def test_calibration_shows_a_progress_bar_on_a_terminal_only(tmp_path, monkeypatch, capsys):
    from stc.compiler import progress

    model = residual_model(tmp_path / "res.onnx")
    imported(model, samples=3)
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(progress, "stderr_is_terminal", lambda: True)
    imported(model, samples=3)
    written = capsys.readouterr().err
    assert "stc-import: calibration" in written
    assert "/6 " in written  # three float runs and three int8 runs
