"""
A split piece's own copies of the blocks it reads: its box of each input buffer, read
from the same producers (`BufferSources`), and its box of each weight, bias or table
(`DataBlocks`), each distinct box's attribute and tensor type built once, as the pieces
of a split read a few boxes many times.

```python
data = DataBlocks()
copy = data.block(weight, ((0, 8), (0, 3), (0, 3), (0, 16)), task_id=42)
```
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, TensorType
from xdsl.ir import Attribute, SSAValue

from stc.compiler.tiling.pieces import Box, BoxIndex, Piece, intersection
from stc.dialects.created import created
from stc.dialects.integers import built_i64_attr, i64_array
from stc.dialects.task import BoxAttr, BufferOp, DataOp, WeightOp


class TensorTypes:
    """One tensor type per element type and shape: the pieces of a split have a few shapes."""

    def __init__(self) -> None:
        self.types: dict[tuple[Attribute, tuple[int, ...]], TensorType] = {}

    def of(self, element: Attribute, shape: Sequence[int]) -> TensorType:
        key = (element, tuple(shape))
        if (typ := self.types.get(key)) is None:
            typ = self.types[key] = TensorType(element, shape)
        return typ


class BufferSources:
    """The sources of a buffer being split, indexed by where they land in it."""

    def __init__(self, buffer: BufferOp, types: TensorTypes | None = None):
        self.buffer = buffer
        self.types = TensorTypes() if types is None else types
        self.element = buffer.result.type.get_element_type()
        self.sources = buffer.pieces
        self.placed: list[Box] = [
            tuple((o, o + size) for o, size in zip(offset, box.shape, strict=True)) for _, box, offset in self.sources
        ]
        self.index = BoxIndex(self.placed)

    def region(self, region: Box, task_id: int) -> BufferOp:
        """A new buffer holding `region` of the buffer, read from the same producers."""
        operands: list[SSAValue] = []
        boxes: list[BoxAttr] = []
        offsets: list[DenseArrayBase] = []
        for i in self.index.meeting(region):
            value, box, _ = self.sources[i]
            placed = self.placed[i]
            overlap = intersection(placed, region)
            source_box = tuple(
                (lo + o_lo - p_lo, lo + o_hi - p_lo)
                for (lo, _), (o_lo, o_hi), (p_lo, _) in zip(box.data, overlap, placed, strict=True)
            )
            landing = [o_lo - r_lo for (o_lo, _), (r_lo, _) in zip(overlap, region, strict=True)]
            operands.append(value)
            boxes.append(BoxAttr(source_box))
            offsets.append(i64_array(landing))
        properties: dict[str, Attribute] = {
            "id": built_i64_attr(task_id),
            "kind": self.buffer.kind,
            "boxes": ArrayAttr(boxes),
            "offsets": ArrayAttr(offsets),
        }
        result_type = self.types.of(self.element, [hi - lo for lo, hi in region])
        return created(BufferOp, operands=operands, result_types=[result_type], properties=properties)


def data_box(data: DataOp, piece: Piece) -> Box | None:
    """The box of a weight a piece reads; tables are replicated whole."""
    if not isinstance(data, WeightOp):
        return None
    _, rows, columns, _ = data.result.type.get_shape()
    return (piece.f, (0, rows), (0, columns), piece.channels_read)


class DataBlocks:
    """The data blocks a split block's pieces read, narrowed to their boxes."""

    def __init__(self, types: TensorTypes | None = None):
        self.types = TensorTypes() if types is None else types
        self.boxes: dict[tuple[DataOp, Box | None], tuple[BoxAttr | None, TensorType]] = {}

    def block(self, op: DataOp, box: Box | None, task_id: int) -> DataOp:
        """A new block holding `box` of what `op` holds (all of it when `box` is None),
        with the properties `DataOp(...)` gives it."""
        if (narrowed := self.boxes.get((op, box))) is None:
            narrowed = self.boxes[op, box] = self.narrowed(op, box)
        box_attr, result_type = narrowed
        properties: dict[str, Attribute] = {"id": built_i64_attr(task_id), "data": op.data, "full_type": op.full_type}
        if box_attr is not None:
            properties["box"] = box_attr
        return created(type(op), result_types=[result_type], properties=properties)

    def narrowed(self, op: DataOp, box: Box | None) -> tuple[BoxAttr | None, TensorType]:
        """The box attribute (None for the whole data) and result type of `box` of `op`."""
        region = op.region.data
        if box is not None:
            region = tuple((lo + a, lo + b) for (lo, _), (a, b) in zip(region, box, strict=True))
        whole = tuple((0, n) for n in op.full_type.get_shape())
        box_attr = None if region == whole else BoxAttr(region)
        return box_attr, self.types.of(op.full_type.get_element_type(), [hi - lo for lo, hi in region])
