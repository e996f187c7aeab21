"""
Where spilled results wait in global memory, and the DMAs that load them back: the
pieces of one tensor that buffers load together share one region laid out as that tensor
(a frame), so that a buffer loads its box of them with one strided DMA, as the cost model
prices an input from DRAM (one DMA per core and input), not one per piece (fc39 of tiny
b2 with every layer its own segment loaded avgpool35's 64 pieces of 8 B in 64 cycles; one
DMA of 512 B takes 8).

A buffer that loads several spilled pieces fixes where they lie relative to one another:
each lands at its offset less its box's start. Pieces so linked, directly or through other
buffers, make a frame, unless two buffers place them differently or two of them overlap
(then each keeps a region of its own, as does a piece no buffer loads with another). A
buffer loads the pieces of one frame it takes with one DMA when their boxes make one box.
"""

from __future__ import annotations

import math
from collections import defaultdict

import attrs
import numpy as np
from xdsl.dialects.builtin import TensorType

from stc.compiler.memory.plan import MemoryPlan
from stc.dialects import task
from stc.dialects.task.base import element_width

Place = tuple[int, ...]


@attrs.frozen
class SpillLoad:
    """One DMA of a buffer from global memory: a box of a region at an offset."""

    region: int | str
    """The producer's task id (a region of its own) or "frame N"."""
    box: task.BoxAttr
    """In the region's elements."""
    offset: Place
    """Where the box lands in the buffer."""
    itemsize: int


