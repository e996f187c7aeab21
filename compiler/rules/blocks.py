"""
The rules of the `task` dialect's blocks on plain values: each returns why a block breaks
it, or None. `typ` arguments are the types as the messages name them.

    >>> shift_problem(40)
    'shift must be in [0, 31], got 40'
"""

from __future__ import annotations

from collections.abc import Sequence

from stc.compiler.rules.windows import slid_windows

Box = Sequence[tuple[int, int]]
"""Half-open intervals, one per dimension."""


def box_problem(box: Box) -> str | None:
    """Every interval of a box holds an element, at 0 or after."""
    for lo, hi in box:
        if not 0 <= lo < hi:
            return f"box interval {lo}:{hi} is empty or negative"
    return None


def box_inside(box: Box, shape: Sequence[int]) -> bool:
    """Whether `box` is a non-empty box of a tensor of `shape`."""
    return len(shape) == len(box) and all(0 <= lo < hi <= n for (lo, hi), n in zip(box, shape, strict=True))


def format_box(box: Box) -> str:
    """The intervals of a box as written in the IR: `[0:1, 4:8]`."""
    return "[" + ", ".join(f"{lo}:{hi}" for lo, hi in box) + "]"


def shift_problem(shift: int) -> str | None:
    return None if 0 <= shift <= 31 else f"shift must be in [0, 31], got {shift}"


def compare_problem(cmp: int, bits: int) -> str | None:
    """`cmp` must be a value of the input's element type."""
    lowest, highest = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
    if lowest <= cmp <= highest:
        return None
    return f"cmp must be in [{lowest}, {highest}], the range of the input's i{bits} elements, got {cmp}"


def kind_problem(buffer_id: int, kind: str, expected: str) -> str | None:
    """A compute block reads its activations from buffers of its input kind."""
    return None if kind == expected else f"reads buffer {buffer_id} of kind {kind}, expected {expected}"


def bias_problem(bias_shape: Sequence[int], typ: object, channels: int) -> str | None:
    return None if tuple(bias_shape) == (channels,) else f"bias {typ} must hold {channels} channels"


def result_shape_problem(result_shape: Sequence[int], expected: Sequence[int]) -> str | None:
    if tuple(result_shape) == tuple(expected):
        return None
    return f"result must be {list(expected)} for these operands, got {list(result_shape)}"


def same_shape_problem(shape: Sequence[int], typ: object, role: str, result_shape: Sequence[int]) -> str | None:
    """An operand of an elementwise block has the result's shape."""
    if tuple(shape) == tuple(result_shape):
        return None
    return f"{role} {typ} must have the result's shape {list(result_shape)}"


def conv_weight_problem(weight_shape: Sequence[int], typ: object, channels: int) -> str | None:
    """A conv's weight reduces over its input's channels."""
    return None if weight_shape[3] == channels else f"weight {typ} must reduce over the input's {channels} channels"


def window_problem(
    input_shape: Sequence[int],
    window: tuple[int, ...],
    stride: tuple[int, ...],
    pad: tuple[int, ...],
    dilation: tuple[int, ...],
    channels: int,
    result_shape: Sequence[int],
) -> str | None:
    """A window block's result: one value per window and channel, if the window slides."""
    n, h, w, _ = input_shape
    windows = slid_windows(h, w, window, stride, pad, dilation)
    if isinstance(windows, str):
        return windows
    return result_shape_problem(result_shape, (n, *windows, channels))


def fc_problem(
    input_shape: Sequence[int],
    input_type: object,
    weight_shape: Sequence[int],
    weight_type: object,
    result_shape: Sequence[int],
) -> str | None:
    """A fully connected block's weight spans its whole input; one value per filter."""
    n, *spatial = input_shape
    f, *weight_spatial = weight_shape
    if weight_spatial != spatial:
        return f"weight {weight_type} must span the whole input {input_type}"
    return result_shape_problem(result_shape, (n, 1, 1, f))


def add_problem(branches: Sequence[tuple[Sequence[int], object]], result_shape: Sequence[int]) -> str | None:
    """An add sums at least one branch, each of the result's shape."""
    if not branches:
        return "an add needs at least one branch"
    for index, (shape, typ) in enumerate(branches):
        if problem := same_shape_problem(shape, typ, f"branch #{index}", result_shape):
            return problem
    return None


def mul_problem(
    operands: Sequence[tuple[Sequence[int], int | None, object]], result_shape: Sequence[int]
) -> str | None:
    """A product multiplies two int8 operands of the result's shape."""
    for (shape, _, typ), role in zip(operands, ("lhs", "rhs"), strict=True):
        if problem := same_shape_problem(shape, typ, role, result_shape):
            return problem
    for _, width, typ in operands:
        if width != 8:
            return f"a product multiplies int8 operands, got {typ}"
    return None


def source_problem(
    index: int,
    source_shape: Sequence[int],
    same_element: bool,
    source_element: object,
    buffer_element: object,
    box: Box,
    offset: Sequence[int],
    rank: int,
) -> str | None:
    """Source #`index` of a buffer: elements of the buffer's type, a box inside the
    producer's result, an offset of the buffer's rank."""
    if not same_element:
        return f"source #{index} has {source_element} elements, the buffer {buffer_element}"
    if not box_inside(box, source_shape):
        return f"box {format_box(box)} of source #{index} is not inside its {list(source_shape)} result"
    if len(offset) != rank:
        return f"offset {list(offset)} of source #{index} needs rank {rank}"
    return None


def consumers_problem(kind: str, readers: Sequence[str]) -> str | None:
    """A buffer feeds one operand of at most one compute block (`readers`, outputs not
    counted), and an `so` buffer none."""
    if len(readers) > 1:
        return f"a buffer feeds one operand of at most one compute block, this one feeds {', '.join(sorted(readers))}"
    if readers and kind == "so":
        return "an `so` buffer is read only by outputs"
    return None


def data_box_problem(box: Box | None, full_shape: Sequence[int]) -> str | None:
    """The box a data block holds lies inside the data."""
    if box is None or box_inside(box, full_shape):
        return None
    return f"box {format_box(box)} is not inside the data's {list(full_shape)}"


def table_problem(full_shape: Sequence[int], has_box: bool, typ: object) -> str | None:
    """A lookup table holds 256 entries, whole."""
    if tuple(full_shape) == (256,) and not has_box:
        return None
    return f"a lookup table holds exactly 256 entries, got {typ}"


def id_problem(task_id: int) -> str | None:
    return None if task_id >= 0 else "block ids must be >= 0"


def names_problem(what: str, names: Sequence[str]) -> str | None:
    """The inputs' (or outputs') names of a graph are unique."""
    seen: set[str] = set()
    for name in names:
        if name in seen:
            return f"{what} name {name!r} is used twice"
        seen.add(name)
    return None
