"""st-lmem-alloc against the st dialect's local-memory verifier: random mapped graphs
(random lifetimes, sizes, kinds, cores and targets) are allocated, and the verifier, which
reads only the addresses in the IR, finds every rule kept; moving one region onto a live
neighbour makes it name both."""

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_task_split import graph_of, parse
from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.utils.exceptions import VerifyException

from stc.dialects import task
from stc.dialects.st import ADDRESS, COORD, CoordAttr
from stc.dialects.st.local_memory import first_overlap
from stc.dialects.task.base import tensor_bytes
from stc.passes.st_lmem_alloc import StLmemAllocPass

CORES = {"tianjicx": [(0, 0), (0, 1)], "aie-ml": [(3, 0), (3, 1)], "set-8x8": [(0, 0)], "tpu-like": [(0, 0)]}


@st.composite
def mapped_graphs(draw: st.DrawFn) -> tuple[str, str]:
    """A placed graph on up to two cores of a random target: chains input → buffer → relu
    → buffer, and weights, each with random sizes and phase ranges (a relu in a phase of
    its input buffer, its result buffer from that phase or later)."""
    target = draw(st.sampled_from(sorted(CORES)))
    cores = CORES[target]
    lines: list[str] = []

    def coord(core: tuple[int, int], first: int, last: int, stage: str) -> str:
        phases = f"{first} to {last}" if last > first else str(first)
        return f"{{st.coord = #st.coord<(0, 0, {core[0]}, {core[1]}), (0, {phases}, {stage})>}}"

    next_id = 0
    for chain in range(draw(st.integers(1, 5))):
        core = draw(st.sampled_from(cores))
        h, w, c = draw(st.integers(1, 12)), draw(st.integers(1, 12)), draw(st.sampled_from([16, 32, 48]))
        typ = f"tensor<1x{h}x{w}x{c}xi8>"
        first = draw(st.integers(0, 6))
        last = first + draw(st.integers(0, 4))
        relu = draw(st.integers(first, last))
        start = relu + draw(st.integers(0, 2))
        end = start + draw(st.integers(0, 3))
        i, b, r, o = range(next_id, next_id + 4)
        next_id += 4
        lines += [
            f'  %v{i} = task.input {i} "x{chain}" : {typ} {coord(core, first, first, "router_recv")}',
            f"  %v{b} = task.buffer {b} si %v{i} : {typ} {coord(core, first, last, 'memory')}",
            f"  %v{r} = task.relu {r} %v{b} : {typ} {coord(core, relu, relu, 'soma1')}",
            f"  %v{o} = task.buffer {o} si %v{r} : {typ} {coord(core, start, end, 'memory')}",
        ]
    for _ in range(draw(st.integers(0, 4))):
        core = draw(st.sampled_from(cores))
        f, r = draw(st.integers(1, 64)), draw(st.integers(1, 64))
        first = draw(st.integers(0, 8))
        last = first + draw(st.integers(0, 4))
        typ = f"tensor<{f}x3x3x{r}xi8>"
        lines.append(
            f"  %v{next_id} = task.weight {next_id} #task.random<1> : {typ} {coord(core, first, last, 'memory')}"
        )
        next_id += 1
    text = "task.graph @g {\n" + "\n".join(lines) + f'\n}}\nst.mapping @g target "{target}" applied {{\n}}\n'
    return target, text


@settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(mapped_graphs(), st.data())
def test_allocated_random_graphs_pass_the_verifier_and_a_moved_region_fails_it(
    problem: tuple[str, str], data: st.DataObject
):
    _, text = problem
    module = parse(text)
    StLmemAllocPass().apply(Context(), module)
    module.verify()

    # Every region the verifier sees, per core, as (start, end, address, size, block).
    regions: dict[tuple[int, int], list[tuple[tuple[int, int], tuple[int, int], int, int, task.TaskOp]]] = {}
    for op in graph_of(module).tasks():
        coord = op.attributes.get(COORD)
        if not isinstance(op, task.BufferOp | task.WeightOp):
            continue
        address = op.attributes[ADDRESS]
        assert isinstance(coord, CoordAttr)
        assert isinstance(address, IntegerAttr)
        span = ((coord.step, coord.phase), (coord.step, coord.last_phase))
        nbytes = tensor_bytes(op.results[0].type)  # pyright: ignore[reportArgumentType]
        regions.setdefault(coord.space[2:], []).append((*span, address.value.data, nbytes, op))
    pairs = [
        (a, b)
        for placed in regions.values()
        for a in placed
        for b in placed
        if a[4] is not b[4] and a[0] <= b[1] and b[0] <= a[1]
    ]
    if not pairs:
        return
    (_, _, _, _, moved), (_, _, onto_address, _, _) = pairs[data.draw(st.integers(0, len(pairs) - 1))]
    moved.attributes[ADDRESS] = IntegerAttr(onto_address, i64)
    with pytest.raises(VerifyException) as info:
        module.verify()
    # The moved region overlaps a live one, unless it now breaks a rule of its own first
    # (its alignment, a bank boundary or the top of the memory).
    message = str(info.value)
    assert f"block {moved.task_id} ({moved.name})" in message
    if "overlap, both live" in message:  # with `onto` or another region live then
        (low, high), (other_low, other_high) = [tuple(map(int, r)) for r in re.findall(r"at \[(\d+), (\d+)\)", message)]
        assert low < other_high
        assert other_low < high
    else:
        assert re.search("not a multiple of the|crosses the bank boundary|outside the usable local memory", message)


def test_first_overlap_reports_the_first_time_and_the_lower_region_first():
    spans = [((0, 0), (0, 3), 0, 100), ((0, 1), (0, 2), 100, 50), ((0, 2), (0, 4), 120, 10), ((0, 5), (0, 5), 0, 8)]
    assert first_overlap(spans) == ((0, 2), 1, 2)
    assert first_overlap(spans[:2] + spans[3:]) is None
