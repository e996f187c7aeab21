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

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import ClassVar

import attrs
import numpy as np
from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    IntAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    SymbolNameConstraint,
    TensorType,
    UnitAttr,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    Block,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SpacedOpaqueSyntaxAttribute,
    TypeAttribute,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsolatedFromAbove, NoTerminator, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from stc.compiler.diagnostics import StcError
from stc.compiler.hardware import HardwareTarget, load_target
from stc.dialects.task.attrs import (
    BoxAttr,
    NpzDataAttr,
    RandomDataAttr,
    parse_optional_box,
    print_box,
)
from stc.dialects.task.compute import window_output_size
from stc.dialects.task.storage import format_box
from stc.dialects.task.syntax import (
    format_int_list,
    i64_array,
    i64_attr,
    parse_int_list,
    parse_tensor_type,
    print_attr_dict,
)

Coord = tuple[int, int]

BLOCK_BYTES = 32
"""vec_trans_scatter moves 32-byte blocks, each starting on a 32-byte boundary."""

LANES = 16
"""Blocks one vec_trans_scatter repeat reads and writes."""


def ints(attr: Attribute) -> tuple[int, ...]:
    """The values of an i64 dense array."""
    assert isinstance(attr, DenseArrayBase)
    return attr.get_values()


def format_coord(coord: Sequence[int]) -> str:
    return f"({coord[0]}, {coord[1]})"


def parse_coord(parser: Parser) -> list[int]:
    """Parse `(y, x)`."""
    return parser.parse_comma_separated_list(
        parser.Delimiter.PAREN, lambda: parser.parse_integer(allow_boolean=False)
    )


def dense_strides(sizes: Sequence[int]) -> tuple[int, ...]:
    """Row-major strides of a dense box: (12, 4, 1) for sizes (2, 3, 4)."""
    strides = [1] * len(sizes)
    for axis in range(len(sizes) - 2, -1, -1):
        strides[axis] = strides[axis + 1] * sizes[axis + 1]
    return tuple(strides)


def strided_extent(sizes: Sequence[int], strides: Sequence[int]) -> int:
    """Bytes from the first to one past the last byte a strided box touches."""
    return 1 + sum((size - 1) * stride for size, stride in zip(sizes, strides, strict=True))


def self_overlap(sizes: Sequence[int], strides: Sequence[int]) -> bool:
    """Whether two elements of a strided box could land on one byte: each stride, in
    increasing order, must clear everything the smaller strides span."""
    span = 1
    for stride, size in sorted((st, s) for s, st in zip(sizes, strides, strict=True) if s > 1):
        if stride < span:
            return True
        span += (size - 1) * stride
    return False


def single_block_region(body: Region | Sequence[Operation]) -> Region:
    """A region of one block: the parsed one (given a block if empty) or one of `ops`."""
    region = body if isinstance(body, Region) else Region(Block(body))
    if not region.blocks:
        region.add_block(Block())
    return region


# --- Attributes -------------------------------------------------------------------


class GlobalLayout(StrEnum):
    """How a network input or output is laid out in global memory."""

    NCHW = "nchw"
    NHWC = "nhwc"


@irdl_attr_definition
class GlobalLayoutAttr(EnumAttribute[GlobalLayout], SpacedOpaqueSyntaxAttribute):
    """The layout of a global tensor: `#isa<layout nhwc>`."""

    name = "isa.layout"


def parse_tile_parts(parser: AttrParser) -> tuple[IntAttr, TensorType[Attribute]]:
    address = parser.parse_integer(allow_boolean=False)
    parser.parse_punctuation(":")
    start = parser.pos
    typ = parser.parse_type()
    if not isinstance(typ, TensorType):
        parser.raise_error("expected a tensor type", start, parser.pos)
    return IntAttr(address), typ


@irdl_attr_definition
class TileAttr(ParametrizedAttribute):
    """
    A tensor in a core's local memory: its byte address and its type. The elements are
    stored densely in row-major order (NHWC for activations, F×Ky×Kx×R for weights).

    ```mlir
    #isa.tile<512 : tensor<1x4x16x16xi8>>
    ```
    """

    name = "isa.tile"
    address_: IntAttr
    tensor_type: TensorType[Attribute]

    def __init__(self, address: int, tensor_type: TensorType[Attribute]):
        super().__init__(IntAttr(address), tensor_type)

    @property
    def address(self) -> int:
        return self.address_.data

    @property
    def shape(self) -> tuple[int, ...]:
        return self.tensor_type.get_shape()

    @property
    def element_bits(self) -> int:
        element = self.tensor_type.get_element_type()
        assert isinstance(element, IntegerType)
        return element.width.data

    @property
    def dtype(self) -> np.dtype:
        return np.dtype(np.int8 if self.element_bits == 8 else np.int32)

    @property
    def nbytes(self) -> int:
        return math.prod(self.shape) * self.element_bits // 8

    @property
    def end(self) -> int:
        return self.address + self.nbytes

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return parse_tile_parts(parser)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            print_tile_parts(printer, self)

    def verify(self) -> None:
        if self.address < 0:
            raise VerifyException(f"tile address {self.address} is negative")
        element = self.tensor_type.get_element_type()
        if not isinstance(element, IntegerType) or element.width.data not in (8, 32):
            raise VerifyException(f"tiles hold i8 or i32 elements, got {self.tensor_type}")
        if not self.shape or min(self.shape) < 1:
            raise VerifyException(f"tiles have a static non-empty shape, got {self.tensor_type}")


def print_tile_parts(printer: Printer, tile: TileAttr) -> None:
    printer.print_string(f"{tile.address} : ")
    printer.print_attribute(tile.tensor_type)


def parse_tile(parser: Parser) -> TileAttr:
    address, typ = parse_tile_parts(parser)
    return TileAttr(address.data, typ)


# --- Memory accesses, checked against the target by isa.program ----------------------


@attrs.frozen
class Access:
    """A byte range an instruction touches, and the alignment rule its start follows:
    a storage kind of the target (`activation`, `partial_sum`, `weight`, `bias`),
    `transfer` (the target's smallest alignment), `block` (32 bytes, always) or `none`
    (global memory)."""

    role: str
    start: int
    size: int
    alignment: str

    @property
    def end(self) -> int:
        return self.start + self.size


def tile_kind(tile: TileAttr) -> str:
    """The storage kind of an activation tile: int8 activations or int32 partial sums."""
    return "activation" if tile.element_bits == 8 else "partial_sum"


def required_alignment(target: HardwareTarget, rule: str) -> int:
    if rule == "block":
        return BLOCK_BYTES
    alignment = target.local_memory.alignment_bytes
    if rule == "transfer":
        return min(alignment.activation, alignment.partial_sum, alignment.weight, alignment.bias)
    return getattr(alignment, rule)


# --- Program structure -------------------------------------------------------------


