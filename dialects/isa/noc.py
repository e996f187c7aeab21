"""NoC transfers between cores: `isa.send` and `isa.recv`, paired by tag."""

from __future__ import annotations

from xdsl.dialects.builtin import I64, IntegerAttr
from xdsl.irdl import irdl_op_definition, prop_def

from stc.dialects.integers import i64_array, i64_attr
from stc.dialects.isa.access import Access
from stc.dialects.isa.attrs import Coord, CoreCoord, i64_array_def, ints
from stc.dialects.isa.core import Instruction
from stc.dialects.syntax import DeclaredPropertyOrder


class TransferOp(DeclaredPropertyOrder, Instruction):
    """One side of a NoC transfer of contiguous local bytes between two cores; the
    `tag` pairs a send with its receive, which runs in the same phase."""

    tag = prop_def(IntegerAttr[I64])
    peer = i64_array_def("peer")
    address = prop_def(IntegerAttr[I64])
    byte_count_ = prop_def(IntegerAttr[I64], prop_name="bytes")

    custom_directives = (CoreCoord,)

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

    def verify_(self) -> None:
        peer = ints(self.peer)
        if len(peer) != 2 or min(peer) < 0:
            raise self.error(f"the peer is a core (y, x) with y, x >= 0, got {list(peer)}")
        if self.byte_count < 1:
            raise self.error(f"transfers carry at least 1 byte, got {self.byte_count}")
        if self.local_address < 0:
            raise self.error(f"local address {self.local_address} is negative")
        if self.tag_value < 0:
            raise self.error(f"tag {self.tag_value} is negative")


@irdl_op_definition
class SendOp(TransferOp):
    """
    Send local bytes to another core, XY routed. The data leaves when the send runs.

    ```mlir
    isa.send 128 bytes from 512 to (0, 1) tag 3
    ```
    """

    name = "isa.send"
    assembly_format = "$bytes `bytes` `from` $address `to` custom<CoreCoord>($peer) `tag` $tag attr-dict"


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
    assembly_format = "$bytes `bytes` `to` $address `from` custom<CoreCoord>($peer) `tag` $tag attr-dict"