class SpillFrames:
    """The frames of a mapped graph's spilled results and each buffer's loads of them."""

    def __init__(self, plan: MemoryPlan):
        self.plan = plan
        self.parent: dict[int, tuple[int, Place]] = {}
        """Union-find over pieces: each piece's parent and its place relative to it."""
        self.clash: set[int] = set()
        self.order = {task_id: index for index, task_id in enumerate(plan.blocks)}
        spilled = {buffer: self.spilled_sources(buffer) for buffer in plan.sources}
        for sources in spilled.values():
            for producer, box, offset in sources[1:]:
                first, first_box, first_offset = sources[0]
                self.link(first, producer, sub(sub(offset, box.lo), sub(first_offset, first_box.lo)))
        self.frames: dict[int, tuple[str, Place]] = {}
        """Each framed piece's frame and its place there."""
        self.shapes: dict[str, Place] = {}
        """Each frame's shape, in elements."""
        self.make_frames()
        self.loads: dict[tuple[int, int, task.BoxAttr, Place], SpillLoad] = {}
        """Each buffer's loads, by the (buffer, producer, box, offset) of their first piece
        in graph order (isa-lower emits a load with it)."""
        for buffer, sources in spilled.items():
            self.add_loads(buffer, sources)

    def spilled_sources(self, buffer: int) -> list[tuple[int, task.BoxAttr, Place]]:
        """(producer, box, offset) of each source of a buffer loaded from global memory."""
        op = self.plan.blocks[buffer]
        assert isinstance(op, task.BufferOp)
        if buffer in self.plan.direct_outputs:
            return []
        return [
            (producer.task_id, box, offset)
            for value, box, offset in self.plan.sources[buffer]
            if isinstance(producer := value.owner, task.ComputeBlock)
            and self.plan.spilled(producer.task_id, op)
            and not self.plan.kept(producer.task_id)
        ]

    # --- Frames -------------------------------------------------------------------------

    def find(self, piece: int) -> tuple[int, Place]:
        """A piece's root and its place relative to the root."""
        parent, place = self.parent.get(piece, (piece, (0, 0, 0, 0)))
        if parent == piece:
            return piece, place
        root, above = self.find(parent)
        self.parent[piece] = (root, add(place, above))
        return root, add(place, above)

    def link(self, a: int, b: int, b_from_a: Place) -> None:
        """b lies at b_from_a from a; a clash where an earlier link placed it elsewhere."""
        for piece in (a, b):
            self.parent.setdefault(piece, (piece, (0, 0, 0, 0)))
        (root_a, at_a), (root_b, at_b) = self.find(a), self.find(b)
        if root_a == root_b:
            if sub(at_b, at_a) != b_from_a:
                self.clash.add(root_a)
            return
        self.parent[root_b] = (root_a, sub(add(at_a, b_from_a), at_b))
        if root_b in self.clash:
            self.clash.add(root_a)

    def make_frames(self) -> None:
        components: dict[int, list[tuple[int, Place]]] = defaultdict(list)
        for piece in self.parent:
            root, place = self.find(piece)
            components[root].append((piece, place))
        for root, members in components.items():
            if root in self.clash or (shape := self.frame_shape(members)) is None:
                continue
            name = f"frame {len(self.shapes)}"
            self.shapes[name] = shape
            low = np.min([place for _, place in members], axis=0)
            for piece, place in members:
                self.frames[piece] = (name, tuple(int(x) for x in np.subtract(place, low)))

    def frame_shape(self, members: list[tuple[int, Place]]) -> Place | None:
        """The shape of the tensor the pieces make at their places, if they are of one
        element type and do not overlap."""
        results = [self.result(piece) for piece, _ in members]
        if len({typ.get_element_type() for typ in results}) > 1:
            return None
        lo = np.array([place for _, place in members])
        hi = lo + np.array([typ.get_shape() for typ in results])
        overlap = np.all((lo[:, None, :] < hi[None, :, :]) & (lo[None, :, :] < hi[:, None, :]), axis=2)
        if np.count_nonzero(overlap) > len(members):
            return None
        return tuple(int(x) for x in hi.max(axis=0) - lo.min(axis=0))

    def result(self, piece: int) -> TensorType:
        op = self.plan.blocks[piece]
        assert isinstance(op, task.ComputeBlock)
        return op.result.type

    # --- Loads --------------------------------------------------------------------------

    def add_loads(self, buffer: int, sources: list[tuple[int, task.BoxAttr, Place]]) -> None:
        """One load per frame whose pieces' boxes make one box, one per other piece."""
        framed: dict[str, list[tuple[int, task.BoxAttr, Place]]] = defaultdict(list)
        for source in sources:
            if source[0] in self.frames:
                framed[self.frames[source[0]][0]].append(source)
        merged = {name: box for name, group in framed.items() if (box := self.union(group)) is not None}
        first = {name: min(group, key=lambda source: self.order[source[0]]) for name, group in framed.items()}
        for producer, box, offset in sources:
            key = (buffer, producer, box, offset)
            itemsize = element_width(self.result(producer)) // 8
            if producer not in self.frames:
                self.loads[key] = SpillLoad(producer, box, offset, itemsize)
                continue
            name, place = self.frames[producer]
            whole = merged.get(name)
            if whole is None:
                self.loads[key] = SpillLoad(name, shifted(box, place), offset, itemsize)
            elif first[name] == (producer, box, offset):
                landing = add(sub(offset, box.lo), sub(whole.lo, place))
                self.loads[key] = SpillLoad(name, whole, landing, itemsize)

    def union(self, group: list[tuple[int, task.BoxAttr, Place]]) -> task.BoxAttr | None:
        """The box, in frame elements, that a buffer's boxes of one frame make, if they
        make one (they do not overlap: the boxes of a buffer tile it)."""
        if len(group) < 2:
            return None
        boxes = [shifted(box, self.frames[producer][1]) for producer, box, _ in group]
        lo = tuple(min(x) for x in zip(*(box.lo for box in boxes), strict=True))
        hi = tuple(max(x) for x in zip(*(box.hi for box in boxes), strict=True))
        if sum(math.prod(box.shape) for box in boxes) != math.prod(sub(hi, lo)):
            return None
        return task.BoxAttr(tuple(zip(lo, hi, strict=True)))


def add(a: Place, b: Place) -> Place:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def sub(a: Place, b: Place) -> Place:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def shifted(box: task.BoxAttr, by: Place) -> task.BoxAttr:
    return task.BoxAttr(tuple((lo + d, hi + d) for (lo, hi), d in zip(box.data, by, strict=True)))