@irdl_op_definition
class ProgramOp(IRDLOperation):
    """
    A program for a target: global-memory declarations (`isa.input`, `isa.output`,
    `isa.data`) and one `isa.core` per core it uses. Phases are global: every core ends
    phase p with `isa.sync p`, and phase p + 1 starts when all cores have.

    ```mlir
    isa.program @conv target "tianjicx" {
      isa.input "x" : tensor<1x16x8x8xi8> at 0 as nhwc
      isa.core (0, 0) { ... }
    }
    ```
    """

    name = "isa.program"
    sym_name = prop_def(SymbolNameConstraint())
    target = prop_def(StringAttr)
    body = region_def("single_block")
    traits = traits_def(NoTerminator(), IsolatedFromAbove(), SymbolOpInterface())

    def __init__(self, name: str, target: str, body: Region | Sequence[Operation] = ()):
        super().__init__(
            properties={"sym_name": StringAttr(name), "target": StringAttr(target)},
            regions=[single_block_region(body)],
        )

    @property
    def program_name(self) -> str:
        return self.sym_name.data

    def inputs(self) -> list[InputOp]:
        return [op for op in self.body.block.ops if isinstance(op, InputOp)]

    def outputs(self) -> list[OutputOp]:
        return [op for op in self.body.block.ops if isinstance(op, OutputOp)]

    def data(self) -> list[DataOp]:
        return [op for op in self.body.block.ops if isinstance(op, DataOp)]

    def cores(self) -> list[CoreOp]:
        return [op for op in self.body.block.ops if isinstance(op, CoreOp)]

    def phase_count(self) -> int:
        return max((len(core.phases()) for core in self.cores()), default=0)

    def hardware_target(self) -> HardwareTarget:
        """The target the program names, or a verifier error naming the program."""
        try:
            return load_target(self.target.data)
        except StcError as error:
            raise VerifyException(f"isa.program @{self.program_name}: {error}") from None

    @classmethod
    def parse(cls, parser: Parser) -> ProgramOp:
        name = parser.parse_symbol_name().data
        parser.parse_keyword("target")
        target = parser.parse_str_literal("target name")
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls(name, target, parser.parse_region())
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.program_name)
        printer.print_string(" target ")
        printer.print_string_literal(self.target.data)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)

    def verify_(self) -> None:
        for op in self.body.block.ops:
            if not isinstance(op, GlobalOp | CoreOp):
                raise VerifyException(
                    f"isa.program @{self.program_name} holds declarations and cores, not {op.name}"
                )
        target = self.hardware_target()
        self._verify_globals(target)
        self._verify_cores(target)
        verify_transfers(self, target)

    def _verify_globals(self, target: HardwareTarget) -> None:
        for kind, ops in (("input", self.inputs()), ("output", self.outputs())):
            names = [op.tensor_name.data for op in ops]
            if duplicates := sorted({n for n in names if names.count(n) > 1}):
                raise VerifyException(f"{kind} name {duplicates[0]!r} is declared twice")
        regions = sorted(
            (op.start, op.nbytes, op.describe())
            for op in self.body.block.ops
            if isinstance(op, GlobalOp)
        )
        capacity = target.global_memory.capacity_bytes
        for start, size, what in regions:
            if start + size > capacity:
                raise VerifyException(
                    f"{what} occupies global bytes [{start}, {start + size}), beyond the "
                    f"{capacity} bytes of {target.name}'s global memory"
                )
        for (start, size, what), (next_start, _, other) in itertools.pairwise(regions):
            if start + size > next_start:
                raise VerifyException(
                    f"{what} at global bytes [{start}, {start + size}) overlaps {other}"
                )

    def _verify_cores(self, target: HardwareTarget) -> None:
        seen: set[Coord] = set()
        for core in self.cores():
            coord = core.coord
            if not target.core_exists(*coord):
                raise VerifyException(
                    f"core {format_coord(coord)} does not exist on {target.name} "
                    f"({target.mesh.cores_y} rows x {target.mesh.cores_x} columns)"
                )
            if coord in seen:
                raise VerifyException(f"core {format_coord(coord)} has two programs")
            seen.add(coord)
            phases = core.phases()
            if target.max_phases is not None and len(phases) > target.max_phases:
                raise VerifyException(
                    f"core {format_coord(coord)} runs {len(phases)} phases, more than "
                    f"{target.name}'s {target.max_phases}"
                )
            for phase, index, op in core.numbered_instructions():
                verify_accesses(target, core, phase, index, op)


def local_capacity(target: HardwareTarget, coord: Coord) -> int:
    """Bytes of a core's local memory that programs may address, from 0."""
    memory = target.tile_type_at(*coord).memory_bytes
    return max(memory - target.local_memory.reserved_bytes, 0)


def where(coord: Coord, phase: int, index: int, op: Operation) -> str:
    """How diagnostics name an instruction: its core, phase and position."""
    return f"core {format_coord(coord)}, phase {phase}, #{index} {op.name}"


def verify_accesses(
    target: HardwareTarget, core: CoreOp, phase: int, index: int, op: Instruction
) -> None:
    coord = core.coord
    site = where(coord, phase, index, op)
    if op.COMPUTES and not target.tile_type_at(*coord).computes:
        raise VerifyException(f"{site}: {target.tile_type_at(*coord).name} tiles do not compute")
    capacity = local_capacity(target, coord)
    for access in op.local_accesses():
        if access.start < 0 or access.end > capacity:
            raise VerifyException(
                f"{site}: {access.role} bytes [{access.start}, {access.end}) are outside "
                f"local memory [0, {capacity})"
            )
        alignment = required_alignment(target, access.alignment)
        if access.start % alignment:
            raise VerifyException(
                f"{site}: {access.role} address {access.start} is not a multiple of "
                f"{alignment} ({target.name} {access.alignment} alignment)"
            )
    for access in op.global_accesses():
        if access.end > target.global_memory.capacity_bytes:
            raise VerifyException(
                f"{site}: {access.role} bytes [{access.start}, {access.end}) are outside "
                f"global memory [0, {target.global_memory.capacity_bytes})"
            )


@attrs.frozen
class Endpoint:
    """One side of a NoC transfer, where the program issues it."""

    coord: Coord
    phase: int
    index: int
    op: SendOp | RecvOp

    def __str__(self) -> str:
        return where(self.coord, self.phase, self.index, self.op)


def verify_transfers(program: ProgramOp, target: HardwareTarget) -> None:
    """Every send has exactly one receive with its tag: on the core it names, in the
    same phase, of the same byte count, and naming the sender."""
    sends: dict[int, Endpoint] = {}
    recvs: dict[int, Endpoint] = {}
    for core in program.cores():
        for phase, index, op in core.numbered_instructions():
            if not isinstance(op, SendOp | RecvOp):
                continue
            side = sends if isinstance(op, SendOp) else recvs
            endpoint = Endpoint(core.coord, phase, index, op)
            if (other := side.get(op.tag_value)) is not None:
                raise VerifyException(f"{endpoint}: tag {op.tag_value} is already used by {other}")
            if op.peer_coord == core.coord:
                raise VerifyException(f"{endpoint}: a core does not send to itself")
            if not target.core_exists(*op.peer_coord):
                raise VerifyException(
                    f"{endpoint}: peer {format_coord(op.peer_coord)} is not a core of {target.name}"
                )
            side[op.tag_value] = endpoint
    for tag, send in sends.items():
        if (recv := recvs.get(tag)) is None:
            raise VerifyException(f"{send}: no isa.recv takes tag {tag}")
        verify_pair(tag, send, recv)
    for tag, recv in recvs.items():
        if tag not in sends:
            raise VerifyException(f"{recv}: no isa.send gives tag {tag}")


