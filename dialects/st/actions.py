"""
The actions of an `st.mapping` script that split and place blocks: TianjicX's
`split_task`, `split_group`, `put_in`, `put_group_in` and `take_out`, and stc's
`share_data`, `store_late` and `keep`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from xdsl.dialects.builtin import I64, ArrayAttr, DenseArrayBase, IntegerAttr
from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    IRDLOperation,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from stc.dialects.integers import i64_array, i64_attr
from stc.dialects.st.attrs import CoordAttr
from stc.dialects.st.mapping import ActionOp
from stc.dialects.syntax import AttrBody, IntList, OptionalInt, format_int_list, parse_int_list


@irdl_op_definition
class SplitTaskOp(ActionOp):
    """
    Split a compute block (task-split's `split_task`) by `[ny, nx, nf, nr]`,
    `[nn, ny, nx, nf, nr]` (the batch too) or the seed's `[ny, nx, nf, nr, 1, 1]`, with
    the Average split.

    ```mlir
    st.split_task 3 by [2, 1, 2, 2]
    ```
    """

    name = "st.split_task"
    task = prop_def(IntegerAttr[I64])
    vector = prop_def(DenseArrayBase)
    assembly_format = "$task `by` custom<IntList>($vector) attr-dict"
    custom_directives = (IntList,)

    def __init__(self, task: int, vector: Sequence[int]):
        super().__init__(properties={"task": i64_attr(task), "vector": i64_array(vector)})

    @property
    def task_id(self) -> int:
        return self.task.value.data

    @property
    def counts(self) -> tuple[int, ...]:
        return self.vector.get_values()  # pyright: ignore[reportReturnType]

    def verify_(self) -> None:
        check_vector(self.name, self.counts)


def is_split_vector(counts: Sequence[int]) -> bool:
    """
    Whether `counts` has the form of a split vector: `[ny, nx, nf, nr]`, `[nn, ny, nx, nf, nr]`,
    or the seed's `[ny, nx, nf, nr, nky, nkx]`. What the counts may be is the split's rule
    (stc.compiler.tiling.split.split_counts): at least 1, within the block, nky = nkx = 1.
    """
    return len(counts) in (4, 5, 6)


def check_vector(op_name: str, counts: Sequence[int]) -> None:
    if not is_split_vector(counts):
        raise VerifyException(
            f"{op_name}: a split vector is [ny, nx, nf, nr], [nn, ny, nx, nf, nr] or [ny, nx, nf, nr, 1, 1], "
            f"got {list(counts)}"
        )


@irdl_custom_directive
class SplitVectors(CustomDirective):
    """The vectors of `st.split_group`: `[1, 1, 2, 1]`, one for all, or `[[...], [...]]`, one each."""

    vectors: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if parser.parse_optional_punctuation("[") is None:
            parser.raise_error("expected a split vector `[ny, nx, nf, nr]` or a list of them")
        nested = parser.parse_optional_punctuation("[") is not None
        count = partial(parser.parse_integer, allow_boolean=False)
        vectors = [parser.parse_comma_separated_list(parser.Delimiter.NONE, count)]
        if nested:
            parser.parse_punctuation("]")
            while parser.parse_optional_punctuation(","):
                vectors.append(parse_int_list(parser))
        parser.parse_punctuation("]")
        self.vectors.set(state, ArrayAttr(i64_array(vector) for vector in vectors))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        assert isinstance(op, SplitGroupOp)
        vectors = [format_int_list(vector) for vector in op.count_vectors]
        state.print_whitespace(printer)
        printer.print_string(vectors[0] if len(vectors) == 1 else "[" + ", ".join(vectors) + "]")


@irdl_op_definition
class SplitGroupOp(ActionOp):
    """
    Split compute blocks in order (task-split's `split_group`), all by one vector or each
    by its own.

    ```mlir
    st.split_group [1, 7] by [1, 1, 2, 1]
    st.split_group [1, 5, 7] by [[1, 1, 2, 1], [1, 1, 1, 2], [1, 1, 2, 1]]
    ```
    """

    name = "st.split_group"
    tasks = prop_def(DenseArrayBase)
    vectors = prop_def(ArrayAttr[DenseArrayBase])
    """One vector for every task, or a single vector shared by all."""
    assembly_format = "custom<IntList>($tasks) `by` custom<SplitVectors>($vectors) attr-dict"
    custom_directives = (IntList, SplitVectors)

    def __init__(self, tasks: Sequence[int], vectors: Sequence[Sequence[int]]):
        super().__init__(
            properties={
                "tasks": i64_array(tasks),
                "vectors": ArrayAttr(i64_array(v) for v in vectors),
            }
        )

    @property
    def task_ids(self) -> tuple[int, ...]:
        return self.tasks.get_values()  # pyright: ignore[reportReturnType]

    @property
    def count_vectors(self) -> list[tuple[int, ...]]:
        return [v.get_values() for v in self.vectors]  # pyright: ignore[reportReturnType]

    @property
    def vectors_per_task(self) -> list[tuple[int, ...]]:
        """The vector of each task, in order: the shared vector for every task, or their own."""
        vectors = self.count_vectors
        return vectors * len(self.task_ids) if len(vectors) == 1 else vectors

    def verify_(self) -> None:
        vectors = self.count_vectors
        if len(vectors) not in (1, len(self.task_ids)):
            raise VerifyException(f"{self.name}: {len(vectors)} vectors for {len(self.task_ids)} tasks")
        for vector in vectors:
            check_vector(self.name, vector)


class BlockListAction(ActionOp):
    """An action on a list of compute blocks, named by their task ids."""

    tasks = prop_def(DenseArrayBase)
    assembly_format = "custom<IntList>($tasks) attr-dict"
    custom_directives = (IntList,)

    def __init__(self, tasks: Sequence[int]):
        super().__init__(properties={"tasks": i64_array(tasks)})

    @property
    def task_ids(self) -> tuple[int, ...]:
        return self.tasks.get_values()  # pyright: ignore[reportReturnType]


@irdl_op_definition
class ShareDataOp(BlockListAction):
    """
    Make compute blocks read the weight, bias and table blocks of the first one: the
    others' own data blocks, which must hold the same data and box, are erased. Pieces
    of one layer that run on one core one after another (a batch split into subbatches)
    then load their weights once and keep them while the block lives.

    ```mlir
    st.share_data [12, 30, 48]
    ```
    """

    name = "st.share_data"

    def verify_(self) -> None:
        if len(self.task_ids) < 2:
            raise VerifyException(f"{self.name}: names {len(self.task_ids)} block; sharing takes two or more")


@irdl_op_definition
class StoreLateOp(BlockListAction):
    """
    Store the results of compute blocks to global memory `distance` phases late (one
    unless given), beside that phase's compute: each is marked `st.store_late` (a unit
    attribute for one phase, the distance otherwise; st-lmem-alloc holds the result that
    many phases longer, isa-lower stores it then), as st-search's lowering marks the pieces
    the cost model stores late.

    ```mlir
    st.store_late [12, 30, 48]
    st.store_late [13, 31] by 2
    ```
    """

    name = "st.store_late"
    distance = opt_prop_def(IntegerAttr[I64])
    assembly_format = "custom<IntList>($tasks) (`by` custom<OptionalInt>($distance)^)? attr-dict"
    custom_directives = (IntList, OptionalInt)

    def __init__(self, tasks: Sequence[int], distance: int = 1):
        far = None if distance == 1 else i64_attr(distance)
        IRDLOperation.__init__(self, properties={"tasks": i64_array(tasks), "distance": far})

    @property
    def phases(self) -> int:
        """How many phases late the results are stored."""
        return 1 if self.distance is None else self.distance.value.data

    def verify_(self) -> None:
        if not self.task_ids:
            raise VerifyException(f"{self.name}: names no block")
        if self.phases < 1:
            raise VerifyException(f"{self.name}: stores {self.phases} phases late; a distance is at least 1")


@irdl_op_definition
class KeepOp(BlockListAction):
    """
    Keep the results of compute blocks in their cores' local memory for the buffers that
    first hold them in later phases, instead of storing them to global memory: each is
    marked `st.keep` (st-lmem-alloc holds the result until the last such buffer's first
    phase, isa-lower sends or copies it there at that phase's start), as st-search's
    lowering marks the pieces of the results the cost model keeps on chip across segments.

    ```mlir
    st.keep [12, 30, 48]
    ```
    """

    name = "st.keep"

    def verify_(self) -> None:
        if not self.task_ids:
            raise VerifyException(f"{self.name}: names no block")


@irdl_op_definition
class PutInOp(ActionOp):
    """
    Put a block at a coordinate. A storage block may be given an end coordinate that
    differs only in a later or equal phase; it then lives on every phase in between.

    ```mlir
    st.put_in 3 at (0, 0, 0, 0), (0, 1, axon)
    st.put_in 1 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1, memory)
    ```
    """

    name = "st.put_in"
    task = prop_def(IntegerAttr[I64])
    at = prop_def(CoordAttr)
    end = opt_prop_def(CoordAttr)
    assembly_format = "$task `at` custom<AttrBody>($at) (`to` custom<AttrBody>($end)^)? attr-dict"
    custom_directives = (AttrBody,)

    def __init__(self, task: int, at: CoordAttr, end: CoordAttr | None = None):
        super().__init__(properties={"task": i64_attr(task), "at": at, "end": end})

    @property
    def task_id(self) -> int:
        return self.task.value.data


@irdl_op_definition
class PutGroupInOp(ActionOp):
    """
    Put a compute block at a coordinate and all its input storage blocks at the memory
    stage of the same core, step and phase.

    ```mlir
    st.put_group_in 3 at (0, 0, 0, 0), (0, 1, axon)
    ```
    """

    name = "st.put_group_in"
    task = prop_def(IntegerAttr[I64])
    at = prop_def(CoordAttr)
    assembly_format = "$task `at` custom<AttrBody>($at) attr-dict"
    custom_directives = (AttrBody,)

    def __init__(self, task: int, at: CoordAttr):
        super().__init__(properties={"task": i64_attr(task), "at": at})

    @property
    def task_id(self) -> int:
        return self.task.value.data


@irdl_op_definition
class TakeOutOp(ActionOp):
    """
    Take blocks out of a coordinate: the block at a compute or router stage; at the
    memory stage one storage block, or without an id every storage block of that core
    and phase; with an end coordinate, over every phase up to it.

    ```mlir
    st.take_out 1 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1, memory)
    st.take_out at (0, 0, 0, 0), (0, 1, memory)
    ```
    """

    name = "st.take_out"
    task = opt_prop_def(IntegerAttr[I64])
    at = prop_def(CoordAttr)
    end = opt_prop_def(CoordAttr)
    assembly_format = (
        "(custom<OptionalInt>($task)^)? `at` custom<AttrBody>($at) (`to` custom<AttrBody>($end)^)? attr-dict"
    )
    custom_directives = (OptionalInt, AttrBody)

    def __init__(self, at: CoordAttr, task: int | None = None, end: CoordAttr | None = None):
        super().__init__(properties={"task": None if task is None else i64_attr(task), "at": at, "end": end})

    @property
    def task_id(self) -> int | None:
        return None if self.task is None else self.task.value.data
