"""
The `task` dialect: a network as a TianjicX-style task graph, in which storage blocks
(inputs, activation buffers, weights, biases, tables, outputs) and compute blocks (conv,
fc, pools, relu, lut, add, mul) alternate. Values are NHWC tensors of int8 or int32.
See docs/task-dialect.md.
"""

from xdsl.ir import Dialect

from stc.compiler.irdl_accessors import direct_accessors
from stc.compiler.irdl_checks import compile_checks
from stc.compiler.rules.windows import window_output_size
from stc.dialects.task.attrs import (
    BoxAttr,
    NpzDataAttr,
    RandomDataAttr,
    StorageKind,
    StorageKindAttr,
)
from stc.dialects.task.base import ComputeOp, StorageOp, TaskOp
from stc.dialects.task.compute import AddOp, ComputeBlock, FcOp, LutOp, MulOp, ReluOp
from stc.dialects.task.data import BiasOp, DataOp, TableOp, WeightOp
from stc.dialects.task.graph import GraphOp
from stc.dialects.task.storage import BufferOp, InputOp, OutputOp
from stc.dialects.task.window import AvgPoolOp, ConvOp, MaxPoolOp, WindowBlock

__all__ = [
    "AddOp",
    "AvgPoolOp",
    "BiasOp",
    "BoxAttr",
    "BufferOp",
    "ComputeBlock",
    "ComputeOp",
    "ConvOp",
    "DataOp",
    "FcOp",
    "GraphOp",
    "InputOp",
    "LutOp",
    "MaxPoolOp",
    "MulOp",
    "NpzDataAttr",
    "OutputOp",
    "RandomDataAttr",
    "ReluOp",
    "StorageKind",
    "StorageKindAttr",
    "StorageOp",
    "TableOp",
    "TaskOp",
    "Task",
    "WeightOp",
    "WindowBlock",
    "window_output_size",
]

Task = direct_accessors(
    compile_checks(
        Dialect(
            "task",
            [
                GraphOp,
                InputOp,
                OutputOp,
                BufferOp,
                WeightOp,
                BiasOp,
                TableOp,
                ConvOp,
                FcOp,
                AvgPoolOp,
                MaxPoolOp,
                ReluOp,
                LutOp,
                AddOp,
                MulOp,
            ],
            [BoxAttr, StorageKindAttr, RandomDataAttr, NpzDataAttr],
        )
    )
)