def verify_pair(tag: int, send: Endpoint, recv: Endpoint) -> None:
    if send.op.peer_coord != recv.coord or recv.op.peer_coord != send.coord:
        raise VerifyException(
            f"{send}: tag {tag} goes to {format_coord(send.op.peer_coord)}, but its receive "
            f"({recv}) expects it from {format_coord(recv.op.peer_coord)}"
        )
    if send.phase != recv.phase:
        raise VerifyException(f"{send}: tag {tag} is received in phase {recv.phase} ({recv})")
    if send.op.byte_count != recv.op.byte_count:
        raise VerifyException(
            f"{send}: sends {send.op.byte_count} bytes with tag {tag}, but {recv} "
            f"receives {recv.op.byte_count}"
        )


# --- Global-memory declarations ------------------------------------------------------


class NetworkTensorOp(IRDLOperation):
    """
    The shared form of `isa.input` and `isa.output`: a named int8 tensor that users hand
    over in NCHW (the declared type), stored from a global address in an NCHW or NHWC
    layout.

        isa.input "x" : tensor<1x16x8x8xi8> at 0 as nhwc
    """

    tensor_name = prop_def(StringAttr, prop_name="name")
    tensor_type = prop_def(TensorType, prop_name="type")
    address = prop_def(IntegerAttr[I64])
    layout = prop_def(GlobalLayoutAttr)
    traits = traits_def(HasParent(ProgramOp))

    ROLE: ClassVar[str]

    def __init__(
        self, name: str, tensor_type: TensorType[Attribute], address: int, layout: GlobalLayout
    ):
        super().__init__(
            properties={
                "name": StringAttr(name),
                "type": tensor_type,
                "address": i64_attr(address),
                "layout": GlobalLayoutAttr(layout),
            }
        )

    @property
    def nchw_shape(self) -> tuple[int, ...]:
        return self.tensor_type.get_shape()

    @property
    def stored_shape(self) -> tuple[int, ...]:
        """The shape of the bytes in global memory, in their layout's order."""
        n, c, h, w = self.nchw_shape
        return (n, h, w, c) if self.layout.data == GlobalLayout.NHWC else (n, c, h, w)

    @property
    def start(self) -> int:
        return self.address.value.data

    @property
    def nbytes(self) -> int:
        return math.prod(self.nchw_shape)

    def describe(self) -> str:
        return f'{self.ROLE} "{self.tensor_name.data}"'

    @classmethod
    def parse(cls, parser: Parser) -> NetworkTensorOp:
        name = parser.parse_str_literal(f"{cls.ROLE} name")
        parser.parse_punctuation(":")
        tensor_type = parse_tensor_type(parser)
        parser.parse_keyword("at")
        address = parser.parse_integer(allow_boolean=False)
        parser.parse_keyword("as")
        layout = GlobalLayout(parser.parse_keyword_in([v.value for v in GlobalLayout], " layout"))
        op = cls(name, tensor_type, address, layout)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.tensor_name.data)
        printer.print_string(" : ")
        printer.print_attribute(self.tensor_type)
        printer.print_string(f" at {self.start} as {self.layout.data.value}")
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        element = self.tensor_type.get_element_type()
        shape = self.nchw_shape
        if len(shape) != 4 or min(shape) < 1 or element != IntegerType(8):
            raise VerifyException(
                f"{self.describe()}: network tensors are NCHW i8 tensors of rank 4, "
                f"got {self.tensor_type}"
            )
        if self.start < 0:
            raise VerifyException(f"{self.describe()}: global address {self.start} is negative")


@irdl_op_definition
class InputOp(NetworkTensorOp):
    """
    A network input: the machine writes the user's NCHW array into global memory, in
    the declared layout, before phase 0.

    ```mlir
    isa.input "x" : tensor<1x16x8x8xi8> at 0 as nhwc
    ```
    """

    name = "isa.input"
    ROLE: ClassVar[str] = "input"


@irdl_op_definition
class OutputOp(NetworkTensorOp):
    """
    A network output: after the last phase the machine reads it from global memory, in
    the declared layout, and hands it over in NCHW.

    ```mlir
    isa.output "y" : tensor<1x32x8x8xi8> at 1024 as nchw
    ```
    """

    name = "isa.output"
    ROLE: ClassVar[str] = "output"


DATA_KINDS = {(4, 8): "weight", (1, 32): "bias", (1, 8): "table"}
"""The kinds of constant data, by (rank, element bits), as the task dialect has them."""


@irdl_op_definition
class DataOp(IRDLOperation):
    """
    Constant data in global memory, initialised before phase 0: a box of a referenced
    tensor (`#task.random<seed>`, `#task.npz<path, key>` or `dense<...>`, exactly as a
    task weight, bias or table block holds it), stored densely in row-major order. The
    same reference and box give the same bytes as in the task graph.

    ```mlir
    isa.data #task.random<7> : tensor<32x3x3x16xi8>[0:16, 0:3, 0:3, 0:16] at 4096
    isa.data #task.random<8> : tensor<32xi32> at 8704
    ```
    """

    name = "isa.data"
    data = prop_def(RandomDataAttr | NpzDataAttr | DenseIntOrFPElementsAttr)
    full_type = prop_def(TensorType)
    box = opt_prop_def(BoxAttr)
    address = prop_def(IntegerAttr[I64])
    traits = traits_def(HasParent(ProgramOp))

    def __init__(
        self,
        data: RandomDataAttr | NpzDataAttr | DenseIntOrFPElementsAttr,
        full_type: TensorType[Attribute],
        address: int,
        box: BoxAttr | None = None,
    ):
        super().__init__(
            properties={
                "data": data,
                "full_type": full_type,
                "box": box,
                "address": i64_attr(address),
            }
        )

    @property
    def region(self) -> BoxAttr:
        return self.box or BoxAttr.whole(self.full_type.get_shape())

    @property
    def element_bits(self) -> int:
        element = self.full_type.get_element_type()
        return element.width.data if isinstance(element, IntegerType) else 0

    @property
    def kind(self) -> str | None:
        """`weight`, `bias` or `table`, as the task dialect would hold this data."""
        return DATA_KINDS.get((len(self.full_type.get_shape()), self.element_bits))

    @property
    def start(self) -> int:
        return self.address.value.data

    @property
    def nbytes(self) -> int:
        return math.prod(self.region.shape) * self.element_bits // 8

    def describe(self) -> str:
        return f"data at {self.start}"

    @classmethod
    def parse(cls, parser: Parser) -> DataOp:
        start = parser.pos
        data = parser.parse_attribute()
        if isinstance(data, DenseIntOrFPElementsAttr):
            full_type = data.type
        elif isinstance(data, RandomDataAttr | NpzDataAttr):
            parser.parse_punctuation(":")
            full_type = parse_tensor_type(parser)
        else:
            parser.raise_error(
                "expected #task.random<seed>, #task.npz<path, key> or dense<...>", start, parser.pos
            )
        if not isinstance(full_type, TensorType):
            parser.raise_error("data must be a tensor", start, parser.pos)
        box = parse_optional_box(parser)
        parser.parse_keyword("at")
        address = parser.parse_integer(allow_boolean=False)
        op = cls(data, full_type, address, None if box is None else BoxAttr(box))
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.data)
        if not isinstance(self.data, DenseIntOrFPElementsAttr):
            printer.print_string(" : ")
            printer.print_attribute(self.full_type)
        if self.box is not None:
            print_box(printer, self.box.data)
        printer.print_string(f" at {self.start}")
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        if self.kind is None:
            raise VerifyException(
                f"{self.describe()}: data is a weight (rank 4, i8), a bias (rank 1, i32) or "
                f"a table (rank 1, i8), got {self.full_type}"
            )
        if isinstance(self.data, DenseIntOrFPElementsAttr) and self.data.type != self.full_type:
            raise VerifyException(
                f"{self.describe()}: dense data of type {self.data.type} is not {self.full_type}"
            )
        if not self.region.inside(self.full_type.get_shape()):
            raise VerifyException(
                f"{self.describe()}: box {format_box(self.region)} is not inside {self.full_type}"
            )
        if self.start < 0:
            raise VerifyException(f"{self.describe()}: global address {self.start} is negative")


