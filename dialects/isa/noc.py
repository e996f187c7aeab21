"""NoC transfers between cores: `isa.send` of a strided local box to one or several cores
(multicast) and `isa.recv` on each, paired by tag."""

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
from stc.dialects.isa.attrs import Coord, coords, destinations_problem, format_coord, i64_array_def, ints, parse_coord
from stc.dialects.isa.core import Instruction
from stc.dialects.isa.dma import dense_strides, self_overlap, strided_extent
from stc.dialects.syntax import format_int_list, parse_int_list, print_attr_dict


class TransferOp(Instruction):
    """One side of a NoC transfer: a strided box of local bytes (`sizes` in bytes per
    dimension, innermost last, and the local byte strides, dense when not written); the
    `tag` pairs a send with its receives, which run in the same phase and move as many
    bytes. A contiguous transfer is written `N bytes`. The other side's cores (`peers`)
    are the subclass's: a send's destinations, a receive's sender."""

    tag = prop_def(IntegerAttr[I64])
    address = prop_def(IntegerAttr[I64])
    sizes = i64_array_def("sizes")
    strides = i64_array_def("strides")

    PEERS_PROPERTY: ClassVar[str]
    """The property that lists the other side's cores as flattened (y, x) pairs."""
    MANY_PEERS: ClassVar[bool]
    """Whether the other side may be several cores (a multicast send)."""
    PEER_KEYWORD: ClassVar[str]
    LOCAL_KEYWORD: ClassVar[str]
    WRITES: ClassVar[bool]

    def __init__(
        self,
        sizes: int | Sequence[int],
        address: int,
        peers: Coord | Sequence[Coord],
        tag: int,
        strides: Sequence[int] | None = None,
    ):
        box = [sizes] if isinstance(sizes, int) else list(sizes)
        cores = [peers] if isinstance(peers[0], int) else peers  # one core, or a list of them
        super().__init__(
            properties={
                "tag": i64_attr(tag),
                self.PEERS_PROPERTY: i64_array([value for core in cores for value in core]),
                "address": i64_attr(address),
                "sizes": i64_array(box),
                "strides": i64_array(strides or dense_strides(box)),
            }
        )

    @property
    def peers(self) -> tuple[Coord, ...]:
        """The cores on the other side: (y, x) pairs."""
        return coords(ints(self.properties[self.PEERS_PROPERTY]))

    @property
    def tag_value(self) -> int:
        return self.tag.value.data

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
        peers = [parse_coord(parser)]
        while cls.MANY_PEERS and parser.parse_optional_punctuation(","):
            peers.append(parse_coord(parser))
        parser.parse_keyword("tag")
        tag = parser.parse_integer(allow_boolean=False)
        op = cls(sizes, address, peers, tag, strides)
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
        peers = ", ".join(format_coord(peer) for peer in self.peers)
        printer.print_string(f" {self.PEER_KEYWORD} {peers} tag {self.tag_value}")
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        self.verify_peers(ints(self.properties[self.PEERS_PROPERTY]))
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

    def verify_peers(self, values: tuple[int, ...]) -> None:
        """One core on the other side (a send overrides this with its destinations)."""
        if len(values) != 2 or min(values) < 0:
            raise self.error(f"the peer is a core (y, x) with y, x >= 0, got {list(values)}")


@irdl_op_definition
class SendOp(TransferOp):
    """
    Send local bytes to one core or several, along the XY multicast tree from the sender
    (the union of the XY routes to each destination: a link the routes share carries the
    bytes once). The data leaves when the send runs; each destination receives it with
    its own `isa.recv` of the tag, into its own box.

    ```mlir
    isa.send 128 bytes from 512 to (0, 1) tag 3
    isa.send sizes [4, 8, 16] from 512 strides [512, 32, 1] to (0, 1) tag 4
    isa.send 256 bytes from 0 to (0, 1), (0, 2), (1, 2) tag 5
    ```
    """

    name = "isa.send"
    dsts = i64_array_def("dsts")

    PEERS_PROPERTY: ClassVar[str] = "dsts"
    PEER_KEYWORD: ClassVar[str] = "to"
    LOCAL_KEYWORD: ClassVar[str] = "from"
    WRITES: ClassVar[bool] = False
    MANY_PEERS: ClassVar[bool] = True

    @property
    def destinations(self) -> tuple[Coord, ...]:
        return self.peers

    def verify_peers(self, values: tuple[int, ...]) -> None:
        if (problem := destinations_problem(values)) is not None:
            raise self.error(problem)


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
    peer = i64_array_def("peer")

    PEERS_PROPERTY: ClassVar[str] = "peer"
    PEER_KEYWORD: ClassVar[str] = "from"
    LOCAL_KEYWORD: ClassVar[str] = "to"
    WRITES: ClassVar[bool] = True
    MANY_PEERS: ClassVar[bool] = False

    @property
    def peer_coord(self) -> Coord:
        (sender,) = self.peers
        return sender
