"""
Whole-op readers of the `isa` dialect's most frequent instructions (see
`stc.compiler.op_lines`): each matches the text the op's printer writes and builds the op
its parser builds, with the same properties in the same order.

```mlir
isa.sync 3
isa.dma_load sizes [10, 256] from global 1024 strides [512, 1] to local 512
isa.send sizes [1, 56, 16, 16] from 0 strides [57344, 1024, 64, 1] to (1, 7) tag 36
isa.recv 4096 bytes to 0 from (0, 8) tag 1360
isa.send 256 bytes from 0 to (0, 1), (0, 2), (1, 2) tag 5
```
"""

from __future__ import annotations

import re

from xdsl.ir import Attribute, Operation

from stc.compiler.op_lines import Build, OpLines, Reader
from stc.compiler.spelling import INT, INT_LIST_TEXT, INT_TUPLE_TEXT, ints_of
from stc.dialects.created import created
from stc.dialects.integers import i64_array, i64_attr
from stc.dialects.isa import DmaLoadOp, DmaStoreOp, RecvOp, SendOp, SyncOp, TransferOp
from stc.dialects.isa.dma import dense_strides

LIST = INT_LIST_TEXT.pattern
SYNC_TEXT = re.compile(rf"({INT})")
DMA_TEXTS = {
    memory: re.compile(
        rf"sizes (?P<sizes>{LIST}) from {memory} (?P<from>{INT})(?: strides (?P<from_strides>{LIST}))?"
        rf" to {other} (?P<to>{INT})(?: strides (?P<to_strides>{LIST}))?"
    )
    for memory, other in (("global", "local"), ("local", "global"))
}
TRANSFER_TEXTS = {
    local: re.compile(
        rf"(?:sizes (?P<sizes>{LIST}) {local} (?P<address>{INT})(?: strides (?P<strides>{LIST}))?"
        rf"|(?P<bytes>{INT}) bytes {local} (?P<contiguous_address>{INT}))"
        rf" {peer} (?P<peers>{INT_TUPLE_TEXT.pattern}(?:, {INT_TUPLE_TEXT.pattern})*+) tag (?P<tag>{INT})"
    )
    for local, peer in (("from", "to"), ("to", "from"))
}


def read_sync(lines: OpLines, op_type: type[Operation], start: int) -> tuple[Build, int] | None:
    """`PHASE`, as SyncOp's format reads it."""
    if (match := SYNC_TEXT.match(lines.text, start)) is None:
        return None
    properties: dict[str, Attribute] = {"phase": i64_attr(int(match[1]))}
    return (lambda attributes: created(SyncOp, properties=properties, attributes=attributes)), match.end()


def read_dma(lines: OpLines, op_type: type[Operation], start: int) -> tuple[Build, int] | None:
    """`sizes [..] from MEMORY ADDRESS (strides [..])? to MEMORY ADDRESS (strides [..])?`, as
    the DMA ops' formats read it, with their properties in declaration order."""
    assert op_type is DmaLoadOp or op_type is DmaStoreOp
    source = "global" if op_type.FROM_GLOBAL else "local"
    if (match := DMA_TEXTS[source].match(lines.text, start)) is None:
        return None
    sizes = ints_of(match["sizes"])
    dense = dense_strides(sizes)
    sides = {
        source: (match["from"], match["from_strides"]),
        "local" if op_type.FROM_GLOBAL else "global": (match["to"], match["to_strides"]),
    }
    properties: dict[str, Attribute] = {"sizes": i64_array(sizes)}
    for memory in ("global", "local"):
        address, strides = sides[memory]
        properties[f"{memory}_address"] = i64_attr(int(address))
        properties[f"{memory}_strides"] = i64_array((strides and ints_of(strides)) or dense)
    return (lambda attributes: created(op_type, properties=properties, attributes=attributes)), match.end()


def read_transfer(lines: OpLines, op_type: type[Operation], start: int) -> tuple[Build, int] | None:
    """`sizes [..] LOCAL ADDRESS (strides [..])? PEER (y, x), ... tag TAG` or `N bytes LOCAL
    ADDRESS PEER (y, x), ... tag TAG`, as `TransferOp.parse` reads it."""
    assert issubclass(op_type, TransferOp)
    if (match := TRANSFER_TEXTS[op_type.LOCAL_KEYWORD].match(lines.text, start)) is None:
        return None
    peers = [ints_of(text) for text in INT_TUPLE_TEXT.findall(match["peers"])]
    if any(len(peer) != 2 for peer in peers) or (len(peers) > 1 and not op_type.MANY_PEERS):
        return None
    if match["bytes"] is not None:
        sizes, address, strides = [int(match["bytes"])], match["contiguous_address"], None
    else:
        sizes, address, strides = ints_of(match["sizes"]), match["address"], match["strides"]
    properties: dict[str, Attribute] = {
        "tag": i64_attr(int(match["tag"])),
        op_type.PEERS_PROPERTY: i64_array([value for peer in peers for value in peer]),
        "address": i64_attr(int(address)),
        "sizes": i64_array(sizes),
        "strides": i64_array((strides and ints_of(strides)) or dense_strides(sizes)),
    }
    return (lambda attributes: created(op_type, properties=properties, attributes=attributes)), match.end()


READERS: dict[type[Operation], Reader] = {
    SyncOp: read_sync,
    DmaLoadOp: read_dma,
    DmaStoreOp: read_dma,
    SendOp: read_transfer,
    RecvOp: read_transfer,
}