GlobalOp = NetworkTensorOp | DataOp
"""A declared region of global memory."""


# --- Cores and phases ---------------------------------------------------------------


@irdl_op_definition
class CoreOp(IRDLOperation):
    """
    The program of one core, at `(y, x)` on the target's mesh. Its instructions run in
    order; `isa.sync p` ends phase p, and every phase a core uses must be ended.

    ```mlir
    isa.core (0, 1) {
      isa.dma_load sizes [512] from global 0 to local 0
      isa.sync 0
      isa.relu 0 : tensor<1x4x8x16xi8> -> 512 : tensor<1x4x8x16xi8>
      isa.sync 1
    }
    ```
    """

    name = "isa.core"
    coord_ = prop_def(DenseArrayBase, prop_name="coord")
    body = region_def("single_block")
    traits = traits_def(NoTerminator(), HasParent(ProgramOp))

    def __init__(self, coord: Coord, body: Region | Sequence[Operation] = ()):
        super().__init__(
            properties={"coord": i64_array(coord)}, regions=[single_block_region(body)]
        )

    @property
    def coord(self) -> Coord:
        y, x = ints(self.coord_)
        return y, x

    def phases(self) -> list[list[Instruction]]:
        """The instructions of each phase, without the syncs that end them."""
        phases: list[list[Instruction]] = [[]]
        for op in self.body.block.ops:
            if isinstance(op, SyncOp):
                phases.append([])
            elif isinstance(op, Instruction):
                phases[-1].append(op)
        return phases[:-1]

    def numbered_instructions(self) -> list[tuple[int, int, Instruction]]:
        """(phase, position in the core, instruction) of every instruction but the syncs."""
        numbered: list[tuple[int, int, Instruction]] = []
        phase = 0
        for index, op in enumerate(self.body.block.ops):
            if isinstance(op, SyncOp):
                phase += 1
            elif isinstance(op, Instruction):
                numbered.append((phase, index, op))
        return numbered

    @classmethod
    def parse(cls, parser: Parser) -> CoreOp:
        start = parser.pos
        coord = parse_coord(parser)
        if len(coord) != 2:
            parser.raise_error("a core coordinate is (y, x)", start, parser.pos)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls((coord[0], coord[1]), parser.parse_region())
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {format_coord(self.coord)}")
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)

    def verify_(self) -> None:
        coord = ints(self.coord_)
        if len(coord) != 2 or min(coord) < 0:
            raise VerifyException(
                f"isa.core: a coordinate is (y, x) with y, x >= 0, got {list(coord)}"
            )
        name = f"core {format_coord(coord)}"
        phase = 0
        for op in self.body.block.ops:
            if not isinstance(op, Instruction):
                raise VerifyException(f"{name} holds instructions, not {op.name}")
            if not isinstance(op, SyncOp):
                continue
            if op.phase_value != phase:
                raise VerifyException(
                    f"{name}: isa.sync {op.phase_value} ends phase {phase}; syncs count up from 0"
                )
            phase += 1
        if (last := self.body.block.last_op) is not None and not isinstance(last, SyncOp):
            raise VerifyException(f"{name}: phase {phase} is not ended by isa.sync {phase}")


class Instruction(IRDLOperation):
    """An instruction of a core's program."""

    traits = traits_def(HasParent(CoreOp))

    COMPUTES: ClassVar[bool] = False
    """Whether it runs on the core's compute units (not allowed on non-computing tiles)."""

    def local_accesses(self) -> list[Access]:
        """The byte ranges of local memory it reads or writes."""
        return []

    def global_accesses(self) -> list[Access]:
        """The byte ranges of global memory it reads or writes."""
        return []


@irdl_op_definition
class SyncOp(Instruction):
    """
    The end of a phase: the core waits until every core has ended it.

    ```mlir
    isa.sync 0
    ```
    """

    name = "isa.sync"
    phase = prop_def(IntegerAttr[I64])
    assembly_format = "$phase attr-dict"

    def __init__(self, phase: int):
        super().__init__(properties={"phase": i64_attr(phase)})

    @property
    def phase_value(self) -> int:
        return self.phase.value.data


# --- DMA ---------------------------------------------------------------------------


class DmaOp(Instruction):
    """
    A strided copy between global and local memory. `sizes` counts bytes along each
    dimension (innermost last); each side has a byte address and byte strides, dense
    row-major when not written. The destination may not touch a byte twice.
    """

    sizes = prop_def(DenseArrayBase)
    global_address = prop_def(IntegerAttr[I64])
    global_strides = prop_def(DenseArrayBase)
    local_address = prop_def(IntegerAttr[I64])
    local_strides = prop_def(DenseArrayBase)

    FROM_GLOBAL: ClassVar[bool]

    def __init__(
        self,
        sizes: Sequence[int],
        global_address: int,
        local_address: int,
        global_strides: Sequence[int] | None = None,
        local_strides: Sequence[int] | None = None,
    ):
        dense = dense_strides(sizes)
        super().__init__(
            properties={
                "sizes": i64_array(sizes),
                "global_address": i64_attr(global_address),
                "global_strides": i64_array(global_strides or dense),
                "local_address": i64_attr(local_address),
                "local_strides": i64_array(local_strides or dense),
            }
        )

    @property
    def byte_count(self) -> int:
        return math.prod(ints(self.sizes))

    def side(self, memory: str) -> tuple[int, tuple[int, ...]]:
        """(address, strides) of the `global` or `local` side."""
        if memory == "global":
            return self.global_address.value.data, ints(self.global_strides)
        return self.local_address.value.data, ints(self.local_strides)

    def local_accesses(self) -> list[Access]:
        address, strides = self.side("local")
        return [Access("local box", address, strided_extent(ints(self.sizes), strides), "transfer")]

    def global_accesses(self) -> list[Access]:
        address, strides = self.side("global")
        return [Access("global box", address, strided_extent(ints(self.sizes), strides), "none")]

    @classmethod
    def parse(cls, parser: Parser) -> DmaOp:
        parser.parse_keyword("sizes")
        sizes = parse_int_list(parser)
        sides: dict[str, tuple[int, list[int] | None]] = {}
        for keyword, memory in zip(("from", "to"), cls.memory_order(), strict=True):
            parser.parse_keyword(keyword)
            parser.parse_keyword(memory)
            address = parser.parse_integer(allow_boolean=False)
            strides = parse_int_list(parser) if parser.parse_optional_keyword("strides") else None
            sides[memory] = (address, strides)
        op = cls(
            sizes, sides["global"][0], sides["local"][0], sides["global"][1], sides["local"][1]
        )
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    @classmethod
    def memory_order(cls) -> tuple[str, str]:
        return ("global", "local") if cls.FROM_GLOBAL else ("local", "global")

    def print(self, printer: Printer) -> None:
        sizes = ints(self.sizes)
        printer.print_string(f" sizes {format_int_list(sizes)}")
        for keyword, memory in zip(("from", "to"), self.memory_order(), strict=True):
            address, strides = self.side(memory)
            printer.print_string(f" {keyword} {memory} {address}")
            if strides != dense_strides(sizes):
                printer.print_string(f" strides {format_int_list(strides)}")
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        sizes = ints(self.sizes)
        if not sizes or min(sizes) < 1:
            raise VerifyException(f"{self.name}: sizes must be integers >= 1, got {list(sizes)}")
        for memory in ("global", "local"):
            address, strides = self.side(memory)
            if len(strides) != len(sizes) or min(strides) < 0:
                raise VerifyException(
                    f"{self.name}: {memory} strides must be {len(sizes)} integers >= 0, "
                    f"got {list(strides)}"
                )
            if address < 0:
                raise VerifyException(f"{self.name}: {memory} address {address} is negative")
        destination = self.memory_order()[1]
        if self_overlap(sizes, self.side(destination)[1]):
            raise VerifyException(
                f"{self.name}: {destination} strides {list(self.side(destination)[1])} write "
                f"some bytes twice for sizes {list(sizes)}"
            )


