"""The vendor layout instruction `isa.vec_trans_scatter` on local memory."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import (
    I64,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    IntegerAttr,
    IntegerType,
    Signedness,
    UnitAttr,
)
from xdsl.ir import Attribute, TypeAttribute
from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from stc.dialects.isa.access import BLOCK_BYTES, Access
from stc.dialects.isa.attrs import ints
from stc.dialects.isa.core import Instruction
from stc.dialects.task.syntax import (
    format_int_list,
    i64_array,
    i64_attr,
    parse_int_list,
    print_attr_dict,
)

LANES = 16
"""Blocks one vec_trans_scatter repeat reads and writes."""


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
            printer.print_string(f" {side} {base} {format_int_list(offsets)}{' high' if high else ''}")
        strides = [self.dst_rep_stride.value.data, self.src_rep_stride.value.data]
        printer.print_string(f" repeat {self.repeats} strides {format_int_list(strides)} : ")
        printer.print_attribute(self.element_type)
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        if self.element_type not in VEC_TRANS_SCATTER_TYPES:
            raise VerifyException(
                f"{self.name}: element type {self.element_type} is not one of i8, ui8, i16, ui16, f16, i32, ui32, f32"
            )
        for side in ("dst", "src"):
            self._verify_lanes(side)
        if not 0 <= self.repeats <= MAX_REPEAT_TIMES:
            raise VerifyException(f"{self.name}: repeat {self.repeats} is outside [0, {MAX_REPEAT_TIMES}]")
        strides = (self.dst_rep_stride.value.data, self.src_rep_stride.value.data)
        if not all(0 <= stride <= MAX_REP_STRIDE for stride in strides):
            raise VerifyException(f"{self.name}: strides {list(strides)} are outside [0, {MAX_REP_STRIDE}]")
        if self.repeats == 1 and any(strides):
            raise VerifyException(
                f"{self.name}: repeat 1 takes strides [0, 0], got {list(strides)} (vendor "
                "documents disagree on whether a single repeat adds them)"
            )
        destinations = self.lane_addresses("dst")
        if len(set(destinations)) != LANES:
            raise VerifyException(f"{self.name}: the 16 destination blocks must be distinct, got {destinations}")

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
