"""
The `isa` dialect: the program every core of a many-core target executes.

An `isa.program` names its target and declares the network inputs, outputs and constant
data it keeps in global memory. Each `isa.core` holds one core's instruction stream,
cut into phases by `isa.sync`: DMA between global and local memory, compute
instructions on local-memory tiles (the task ops' exact integer semantics), NoC
transfers between cores and the vendor layout instruction `vec_trans_scatter`. Addresses
are byte addresses; local addresses are private to each core. See docs/isa-dialect.md.

```mlir
isa.program @relu target "tianjicx" {
  isa.input "x" : tensor<1x16x4x4xi8> at 0 as nhwc
  isa.output "y" : tensor<1x16x4x4xi8> at 256 as nhwc
  isa.core (0, 0) {
    isa.dma_load sizes [256] from global 0 to local 0
    isa.relu 0 : tensor<1x4x4x16xi8> -> 256 : tensor<1x4x4x16xi8>
    isa.dma_store sizes [256] from local 256 to global 256
    isa.sync 0
  }
}
```
"""

from xdsl.ir import Dialect

from stc.compiler.irdl_accessors import direct_accessors
from stc.compiler.irdl_checks import compile_checks
from stc.dialects.isa.access import (
    BLOCK_BYTES,
    Access,
    local_capacity,
    required_alignment,
    tile_kind,
)
from stc.dialects.isa.attrs import (
    Coord,
    GlobalLayout,
    GlobalLayoutAttr,
    TileAttr,
    format_coord,
    ints,
)
from stc.dialects.isa.compute import (
    AddOp,
    AvgPoolOp,
    ComputeInstruction,
    ConvOp,
    FcOp,
    LutOp,
    MaxPoolOp,
    MulOp,
    ReluOp,
    WindowInstruction,
)
from stc.dialects.isa.copy import CopyOp
from stc.dialects.isa.core import CoreOp, Instruction, SyncOp, where
from stc.dialects.isa.dma import (
    DmaLoadOp,
    DmaMulticastOp,
    DmaOp,
    DmaStoreOp,
    dense_strides,
    self_overlap,
    strided_extent,
)
from stc.dialects.isa.layout import LANES, VEC_TRANS_SCATTER_TYPES, VecTransScatterOp, element_type_of
from stc.dialects.isa.noc import RecvOp, SendOp, TransferOp
from stc.dialects.isa.program import ProgramOp
from stc.dialects.isa.tensors import (
    DATA_KINDS,
    DataOp,
    GlobalOp,
    InputOp,
    NetworkTensorOp,
    OutputOp,
)

__all__ = [
    "BLOCK_BYTES",
    "DATA_KINDS",
    "LANES",
    "VEC_TRANS_SCATTER_TYPES",
    "Access",
    "AddOp",
    "AvgPoolOp",
    "ComputeInstruction",
    "ConvOp",
    "CopyOp",
    "Coord",
    "CoreOp",
    "DataOp",
    "DmaLoadOp",
    "DmaMulticastOp",
    "DmaOp",
    "DmaStoreOp",
    "FcOp",
    "GlobalLayout",
    "GlobalLayoutAttr",
    "GlobalOp",
    "InputOp",
    "Instruction",
    "Isa",
    "LutOp",
    "MaxPoolOp",
    "MulOp",
    "NetworkTensorOp",
    "OutputOp",
    "ProgramOp",
    "RecvOp",
    "ReluOp",
    "SendOp",
    "SyncOp",
    "TileAttr",
    "TransferOp",
    "VecTransScatterOp",
    "WindowInstruction",
    "dense_strides",
    "element_type_of",
    "format_coord",
    "ints",
    "local_capacity",
    "required_alignment",
    "self_overlap",
    "strided_extent",
    "tile_kind",
    "where",
]

Isa = direct_accessors(
    compile_checks(
        Dialect(
            "isa",
            [
                ProgramOp,
                InputOp,
                OutputOp,
                DataOp,
                CoreOp,
                SyncOp,
                DmaLoadOp,
                DmaStoreOp,
                DmaMulticastOp,
                SendOp,
                RecvOp,
                CopyOp,
                VecTransScatterOp,
                ConvOp,
                FcOp,
                AvgPoolOp,
                MaxPoolOp,
                ReluOp,
                LutOp,
                AddOp,
                MulOp,
            ],
            [TileAttr, GlobalLayoutAttr],
        )
    )
)