@irdl_op_definition
class DmaLoadOp(DmaOp):
    """
    Copy a strided box of global memory into local memory, e.g. 10 rows of a 16-wide
    row-major tensor with 16 channels, from the middle of a 64-row tensor:

    ```mlir
    isa.dma_load sizes [10, 256] from global 1024 to local 512
    isa.dma_load sizes [10, 8, 16] from global 1024 strides [256, 16, 1] to local 0
        strides [128, 16, 1]
    ```
    """

    name = "isa.dma_load"
    FROM_GLOBAL: ClassVar[bool] = True


@irdl_op_definition
class DmaStoreOp(DmaOp):
    """
    Copy a strided box of local memory into global memory.

    ```mlir
    isa.dma_store sizes [4, 128] from local 0 to global 8192 strides [512, 1]
    ```
    """

    name = "isa.dma_store"
    FROM_GLOBAL: ClassVar[bool] = False


# --- NoC -----------------------------------------------------------------------------


class TransferOp(Instruction):
    """One side of a NoC transfer of contiguous local bytes between two cores; the
    `tag` pairs a send with its receive, which runs in the same phase."""

    tag = prop_def(IntegerAttr[I64])
    peer = prop_def(DenseArrayBase)
    address = prop_def(IntegerAttr[I64])
    byte_count_ = prop_def(IntegerAttr[I64], prop_name="bytes")

    PEER_KEYWORD: ClassVar[str]
    LOCAL_KEYWORD: ClassVar[str]

    def __init__(self, byte_count: int, address: int, peer: Coord, tag: int):
        super().__init__(
            properties={
                "tag": i64_attr(tag),
                "peer": i64_array(peer),
                "address": i64_attr(address),
                "bytes": i64_attr(byte_count),
            }
        )

    @property
    def tag_value(self) -> int:
        return self.tag.value.data

    @property
    def peer_coord(self) -> Coord:
        y, x = ints(self.peer)
        return y, x

    @property
    def local_address(self) -> int:
        return self.address.value.data

    @property
    def byte_count(self) -> int:
        return self.byte_count_.value.data

    def local_accesses(self) -> list[Access]:
        return [Access("transfer", self.local_address, self.byte_count, "transfer")]

    @classmethod
    def parse(cls, parser: Parser) -> TransferOp:
        byte_count = parser.parse_integer(allow_boolean=False)
        parser.parse_keyword("bytes")
        parser.parse_keyword(cls.LOCAL_KEYWORD)
        address = parser.parse_integer(allow_boolean=False)
        parser.parse_keyword(cls.PEER_KEYWORD)
        start = parser.pos
        peer = parse_coord(parser)
        if len(peer) != 2:
            parser.raise_error("a core coordinate is (y, x)", start, parser.pos)
        parser.parse_keyword("tag")
        tag = parser.parse_integer(allow_boolean=False)
        op = cls(byte_count, address, (peer[0], peer[1]), tag)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(
            f" {self.byte_count} bytes {self.LOCAL_KEYWORD} {self.local_address} "
            f"{self.PEER_KEYWORD} {format_coord(self.peer_coord)} tag {self.tag_value}"
        )
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        peer = ints(self.peer)
        if len(peer) != 2 or min(peer) < 0:
            raise VerifyException(
                f"{self.name}: the peer is a core (y, x) with y, x >= 0, got {list(peer)}"
            )
        if self.byte_count < 1:
            raise VerifyException(
                f"{self.name}: transfers carry at least 1 byte, got {self.byte_count}"
            )
        if self.local_address < 0:
            raise VerifyException(f"{self.name}: local address {self.local_address} is negative")
        if self.tag_value < 0:
            raise VerifyException(f"{self.name}: tag {self.tag_value} is negative")


@irdl_op_definition
class SendOp(TransferOp):
    """
    Send local bytes to another core, XY routed. The data leaves when the send runs.

    ```mlir
    isa.send 128 bytes from 512 to (0, 1) tag 3
    ```
    """

    name = "isa.send"
    PEER_KEYWORD: ClassVar[str] = "to"
    LOCAL_KEYWORD: ClassVar[str] = "from"


@irdl_op_definition
class RecvOp(TransferOp):
    """
    Receive the bytes another core sends with this tag into local memory; the core
    waits until they arrive.

    ```mlir
    isa.recv 128 bytes to 0 from (0, 0) tag 3
    ```
    """

    name = "isa.recv"
    PEER_KEYWORD: ClassVar[str] = "from"
    LOCAL_KEYWORD: ClassVar[str] = "to"


# --- vec_trans_scatter -----------------------------------------------------------------


VEC_TRANS_SCATTER_TYPES: dict[Attribute, np.dtype] = {
    IntegerType(8): np.dtype(np.int8),
    IntegerType(8, Signedness.UNSIGNED): np.dtype(np.uint8),
    IntegerType(16): np.dtype(np.int16),
    IntegerType(16, Signedness.UNSIGNED): np.dtype(np.uint16),
    Float16Type(): np.dtype(np.float16),
    IntegerType(32): np.dtype(np.int32),
    IntegerType(32, Signedness.UNSIGNED): np.dtype(np.uint32),
    Float32Type(): np.dtype(np.float32),
}
"""Element types vec_trans_scatter moves, with the numpy dtype the machine views them as."""

MAX_REPEAT_TIMES = 255
MAX_REP_STRIDE = 65535


