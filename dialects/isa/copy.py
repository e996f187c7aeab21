"""`isa.copy`: a strided copy inside one core's local memory."""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import I64, IntegerAttr
from xdsl.irdl import irdl_op_definition, prop_def

from stc.dialects.integers import i64_array, i64_attr
from stc.dialects.isa.access import Access
from stc.dialects.isa.attrs import i64_array_def, ints
from stc.dialects.isa.core import Instruction
from stc.dialects.isa.dma import Strides, dense_strides, self_overlap, strided_extent
from stc.dialects.syntax import IntList, IntValue


@irdl_op_definition
class CopyOp(Instruction):
    """
    Copy a strided box of local memory to another place in the same memory, e.g. a
    4x8x16 box out of a 16-wide, 32-channel NHWC tile into a dense tile. `sizes` counts
    bytes per dimension, innermost last; each side has an address and byte strides,
    dense when not written. The source is read whole before the destination is written,
    and the destination may not write a byte twice. Runs on the vector unit.

    ```mlir
    isa.copy sizes [4, 8, 16] from 0 strides [512, 32, 1] to 4096
    ```
    """

    name = "isa.copy"

    sizes = i64_array_def("sizes")
    source = prop_def(IntegerAttr[I64])
    source_strides = i64_array_def("source_strides")
    destination = prop_def(IntegerAttr[I64])
    destination_strides = i64_array_def("destination_strides")
    assembly_format = (
        "`sizes` custom<IntList>($sizes) `from` custom<IntValue>($source) "
        "custom<Strides>($source_strides, ref($sizes)) "
        "`to` custom<IntValue>($destination) custom<Strides>($destination_strides, ref($sizes)) attr-dict"
    )
    custom_directives = (IntValue, IntList, Strides)

    def __init__(
        self,
        sizes: Sequence[int],
        source: int,
        destination: int,
        source_strides: Sequence[int] | None = None,
        destination_strides: Sequence[int] | None = None,
    ):
        dense = dense_strides(sizes)
        super().__init__(
            properties={
                "sizes": i64_array(sizes),
                "source": i64_attr(source),
                "source_strides": i64_array(source_strides or dense),
                "destination": i64_attr(destination),
                "destination_strides": i64_array(destination_strides or dense),
            }
        )

    @property
    def byte_count(self) -> int:
        return math.prod(ints(self.sizes))

    def side(self, which: str) -> tuple[int, tuple[int, ...]]:
        """(address, strides) of the `source` or `destination`."""
        if which == "source":
            return self.source.value.data, ints(self.source_strides)
        return self.destination.value.data, ints(self.destination_strides)

    def local_accesses(self) -> list[Access]:
        sizes = ints(self.sizes)
        accesses: list[Access] = []
        for which in ("source", "destination"):
            address, strides = self.side(which)
            extent = strided_extent(sizes, strides)
            accesses.append(Access(which, address, extent, "byte", which == "destination", sizes, strides))
        return accesses

    def verify_(self) -> None:
        sizes = ints(self.sizes)
        if not sizes or min(sizes) < 1:
            raise self.error(f"sizes must be integers >= 1, got {list(sizes)}")
        for which in ("source", "destination"):
            address, strides = self.side(which)
            if len(strides) != len(sizes) or min(strides) < 0:
                raise self.error(f"{which} strides must be {len(sizes)} integers >= 0, got {list(strides)}")
            if address < 0:
                raise self.error(f"{which} address {address} is negative")
        destination_strides = self.side("destination")[1]
        if self_overlap(sizes, destination_strides):
            raise self.error(
                f"destination strides {list(destination_strides)} write some bytes twice for sizes {list(sizes)}"
            )
