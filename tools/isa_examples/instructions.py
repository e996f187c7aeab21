"""
`every_op`: two cores that between them run every compute instruction of the isa dialect
and exchange a tile, with the task graph that computes the same outputs.

    example = every_op("tianjicx")
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp, TensorType, i8, i32
from xdsl.ir import Operation

from stc.compiler.targets.hardware import load_target
from stc.dialects import isa
from stc.dialects.isa import GlobalLayout
from stc.dialects.task import RandomDataAttr
from stc.tools.isa_examples.example import GLOBAL_ALIGNMENT, Allocator, Example, local_allocator, shape_text, tile


def every_op(target_name: str = "tianjicx", name: str = "every_op") -> Example:
    """
    Two cores that between them run every compute instruction on one 8×8×16 input.
    Core (0, 0): relu, 2×2 maxpool and a lookup, sent to core (0, 1); a 1×1 conv to
    int32 partial sums, requantized by relu to the output "z". Core (0, 1): a 2×2
    avgpool with bias, its product with the lookup, the sum of the three with bias, and
    an fc to the output "y".
    """
    target = load_target(target_name)
    image, pooled, conv_out = (1, 8, 8, 16), (1, 4, 4, 16), (1, 8, 8, 8)
    fc_weight, conv_weight = (10, 4, 4, 16), (8, 1, 1, 16)
    memory = Allocator(GLOBAL_ALIGNMENT)
    x_address = memory.take(1024)
    y_address = memory.take(10)
    z_address = memory.take(512)
    table_address = memory.take(256)
    pool_bias_address = memory.take(16 * 4)
    fc_weight_address = memory.take(10 * 256)
    fc_bias_address = memory.take(10 * 4)
    conv_weight_address = memory.take(8 * 16)

    first = local_allocator(target)
    x0, table = first.take(1024), first.take(256)
    conv_w, relu_out, max_out, lut_out = (
        first.take(128),
        first.take(1024),
        first.take(256),
        first.take(256),
    )
    partial, z_out = first.take(2048), first.take(512)
    core0 = [
        isa.DmaLoadOp([1024], x_address, x0),
        isa.DmaLoadOp([256], table_address, table),
        isa.DmaLoadOp([128], conv_weight_address, conv_w),
        isa.SyncOp(0),
        isa.ReluOp([tile(x0, i8, image)], tile(relu_out, i8, image)),
        isa.MaxPoolOp([tile(relu_out, i8, image)], tile(max_out, i8, pooled), window=(2, 2), stride=(2, 2)),
        isa.LutOp([tile(max_out, i8, pooled), tile(table, i8, (256,))], tile(lut_out, i8, pooled)),
        isa.SendOp(256, lut_out, (0, 1), 0),
        isa.ConvOp([tile(x0, i8, image), tile(conv_w, i8, conv_weight)], tile(partial, i32, conv_out)),
        isa.ReluOp([tile(partial, i32, conv_out)], tile(z_out, i8, conv_out), shift=8),
        isa.DmaStoreOp([512], z_address, z_out),
        isa.SyncOp(1),
    ]
    second = local_allocator(target)
    x1, pool_bias, fc_w, fc_b = (
        second.take(1024),
        second.take(64),
        second.take(2560),
        second.take(40),
    )
    avg_out, lut_in, product, total, y_out = (second.take(256) for _ in range(5))
    core1 = [
        isa.DmaLoadOp([1024], x_address, x1),
        isa.DmaLoadOp([64], pool_bias_address, pool_bias),
        isa.DmaLoadOp([2560], fc_weight_address, fc_w),
        isa.DmaLoadOp([40], fc_bias_address, fc_b),
        isa.SyncOp(0),
        isa.AvgPoolOp(
            [tile(x1, i8, image)],
            tile(avg_out, i8, pooled),
            tile(pool_bias, i32, (16,)),
            window=(2, 2),
            stride=(2, 2),
            shift=2,
        ),
        isa.RecvOp(256, lut_in, (0, 0), 0),
        isa.MulOp(
            [tile(avg_out, i8, pooled), tile(lut_in, i8, pooled)],
            tile(product, i8, pooled),
            shift=6,
        ),
        isa.AddOp(
            [tile(avg_out, i8, pooled), tile(product, i8, pooled), tile(lut_in, i8, pooled)],
            tile(total, i8, pooled),
            tile(pool_bias, i32, (16,)),
            shift=1,
        ),
        isa.FcOp(
            [tile(total, i8, pooled), tile(fc_w, i8, fc_weight)],
            tile(y_out, i8, (1, 1, 1, 10)),
            tile(fc_b, i32, (10,)),
            shift=9,
        ),
        isa.DmaStoreOp([10], y_address, y_out),
        isa.SyncOp(1),
    ]
    ops: list[Operation] = [
        isa.InputOp("x", TensorType(i8, (1, 16, 8, 8)), x_address, GlobalLayout.NHWC),
        isa.OutputOp("y", TensorType(i8, (1, 10, 1, 1)), y_address, GlobalLayout.NHWC),
        isa.OutputOp("z", TensorType(i8, (1, 8, 8, 8)), z_address, GlobalLayout.NHWC),
        isa.DataOp(RandomDataAttr(11), TensorType(i8, (256,)), table_address),
        isa.DataOp(RandomDataAttr(12), TensorType(i32, (16,)), pool_bias_address),
        isa.DataOp(RandomDataAttr(13), TensorType(i8, fc_weight), fc_weight_address),
        isa.DataOp(RandomDataAttr(14), TensorType(i32, (10,)), fc_bias_address),
        isa.DataOp(RandomDataAttr(15), TensorType(i8, conv_weight), conv_weight_address),
        isa.CoreOp((0, 0), core0),
        isa.CoreOp((0, 1), core1),
    ]
    pooled_type = shape_text(pooled)
    twin = f"""task.graph @{name} {{
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %relu_in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %relu = task.relu 2 %relu_in : tensor<1x8x8x16xi8>
  %max_in = task.buffer 3 si %relu : tensor<1x8x8x16xi8>
  %max = task.maxpool 4 %max_in window [2, 2] stride [2, 2] : tensor<1x4x4x16xi8>
  %lut_in = task.buffer 5 si %max : tensor<1x4x4x16xi8>
  %table = task.table 6 #task.random<11> : tensor<256xi8>
  %lut = task.lut 7 %lut_in, %table : tensor<1x4x4x16xi8>
  %avg_in = task.buffer 8 si %x : tensor<1x8x8x16xi8>
  %avg_bias = task.bias 9 #task.random<12> : tensor<16xi32>
  %avg = task.avgpool 10 %avg_in bias %avg_bias window [2, 2] stride [2, 2] shift 2 : {pooled_type}
  %mul_lhs = task.buffer 11 si %avg : tensor<1x4x4x16xi8>
  %mul_rhs = task.buffer 12 si %lut : tensor<1x4x4x16xi8>
  %mul = task.mul 13 %mul_lhs, %mul_rhs shift 6 : tensor<1x4x4x16xi8>
  %add_avg = task.buffer 14 si %avg : tensor<1x4x4x16xi8>
  %add_mul = task.buffer 15 si %mul : tensor<1x4x4x16xi8>
  %add_lut = task.buffer 16 si %lut : tensor<1x4x4x16xi8>
  %add_bias = task.bias 17 #task.random<12> : tensor<16xi32>
  %add = task.add 18 %add_avg, %add_mul, %add_lut bias %add_bias shift 1 : tensor<1x4x4x16xi8>
  %fc_in = task.buffer 19 sifc %add : tensor<1x4x4x16xi8>
  %fc_w = task.weight 20 #task.random<13> : tensor<10x4x4x16xi8>
  %fc_b = task.bias 21 #task.random<14> : tensor<10xi32>
  %fc = task.fc 22 %fc_in, %fc_w bias %fc_b shift 9 : tensor<1x1x1x10xi8>
  %y = task.buffer 23 so %fc : tensor<1x1x1x10xi8>
  task.output 24 "y" %y
  %conv_in = task.buffer 25 sic %x : tensor<1x8x8x16xi8>
  %conv_w = task.weight 26 #task.random<15> : tensor<8x1x1x16xi8>
  %conv = task.conv 27 %conv_in, %conv_w : tensor<1x8x8x8xi32>
  %z_in = task.buffer 28 si %conv : tensor<1x8x8x8xi32>
  %z_relu = task.relu 29 %z_in shift 8 : tensor<1x8x8x8xi8>
  %z = task.buffer 30 so %z_relu : tensor<1x8x8x8xi8>
  task.output 31 "z" %z
}}
"""
    description = (
        f"Two {target_name} cores that together run every compute instruction (relu, maxpool, lut, "
        "conv to int32, avgpool, mul, add, fc) on one 8x8x16 input and exchange a 4x4x16 tile."
    )
    return Example(name, description, ModuleOp([isa.ProgramOp(name, target_name, ops)]), twin)