@irdl_op_definition
class VecTransScatterOp(Instruction):
    """
    The vendor's `vec_trans_scatter` (VNCHWCONV) on local memory: 16 destination and 16
    source blocks, each named by a base address and an element offset, as the vendor's
    tensor slices are. 16-bit types transpose 16×16 tiles, 32-bit types write block
    pairs, 8-bit types move the chosen 16-byte halves (`high` picks the upper half).
    Repeats advance every lane by its stride × 32 bytes.

    ```mlir
    isa.vec_trans_scatter dst 4096 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352,
        384, 416, 448, 480] src 0 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352,
        384, 416, 448, 480] high repeat 3 strides [16, 16] : i8
    ```
    """

    name = "isa.vec_trans_scatter"
    element_type = prop_def(TypeAttribute)
    dst = prop_def(IntegerAttr[I64])
    dst_list = prop_def(DenseArrayBase)
    dst_high_half = opt_prop_def(UnitAttr)
    src = prop_def(IntegerAttr[I64])
    src_list = prop_def(DenseArrayBase)
    src_high_half = opt_prop_def(UnitAttr)
    repeat_times = prop_def(IntegerAttr[I64])
    dst_rep_stride = prop_def(IntegerAttr[I64])
    src_rep_stride = prop_def(IntegerAttr[I64])

    def __init__(
        self,
        element_type: TypeAttribute,
        dst: int,
        dst_list: Sequence[int],
        src: int,
        src_list: Sequence[int],
        repeat_times: int,
        dst_rep_stride: int = 0,
        src_rep_stride: int = 0,
        dst_high_half: bool = False,
        src_high_half: bool = False,
    ):
        super().__init__(
            properties={
                "element_type": element_type,
                "dst": i64_attr(dst),
                "dst_list": i64_array(dst_list),
                "dst_high_half": UnitAttr() if dst_high_half else None,
                "src": i64_attr(src),
                "src_list": i64_array(src_list),
                "src_high_half": UnitAttr() if src_high_half else None,
                "repeat_times": i64_attr(repeat_times),
                "dst_rep_stride": i64_attr(dst_rep_stride),
                "src_rep_stride": i64_attr(src_rep_stride),
            }
        )

    @property
    def dtype(self) -> np.dtype:
        return VEC_TRANS_SCATTER_TYPES[self.element_type]

    @property
    def repeats(self) -> int:
        return self.repeat_times.value.data

    def lanes(self, side: str) -> tuple[int, tuple[int, ...], bool, int]:
        """(base address, element offsets, high half, stride in blocks) of `dst` or `src`."""
        if side == "dst":
            return (
                self.dst.value.data,
                ints(self.dst_list),
                self.dst_high_half is not None,
                self.dst_rep_stride.value.data,
            )
        return (
            self.src.value.data,
            ints(self.src_list),
            self.src_high_half is not None,
            self.src_rep_stride.value.data,
        )

    def lane_addresses(self, side: str) -> list[int]:
        base, offsets, _, _ = self.lanes(side)
        return [base + offset * self.dtype.itemsize for offset in offsets]

    def moved_bytes(self) -> int:
        """Bytes read (and as many written) over all repeats: 16 lanes of one block, or
        of one half block for 8-bit types."""
        span = BLOCK_BYTES // 2 if self.dtype.itemsize == 1 else BLOCK_BYTES
        return self.repeats * LANES * span

    def local_accesses(self) -> list[Access]:
        if not self.repeats:
            return []
        accesses: list[Access] = []
        for side in ("dst", "src"):
            _, _, high, stride = self.lanes(side)
            addresses = self.lane_addresses(side)
            half = BLOCK_BYTES // 2 if self.dtype.itemsize == 1 and high else 0
            span = BLOCK_BYTES // 2 if self.dtype.itemsize == 1 else BLOCK_BYTES
            start = min(addresses)
            end = max(addresses) + (self.repeats - 1) * stride * BLOCK_BYTES + half + span
            accesses.append(Access(f"{side} blocks", start, end - start, "block"))
        return accesses

    @classmethod
    def parse(cls, parser: Parser) -> VecTransScatterOp:
        sides: dict[str, tuple[int, list[int], bool]] = {}
        for side in ("dst", "src"):
            parser.parse_keyword(side)
            address = parser.parse_integer(allow_boolean=False)
            offsets = parse_int_list(parser)
            sides[side] = (address, offsets, parser.parse_optional_keyword("high") is not None)
        parser.parse_keyword("repeat")
        repeat_times = parser.parse_integer(allow_boolean=False)
        parser.parse_keyword("strides")
        start = parser.pos
        strides = parse_int_list(parser)
        if len(strides) != 2:
            parser.raise_error("strides are [dst_rep_stride, src_rep_stride]", start, parser.pos)
        parser.parse_punctuation(":")
        element_type = parser.parse_type()
        (dst, dst_list, dst_high), (src, src_list, src_high) = sides["dst"], sides["src"]
        op = cls(
            element_type,
            dst,
            dst_list,
            src,
            src_list,
            repeat_times,
            strides[0],
            strides[1],
            dst_high,
            src_high,
        )
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        for side in ("dst", "src"):
            base, offsets, high, _ = self.lanes(side)
            printer.print_string(
                f" {side} {base} {format_int_list(offsets)}{' high' if high else ''}"
            )
        strides = [self.dst_rep_stride.value.data, self.src_rep_stride.value.data]
        printer.print_string(f" repeat {self.repeats} strides {format_int_list(strides)} : ")
        printer.print_attribute(self.element_type)
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        if self.element_type not in VEC_TRANS_SCATTER_TYPES:
            raise VerifyException(
                f"{self.name}: element type {self.element_type} is not one of i8, ui8, i16, "
                "ui16, f16, i32, ui32, f32"
            )
        for side in ("dst", "src"):
            self._verify_lanes(side)
        if not 0 <= self.repeats <= MAX_REPEAT_TIMES:
            raise VerifyException(
                f"{self.name}: repeat {self.repeats} is outside [0, {MAX_REPEAT_TIMES}]"
            )
        strides = (self.dst_rep_stride.value.data, self.src_rep_stride.value.data)
        if not all(0 <= stride <= MAX_REP_STRIDE for stride in strides):
            raise VerifyException(
                f"{self.name}: strides {list(strides)} are outside [0, {MAX_REP_STRIDE}]"
            )
        if self.repeats == 1 and any(strides):
            raise VerifyException(
                f"{self.name}: repeat 1 takes strides [0, 0], got {list(strides)} (vendor "
                "documents disagree on whether a single repeat adds them)"
            )
        destinations = self.lane_addresses("dst")
        if len(set(destinations)) != LANES:
            raise VerifyException(
                f"{self.name}: the 16 destination blocks must be distinct, got {destinations}"
            )

    def _verify_lanes(self, side: str) -> None:
        base, offsets, _, _ = self.lanes(side)
        if len(offsets) != LANES:
            raise VerifyException(f"{self.name}: {side} takes {LANES} offsets, got {len(offsets)}")
        if base < 0 or min(offsets) < 0:
            raise VerifyException(f"{self.name}: {side} address {base} and offsets must be >= 0")
        for lane, address in enumerate(self.lane_addresses(side)):
            if address % BLOCK_BYTES:
                raise VerifyException(
                    f"{self.name}: {side} lane {lane} starts at byte {address}, not a multiple "
                    f"of the {BLOCK_BYTES}-byte block"
                )


# --- Compute instructions ----------------------------------------------------------------


