"""NoC transfers between cores: `isa.send` and `isa.recv` of strided local boxes, paired by tag."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import I64, IntegerAttr
from xdsl.irdl import irdl_op_definition, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from stc.dialects.integers import i64_array, i64_attr
from stc.dialects.isa.access import Access
from stc.dialects.isa.attrs import Coord, format_coord, i64_array_def, ints, parse_coord
from stc.dialects.isa.core import Instruction
from stc.dialects.isa.dma import dense_strides, self_overlap, strided_extent
from stc.dialects.syntax import format_int_list, parse_int_list, print_attr_dict


class TransferOp(Instruction):
    """One side of a NoC transfer between two cores: a strided box of local bytes
    (`sizes` in bytes per dimension, innermost last, and the local byte strides, dense
    when not written); the `tag` pairs a send with its receive, which runs in the same
    phase and moves as many bytes. A contiguous transfer is written `N bytes`."""

    tag = prop_def(IntegerAttr[I64])
    peer = i64_array_def("peer")
    address = prop_def(IntegerAttr[I64])
    sizes = i64_array_def("sizes")
    strides = i64_array_def("strides")

    PEER_KEYWORD: ClassVar[str]
    LOCAL_KEYWORD: ClassVar[str]
    WRITES: ClassVar[bool]

    def __init__(
        self,
        sizes: int | Sequence[int],
        address: int,
        peer: Coord,
        tag: int,
        strides: Sequence[int] | None = None,
    ):
        box = [sizes] if isinstance(sizes, int) else list(sizes)
        super().__init__(
            properties={
                "tag": i64_attr(tag),
                "peer": i64_array(peer),
                "address": i64_attr(address),
                "sizes": i64_array(box),
                "strides": i64_array(strides or dense_strides(box)),
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
    def box(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(sizes, strides) of the local box."""
        return ints(self.sizes), ints(self.strides)

    @property
    def byte_count(self) -> int:
        return math.prod(ints(self.sizes))

    def is_contiguous(self) -> bool:
        sizes, strides = self.box
        return strides == dense_strides(sizes)

    def local_accesses(self) -> list[Access]:
        sizes, strides = self.box
        extent = strided_extent(sizes, strides)
        return [Access("transfer", self.local_address, extent, "byte", self.WRITES, sizes, strides)]

    @classmethod
    def parse(cls, parser: Parser) -> TransferOp:
        strides: list[int] | None = None
        if parser.parse_optional_keyword("sizes"):
            sizes: int | list[int] = parse_int_list(parser)
            parser.parse_keyword(cls.LOCAL_KEYWORD)
            address = parser.parse_integer(allow_boolean=False)
            if parser.parse_optional_keyword("strides"):
                strides = parse_int_list(parser)
        else:
            sizes = parser.parse_integer(allow_boolean=False)
            parser.parse_keyword("bytes")
            parser.parse_keyword(cls.LOCAL_KEYWORD)
            address = parser.parse_integer(allow_boolean=False)
        parser.parse_keyword(cls.PEER_KEYWORD)
        peer = parse_coord(parser)
        parser.parse_keyword("tag")
        tag = parser.parse_integer(allow_boolean=False)
        op = cls(sizes, address, peer, tag, strides)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        sizes, strides = self.box
        if len(sizes) == 1 and strides == (1,):
            printer.print_string(f" {sizes[0]} bytes {self.LOCAL_KEYWORD} {self.local_address}")
        else:
            printer.print_string(f" sizes {format_int_list(sizes)} {self.LOCAL_KEYWORD} {self.local_address}")
            if strides != dense_strides(sizes):
                printer.print_string(f" strides {format_int_list(strides)}")
        printer.print_string(f" {self.PEER_KEYWORD} {format_coord(self.peer_coord)} tag {self.tag_value}")
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        peer = ints(self.peer)
        if len(peer) != 2 or min(peer) < 0:
            raise self.error(f"the peer is a core (y, x) with y, x >= 0, got {list(peer)}")
        sizes, strides = self.box
        if not sizes or min(sizes) < 1:
            got = sizes[0] if len(sizes) == 1 else f"sizes {list(sizes)}"
            raise self.error(f"transfers carry at least 1 byte, got {got}")
        if len(strides) != len(sizes) or min(strides) < 0:
            raise self.error(f"strides must be {len(sizes)} integers >= 0, got {list(strides)}")
        if self.local_address < 0:
            raise self.error(f"local address {self.local_address} is negative")
        if self.tag_value < 0:
            raise self.error(f"tag {self.tag_value} is negative")
        if self.WRITES and self_overlap(sizes, strides):
            raise self.error(f"strides {list(strides)} write some bytes twice for sizes {list(sizes)}")


@irdl_op_definition
class SendOp(TransferOp):
    """
    Send local bytes to another core, XY routed. The data leaves when the send runs.

    ```mlir
    isa.send 128 bytes from 512 to (0, 1) tag 3
    isa.send sizes [4, 8, 16] from 512 strides [512, 32, 1] to (0, 1) tag 4
    ```
    """

    name = "isa.send"
    PEER_KEYWORD: ClassVar[str] = "to"
    LOCAL_KEYWORD: ClassVar[str] = "from"
    WRITES: ClassVar[bool] = False


@irdl_op_definition
class RecvOp(TransferOp):
    """
    Receive the bytes another core sends with this tag into local memory, in the order
    the sender's box lists them; the core waits until they arrive.

    ```mlir
    isa.recv 128 bytes to 0 from (0, 0) tag 3
    isa.recv sizes [4, 8, 16] to 1024 strides [256, 32, 1] from (0, 0) tag 4
    ```
    """

    name = "isa.recv"
    PEER_KEYWORD: ClassVar[str] = "from"
    LOCAL_KEYWORD: ClassVar[str] = "to"
    WRITES: ClassVar[bool] = True
