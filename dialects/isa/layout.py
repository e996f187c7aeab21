"""The vendor layout instruction `isa.vec_trans_scatter` on local memory."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import (
    I64,
    Float16Type,
    Float32Type,
    IntegerAttr,
    IntegerType,
    Signedness,
    UnitAttr,
)
from xdsl.ir import Attribute, TypeAttribute
from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def
from xdsl.irdl.declarative_assembly_format import (
    CustomDirective,
    IRDLOperation,
    ParsingState,
    PrintingState,
    TypedAttributeVariable,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from stc.dialects.integers import i64_array, i64_attr
from stc.dialects.isa.access import Access
from stc.dialects.isa.attrs import i64_array_def, ints
from stc.dialects.isa.core import Instruction
from stc.dialects.isa.vec_trans_scatter_rules import (
    BLOCK_BYTES,
    LANES,
    SUPPORTED_DTYPES,
    VecTransScatterError,
    check_distinct_destinations,
    check_repeats,
    half_offset,
    lane_addresses,
    lane_bytes,
)
from stc.dialects.syntax import DeclaredPropertyOrder, IntList, TypeProperty, format_int_list, parse_int_list


def element_type_of(dtype: np.dtype) -> TypeAttribute:
    """The builtin type of a numpy dtype the kernel moves: i8, ui8, f16, ..."""
    if dtype.kind == "f":
        return Float16Type() if dtype.itemsize == 2 else Float32Type()
    signedness = Signedness.UNSIGNED if dtype.kind == "u" else Signedness.SIGNLESS
    return IntegerType(8 * dtype.itemsize, signedness)


VEC_TRANS_SCATTER_TYPES: dict[Attribute, np.dtype] = {element_type_of(dtype): dtype for dtype in SUPPORTED_DTYPES}
"""Element types vec_trans_scatter moves, with the numpy dtype the machine views them as:
the kernel's supported dtypes."""


@irdl_custom_directive
class RepeatStrides(CustomDirective):
    """The repeat strides of both sides, in blocks: `[dst_rep_stride, src_rep_stride]`."""

    dst: TypedAttributeVariable
    src: TypedAttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        start = parser.pos
        strides = parse_int_list(parser)
        if len(strides) != 2:
            parser.raise_error("strides are [dst_rep_stride, src_rep_stride]", start, parser.pos)
        self.dst.set(state, i64_attr(strides[0]))
        self.src.set(state, i64_attr(strides[1]))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        assert isinstance(op, VecTransScatterOp)
        state.print_whitespace(printer)
        printer.print_string(format_int_list(op.strides))


@irdl_op_definition
class VecTransScatterOp(DeclaredPropertyOrder, Instruction):
    """
    The vendor's `vec_trans_scatter` (VNCHWCONV) on local memory: 16 destination and 16
    source blocks, each named by a base address and an element offset, as the vendor's
    tensor slices are. 16-bit types transpose 16×16 tiles, 32-bit types write block
    pairs, 8-bit types move the chosen 16-byte halves (`high` picks the upper half).
    Repeats advance every lane by its stride × 32 bytes. It runs on the core's vector
    unit, so only on tiles that compute. The rules are the kernel's
    (stc.dialects.isa.vec_trans_scatter_rules), including the model's own: the 16
    destination blocks must be distinct.

    ```mlir
    isa.vec_trans_scatter dst 4096 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352,
        384, 416, 448, 480] src 0 [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352,
        384, 416, 448, 480] high repeat 3 strides [16, 16] : i8
    ```
    """

    name = "isa.vec_trans_scatter"
    element_type = prop_def(TypeAttribute)
    dst = prop_def(IntegerAttr[I64])
    dst_list = i64_array_def("dst_list")
    dst_high_half = opt_prop_def(UnitAttr)
    src = prop_def(IntegerAttr[I64])
    src_list = i64_array_def("src_list")
    src_high_half = opt_prop_def(UnitAttr)
    repeat_times = prop_def(IntegerAttr[I64])
    dst_rep_stride = prop_def(IntegerAttr[I64])
    src_rep_stride = prop_def(IntegerAttr[I64])
    assembly_format = (
        "`dst` $dst custom<IntList>($dst_list) (`high` $dst_high_half^)? "
        "`src` $src custom<IntList>($src_list) (`high` $src_high_half^)? "
        "`repeat` $repeat_times `strides` custom<RepeatStrides>($dst_rep_stride, $src_rep_stride) "
        "`:` custom<TypeProperty>($element_type) attr-dict"
    )
    custom_directives = (IntList, RepeatStrides, TypeProperty)

    COMPUTES: ClassVar[bool] = True

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

    @property
    def strides(self) -> tuple[int, int]:
        """(dst_rep_stride, src_rep_stride) in blocks."""
        return self.dst_rep_stride.value.data, self.src_rep_stride.value.data

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
        """The byte address of each lane's block at the first repeat (raises
        VecTransScatterError on lists the verifier refuses)."""
        base, offsets, _, _ = self.lanes(side)
        return lane_addresses(f"{side}_list", offsets, self.dtype.itemsize, base)

    def moved_bytes(self) -> int:
        """Bytes read (and as many written) over all repeats: 16 lanes of one block, or
        of one half block for 8-bit types."""
        return self.repeats * LANES * lane_bytes(self.dtype.itemsize)

    def local_accesses(self) -> list[Access]:
        if not self.repeats:
            return []
        itemsize = self.dtype.itemsize
        accesses: list[Access] = []
        for side in ("dst", "src"):
            _, _, high, stride = self.lanes(side)
            addresses = self.lane_addresses(side)
            start = min(addresses)
            last = max(addresses) + (self.repeats - 1) * stride * BLOCK_BYTES + half_offset(itemsize, high)
            end = last + lane_bytes(itemsize)
            accesses.append(Access(f"{side} blocks", start, end - start, "block"))
        return accesses

    def verify_(self) -> None:
        if self.element_type not in VEC_TRANS_SCATTER_TYPES:
            raise self.error(f"element type {self.element_type} is not one of i8, ui8, i16, ui16, f16, i32, ui32, f32")
        for side in ("dst", "src"):
            if (base := self.lanes(side)[0]) < 0:
                raise self.error(f"{side} address {base} is negative")
        try:
            check_distinct_destinations(self.lane_addresses("dst"))
            self.lane_addresses("src")
            check_repeats(self.repeats, *self.strides)
        except VecTransScatterError as error:
            raise self.error(str(error)) from None