class ComputeInstruction(Instruction):
    """
    The shared form of compute instructions, the task ops on local-memory tiles:

        isa.<op> TILE, ... (bias TILE)? -> TILE (CLAUSE VALUE)*

    where a TILE is `ADDRESS : tensor<...>`. Results are exact, as in the task dialect:
    saturate((acc + bias) >> shift) to the output tile's i8 or i32. Clauses equal to
    their default are not printed.
    """

    inputs = prop_def(ArrayAttr[TileAttr])
    bias = opt_prop_def(TileAttr)
    output = prop_def(TileAttr)

    COMPUTES: ClassVar[bool] = True
    INPUT_ROLES: ClassVar[tuple[str, ...]]
    """The input tiles' roles, in order; empty for any number of branches."""
    CLAUSES: ClassVar[tuple[str, ...]] = ()
    HAS_BIAS: ClassVar[bool] = False

    def __init__(
        self,
        inputs: Sequence[TileAttr],
        output: TileAttr,
        bias: TileAttr | None = None,
        **clauses: int | Sequence[int],
    ):
        properties: dict[str, Attribute | None] = {
            "inputs": ArrayAttr(inputs),
            "output": output,
            "bias": bias,
        }
        for name, value in clauses.items():
            properties[name] = i64_attr(value) if isinstance(value, int) else i64_array(value)
        super().__init__(properties=properties)

    def clause_int(self, name: str) -> int:
        value = self.properties[name]
        assert isinstance(value, IntegerAttr)
        return value.value.data

    def clause_ints(self, name: str) -> tuple[int, ...]:
        return ints(self.properties[name])

    @property
    def shift_amount(self) -> int:
        return self.clause_int("shift") if "shift" in self.CLAUSES else 0

    def input_roles(self) -> list[str]:
        return list(self.INPUT_ROLES) or [f"branch #{index}" for index in range(len(self.inputs))]

    def local_accesses(self) -> list[Access]:
        accesses = [
            Access(role, tile.address, tile.nbytes, INPUT_KINDS.get(role) or tile_kind(tile))
            for role, tile in zip(self.input_roles(), self.inputs, strict=True)
        ]
        if self.bias is not None:
            accesses.append(Access("bias", self.bias.address, self.bias.nbytes, "bias"))
        accesses.append(
            Access("output", self.output.address, self.output.nbytes, tile_kind(self.output))
        )
        return accesses

    @classmethod
    def default_of(cls, clause: str) -> Attribute | None:
        return cls.get_irdl_definition().properties[clause].default_value

    @classmethod
    def parse(cls, parser: Parser) -> ComputeInstruction:
        start = parser.pos
        inputs = [parse_tile(parser)]
        while parser.parse_optional_punctuation(","):
            inputs.append(parse_tile(parser))
        bias = (
            parse_tile(parser) if cls.HAS_BIAS and parser.parse_optional_keyword("bias") else None
        )
        parser.parse_punctuation("->")
        output = parse_tile(parser)
        clauses: dict[str, int | Sequence[int]] = {}
        while clause := parser.parse_optional_keyword_in(cls.CLAUSES):
            if isinstance(cls.default_of(clause), IntegerAttr):
                clauses[clause] = parser.parse_integer(allow_boolean=False)
            else:
                clauses[clause] = parse_int_list(parser)
        missing = [c for c in cls.CLAUSES if c not in clauses and cls.default_of(c) is None]
        if missing:
            parser.raise_error(f"{cls.name} needs the clause `{missing[0]}`", start, parser.pos)
        op = cls(inputs, output, bias, **clauses)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.inputs, lambda tile: print_tile_parts(printer, tile))
        if self.bias is not None:
            printer.print_string(" bias ")
            print_tile_parts(printer, self.bias)
        printer.print_string(" -> ")
        print_tile_parts(printer, self.output)
        for clause in self.CLAUSES:
            value = self.properties[clause]
            if value == self.default_of(clause):
                continue
            text = (
                str(self.clause_int(clause))
                if isinstance(value, IntegerAttr)
                else format_int_list(ints(value))
            )
            printer.print_string(f" {clause} {text}")
        print_attr_dict(printer, self.attributes)

    def error(self, message: str) -> VerifyException:
        return VerifyException(f"{self.name}: {message}")

    def verify_(self) -> None:
        if self.INPUT_ROLES and len(self.inputs) != len(self.INPUT_ROLES):
            raise self.error(
                f"takes {len(self.INPUT_ROLES)} input tiles ({', '.join(self.INPUT_ROLES)}), "
                f"got {len(self.inputs)}"
            )
        if not self.inputs:
            raise self.error("takes at least one input tile")
        if len(self.output.shape) != 4:
            raise self.error(f"the output is an NHWC tile of rank 4, got {self.output.tensor_type}")
        if "shift" in self.CLAUSES and not 0 <= self.shift_amount <= 31:
            raise self.error(f"shift must be in [0, 31], got {self.shift_amount}")
        if self.bias is not None:
            self._verify_bias(self.bias)
        self.verify_shapes()

    def _verify_bias(self, bias: TileAttr) -> None:
        if not self.HAS_BIAS:
            raise self.error("takes no bias")
        channels = self.output.shape[-1]
        if bias.element_bits != 32 or bias.shape != (channels,):
            raise self.error(f"the bias must be tensor<{channels}xi32>, got {bias.tensor_type}")

    def verify_shapes(self) -> None:
        """Check the tiles' shapes and element types against each other."""

    def expect_int8(self, tile: TileAttr, role: str) -> None:
        if tile.element_bits != 8 or len(tile.shape) != 4:
            raise self.error(f"the {role} is an i8 tile of rank 4, got {tile.tensor_type}")

    def expect_output_shape(self, shape: Sequence[int]) -> None:
        if self.output.shape != tuple(shape):
            raise self.error(
                f"the output must be {list(shape)} for these inputs, got {list(self.output.shape)}"
            )


INPUT_KINDS = {"weight": "weight", "table": "bias"}
"""Storage kinds of input roles that are not activations (tables align like biases)."""


class WindowInstruction(ComputeInstruction):
    """A compute instruction sliding a window over an NHWC tile: conv and the pools."""

    stride = prop_def(DenseArrayBase, default_value=i64_array((1, 1)))
    pad = prop_def(DenseArrayBase, default_value=i64_array((0, 0, 0, 0)))
    """Zero padding as [top, bottom, left, right]."""

    def window_shape(self) -> tuple[int, ...]:
        return self.clause_ints("window")

    def dilations(self) -> tuple[int, ...]:
        return (1, 1)

    def output_channels(self) -> int:
        return self.inputs.data[0].shape[3]

    def verify_shapes(self) -> None:
        source = self.inputs.data[0]
        if len(source.shape) != 4:
            raise self.error(f"the input is an NHWC tile of rank 4, got {source.tensor_type}")
        stride, pad = self.clause_ints("stride"), self.clause_ints("pad")
        window, dilation = self.window_shape(), self.dilations()
        for name, values, count, least in (
            ("stride", stride, 2, 1),
            ("pad", pad, 4, 0),
            ("window", window, 2, 1),
            ("dilation", dilation, 2, 1),
        ):
            if len(values) != count or min(values) < least:
                raise self.error(f"{name} must be {count} integers >= {least}, got {list(values)}")
        n, h, w, _ = source.shape
        extents = [dilation[axis] * (window[axis] - 1) + 1 for axis in (0, 1)]
        for axis, (lo, hi) in enumerate((pad[0:2], pad[2:4])):
            if max(lo, hi) >= extents[axis]:
                raise self.error(
                    f"pad {[lo, hi]} must be smaller than the window extent {extents[axis]}"
                )
        out_h = window_output_size(h, window[0], stride[0], pad[0], pad[1], dilation[0])
        out_w = window_output_size(w, window[1], stride[1], pad[2], pad[3], dilation[1])
        if min(out_h, out_w) < 1:
            raise self.error(f"window extent {extents} does not fit the padded {h}x{w} input")
        self.expect_output_shape((n, out_h, out_w, self.output_channels()))


@irdl_op_definition
class ConvOp(WindowInstruction):
    """
    Convolution (task.conv): input NHWC i8, weight F×Ky×Kx×C i8, optional i32 bias.

    ```mlir
    isa.conv 0 : tensor<1x6x8x16xi8>, 1024 : tensor<32x3x3x16xi8> bias 5632 : tensor<32xi32>
        -> 5760 : tensor<1x4x8x32xi8> pad [0, 0, 1, 1] shift 9
    ```
    """

    name = "isa.conv"
    dilation = prop_def(DenseArrayBase, default_value=i64_array((1, 1)))
    shift = prop_def(IntegerAttr[I64], default_value=i64_attr(0))

    INPUT_ROLES: ClassVar[tuple[str, ...]] = ("input", "weight")
    CLAUSES: ClassVar[tuple[str, ...]] = ("stride", "pad", "dilation", "shift")
    HAS_BIAS: ClassVar[bool] = True

    def window_shape(self) -> tuple[int, ...]:
        return self.inputs.data[1].shape[1:3]

    def dilations(self) -> tuple[int, ...]:
        return self.clause_ints("dilation")

    def output_channels(self) -> int:
        return self.inputs.data[1].shape[0]

    def verify_shapes(self) -> None:
        source, weight = self.inputs.data
        self.expect_int8(source, "input")
        self.expect_int8(weight, "weight")
        if weight.shape[3] != source.shape[3]:
            raise self.error(
                f"the weight {weight.tensor_type} must reduce over the input's "
                f"{source.shape[3]} channels"
            )
        super().verify_shapes()


@irdl_op_definition
class FcOp(ComputeInstruction):
    """
    Fully connected layer (task.fc): the F×H×W×C weight spans the whole input tile.

    ```mlir
    isa.fc 0 : tensor<1x4x4x16xi8>, 256 : tensor<10x4x4x16xi8> -> 2816 : tensor<1x1x1x10xi8> shift 7
    ```
    """

    name = "isa.fc"
    shift = prop_def(IntegerAttr[I64], default_value=i64_attr(0))

    INPUT_ROLES: ClassVar[tuple[str, ...]] = ("input", "weight")
    CLAUSES: ClassVar[tuple[str, ...]] = ("shift",)
    HAS_BIAS: ClassVar[bool] = True

    def verify_shapes(self) -> None:
        source, weight = self.inputs.data
        self.expect_int8(source, "input")
        self.expect_int8(weight, "weight")
        if weight.shape[1:] != source.shape[1:]:
            raise self.error(
                f"the weight {weight.tensor_type} must span the whole input {source.tensor_type}"
            )
        self.expect_output_shape((source.shape[0], 1, 1, weight.shape[0]))


@irdl_op_definition
class AvgPoolOp(WindowInstruction):
    """
    Average pooling as a window sum plus bias (task.avgpool); the shift divides.

    ```mlir
    isa.avgpool 0 : tensor<1x8x8x16xi8> -> 1024 : tensor<1x4x4x16xi8> window [2, 2]
        stride [2, 2] shift 2
    ```
    """

    name = "isa.avgpool"
    window = prop_def(DenseArrayBase)
    shift = prop_def(IntegerAttr[I64], default_value=i64_attr(0))

    INPUT_ROLES: ClassVar[tuple[str, ...]] = ("input",)
    CLAUSES: ClassVar[tuple[str, ...]] = ("window", "stride", "pad", "shift")
    HAS_BIAS: ClassVar[bool] = True


@irdl_op_definition
class MaxPoolOp(WindowInstruction):
    """
    Max pooling (task.maxpool): max(cmp, window max) >> shift; padding never wins.

    ```mlir
    isa.maxpool 0 : tensor<1x8x8x16xi8> -> 1024 : tensor<1x4x4x16xi8> window [2, 2] stride [2, 2]
    ```
    """

    name = "isa.maxpool"
    window = prop_def(DenseArrayBase)
    cmp = prop_def(IntegerAttr[I64], default_value=i64_attr(-128))
    shift = prop_def(IntegerAttr[I64], default_value=i64_attr(0))

    INPUT_ROLES: ClassVar[tuple[str, ...]] = ("input",)
    CLAUSES: ClassVar[tuple[str, ...]] = ("window", "stride", "pad", "cmp", "shift")


@irdl_op_definition
class ReluOp(ComputeInstruction):
    """
    ReLU (task.relu): max(input, cmp) >> shift, also int32 → int8 requantization.

    ```mlir
    isa.relu 0 : tensor<1x8x8x16xi32> -> 4096 : tensor<1x8x8x16xi8> shift 8
    ```
    """

    name = "isa.relu"
    cmp = prop_def(IntegerAttr[I64], default_value=i64_attr(0))
    shift = prop_def(IntegerAttr[I64], default_value=i64_attr(0))

    INPUT_ROLES: ClassVar[tuple[str, ...]] = ("input",)
    CLAUSES: ClassVar[tuple[str, ...]] = ("cmp", "shift")

    def verify_shapes(self) -> None:
        self.expect_output_shape(self.inputs.data[0].shape)


@irdl_op_definition
class LutOp(ComputeInstruction):
    """
    Table lookup (task.lut): output = table[input as an unsigned byte].

    ```mlir
    isa.lut 0 : tensor<1x4x4x16xi8>, 256 : tensor<256xi8> -> 512 : tensor<1x4x4x16xi8>
    ```
    """

    name = "isa.lut"

    INPUT_ROLES: ClassVar[tuple[str, ...]] = ("input", "table")

    def verify_shapes(self) -> None:
        source, table = self.inputs.data
        self.expect_int8(source, "input")
        if table.element_bits != 8 or table.shape != (256,):
            raise self.error(f"the table is tensor<256xi8>, got {table.tensor_type}")
        if self.output.element_bits != 8:
            raise self.error(f"the output is i8, got {self.output.tensor_type}")
        self.expect_output_shape(source.shape)


@irdl_op_definition
class AddOp(ComputeInstruction):
    """
    Sum of branches plus bias (task.add).

    ```mlir
    isa.add 0 : tensor<1x4x4x16xi8>, 256 : tensor<1x4x4x16xi8> -> 512 : tensor<1x4x4x16xi8> shift 1
    ```
    """

    name = "isa.add"
    shift = prop_def(IntegerAttr[I64], default_value=i64_attr(0))

    INPUT_ROLES: ClassVar[tuple[str, ...]] = ()
    CLAUSES: ClassVar[tuple[str, ...]] = ("shift",)
    HAS_BIAS: ClassVar[bool] = True

    def verify_shapes(self) -> None:
        for role, tile in zip(self.input_roles(), self.inputs, strict=True):
            if tile.shape != self.output.shape:
                raise self.error(
                    f"{role} {tile.tensor_type} must have the output's shape "
                    f"{list(self.output.shape)}"
                )


@irdl_op_definition
class MulOp(ComputeInstruction):
    """
    Elementwise product of two i8 tiles plus bias (task.mul).

    ```mlir
    isa.mul 0 : tensor<1x4x4x16xi8>, 256 : tensor<1x4x4x16xi8> -> 512 : tensor<1x4x4x16xi8> shift 7
    ```
    """

    name = "isa.mul"
    shift = prop_def(IntegerAttr[I64], default_value=i64_attr(0))

    INPUT_ROLES: ClassVar[tuple[str, ...]] = ("lhs", "rhs")
    CLAUSES: ClassVar[tuple[str, ...]] = ("shift",)
    HAS_BIAS: ClassVar[bool] = True

    def verify_shapes(self) -> None:
        for role, tile in zip(self.INPUT_ROLES, self.inputs, strict=True):
            self.expect_int8(tile, role)
            if tile.shape != self.output.shape:
                raise self.error(
                    f"{role} {tile.tensor_type} must have the output's shape "
                    f"{list(self.output.shape)}"
                )


Isa = Dialect(
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
        SendOp,
        RecvOp,
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
