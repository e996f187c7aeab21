"""STEnv: the seed's Python API records `st` actions that st-apply replays to the same module."""

import numpy as np
import pytest
from seed_graphs import SEED_FC, SEED_GROUP
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.ir_files import module_text, stc_context
from stc.compiler.mapping.env import PIIndex, Shape, SplitType, STCoord, STEnv
from stc.compiler.targets.hardware import load_target
from stc.dialects import task
from stc.dialects.st import Stage
from stc.passes.st_apply import StApplyPass


def parse(text: str) -> ModuleOp:
    return Parser(stc_context(), text).parse_module()


def replayed(source: str, env: STEnv) -> str:
    """The module st-apply makes of `source` plus the script STEnv recorded."""
    module = parse(source + env.script())
    StApplyPass().apply(stc_context(), module)
    return module_text(module)


def core0(phase: int, pi: PIIndex) -> STCoord:
    return STCoord((0, 0, 0, 0), (0, phase, pi.value))


def test_seed_put_in_example_replays_to_the_same_module():
    env = STEnv(parse(SEED_FC))
    env.put_in(st_coord=core0(1, PIIndex.MEMORY), task_id=0)
    env.put_in(st_coord=core0(0, PIIndex.MEMORY), task_id=1, end_st_coord=core0(1, PIIndex.MEMORY))
    env.put_in(st_coord=core0(0, PIIndex.MEMORY), task_id=2, end_st_coord=core0(1, PIIndex.MEMORY))
    env.put_in(st_coord=core0(1, PIIndex.AXON), task_id=3)
    env.put_in(st_coord=core0(1, PIIndex.MEMORY), task_id=4)
    assert (
        env.script().splitlines()[2] == "  st.put_in 1 at (0, 0, 0, 0), (0, 0, memory) to (0, 0, 0, 0), (0, 1, memory)"
    )
    assert replayed(SEED_FC, env) == module_text(env.module)
    assert "(0, 0 to 1, memory)" in module_text(env.module)


def test_seed_put_group_in_and_take_out_examples():
    env = STEnv(parse(SEED_FC))
    env.put_group_in(st_coord=core0(1, PIIndex.AXON), task_id=3)
    env.take_out(st_coord=core0(1, PIIndex.MEMORY), task_id=1)
    env.take_out(st_coord=core0(1, PIIndex.MEMORY), task_id=2)
    env.put_in(st_coord=core0(0, PIIndex.MEMORY), task_id=1, end_st_coord=core0(1, PIIndex.MEMORY))
    env.put_in(st_coord=core0(0, PIIndex.MEMORY), task_id=2, end_st_coord=core0(1, PIIndex.MEMORY))
    env.put_in(st_coord=core0(1, PIIndex.MEMORY), task_id=4)
    env.take_out(st_coord=core0(0, PIIndex.MEMORY), task_id=1, end_st_coord=core0(1, PIIndex.MEMORY))
    assert replayed(SEED_FC, env) == module_text(env.module)
    assert env.executor.matrix.places.keys() == {0, 2, 3, 4}


def test_split_group_returns_the_created_ids_and_replays():
    env = STEnv(parse(SEED_GROUP))
    created = env.split_group(
        task_id_list=[1, 5, 7],
        split_vector=[Shape(nf=2), Shape(nr=2), Shape(nf=2)],
        split_funcs=[SplitType.Average] * 3,
    )
    graph_ids = {op.task_id for op in env.executor.graph.tasks()}
    assert created
    assert set(created) <= graph_ids
    assert "st.split_group [1, 5, 7] by [[1, 1, 2, 1, 1, 1], [1, 1, 1, 2, 1, 1], [1, 1, 2, 1, 1, 1]]" in env.script()
    adds = [op.task_id for op in env.executor.graph.tasks() if op.name == "task.add"]
    env.put_group_in(STCoord((0, 0, 1, 1), (0, 3, PIIndex.AXON)), adds[0])
    assert replayed(SEED_GROUP, env) == module_text(env.module)


def test_numpy_integers_are_integers():
    env = STEnv(parse(SEED_GROUP))
    created = env.split_group(np.array([1, 7]), [np.int64(1), np.int64(1), np.int32(2), np.int8(1)])
    assert created
    assert "st.split_group [1, 7] by [1, 1, 2, 1]" in env.script()


def test_split_task_with_one_shape_and_area_group():
    env = STEnv(parse(SEED_GROUP), target="tianjicx")
    env.area_group("left", [5], {"core": ((0, 1), (0, 9))}, exclusive_placement=True)
    pieces = env.split_task(5, Shape(ny=2, nx=1, nf=1, nr=1, nky=1, nkx=1))
    conv_pieces = [i for i in pieces if env.executor.matrix.blocks[i].name == "task.conv"]
    env.put_group_in(STCoord((0, 0, 9, 1), (0, 0, PIIndex.AXON)), conv_pieces[0])
    with pytest.raises(PassFailedException, match="a node of area group 'left' must be placed inside it"):
        env.put_group_in(STCoord((0, 0, 0, 2), (0, 0, PIIndex.AXON)), conv_pieces[1])
    assert replayed(SEED_GROUP, env) == module_text(env.module)


def test_a_failing_action_is_not_recorded_and_changes_nothing():
    env = STEnv(parse(SEED_FC))
    env.put_in(core0(1, PIIndex.AXON), 3)
    before = (env.script(), dict(env.executor.matrix.places))
    with pytest.raises(PassFailedException, match=r"st.put_group_in \(action 2\): block 3 \(task.fc\)"):
        env.put_group_in(core0(2, PIIndex.AXON), 3)
    with pytest.raises(PassFailedException, match="split"):
        env.split_group([3, 3], Shape(nf=2))
    with pytest.raises(PassFailedException, match="only SplitType.Average"):
        env.split_task(3, Shape(nf=2), split_funcs="Uniform")
    assert (env.script(), dict(env.executor.matrix.places)) == before


def test_a_split_action_reports_its_first_problem_in_the_order_it_names_the_blocks():
    """A block named twice is reported where it is named the second time: a missing
    block named before it is reported first."""
    env = STEnv(parse(SEED_GROUP))
    with pytest.raises(PassFailedException, match=r"st.split_group \(action 1\): task.graph @\w+ has no block 99"):
        env.split_group([99, 1, 1], Shape(nf=2))
    with pytest.raises(PassFailedException, match=r"st.split_group \(action 1\): block 1 is named twice"):
        env.split_group([1, 1, 99], Shape(nf=2))


def test_pi_index_numbers_follow_mapping_proto():
    assert [pi.stage for pi in PIIndex] == list(Stage)
    assert (PIIndex.AXON.value, PIIndex.MEMORY.value) == (1, 6)
    assert STCoord((0, 0, 0, 0), (0, 1, 6)).attr().stage == Stage.MEMORY


def test_stenv_needs_a_single_unmapped_graph():
    module = parse(SEED_FC)
    STEnv(module)
    with pytest.raises(PassFailedException, match="already has an st.mapping"):
        STEnv(module)
    with pytest.raises(PassFailedException, match="expected one task graph @nope, found 0"):
        STEnv(parse(SEED_FC), graph="nope")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda env: STCoord((0, 0, 0, 0), (0, 1, 7)), r"STCoord: the PI index is one of 1 \(AXON\), .*, got 7"),
        (lambda env: STCoord((0, 0, -1, 0), (0, 1, 1)), r"STCoord: .*core x\) must be 0 or more, got -1"),
        (lambda env: STCoord((0, 0, 0), (0, 1, 1)), r"STCoord: .* has 4 parts, got 3"),
        (lambda env: STCoord((0, 0, 0, 0), (0, "1", 1)), r"STCoord: .* must be an integer, got '1'"),
        (
            lambda env: env.put_in(core0(1, PIIndex.AXON), task_id="3"),
            r"STEnv.put_in: task_id must be an integer, got '3'",
        ),
        (
            lambda env: env.put_in((0, 0, 0, 0), task_id=3),
            r"STEnv.put_in: st_coord must be an STCoord, got \(0, 0, 0, 0\)",
        ),
        (lambda env: env.take_out(core0(1, PIIndex.AXON), task_id=True), r"STEnv.take_out: task_id must be an integer"),
        (lambda env: env.split_task(3, Shape(ny="2")), r"Shape: ny must be an integer, got '2'"),
        (lambda env: env.split_task(3, [1, 1, 2**70, 1]), r"STEnv.split_task: a split vector must be below 2\*\*63"),
        (lambda env: env.split_task(3, [2, 0, 1, 1]), r"STEnv.split_task: a split vector must be 1 or more, got 0"),
        (lambda env: env.split_group([3, "1"], Shape(nf=2)), r"STEnv.split_group: task_id_list must be an integer"),
        (
            lambda env: env.area_group("a", [3], {"core": ((3, 1), (0, 2))}),
            r"STEnv.area_group: rectangle core columns 3 to 1 rows 0 to 2 is empty or negative",
        ),
        (
            lambda env: env.area_group("a", [3], {"core": (0, 1)}),
            r"STEnv.area_group: columns of core must be a sequence",
        ),
        (
            lambda env: env.area_group("a", [3], {"core": ((0, 1), (0, 2))}, contain_routing="yes"),
            r"STEnv.area_group: the flags are True or False",
        ),
        (lambda env: STEnv(parse(SEED_FC), "tianjix"), r"STEnv: unknown target 'tianjix'"),
        (lambda env: STEnv(parse(SEED_FC), 5), r"STEnv: the target is a name, a TOML path or a HardwareTarget"),
    ],
)
def test_bad_input_raises_pass_failed_exception_naming_the_call(call, message: str):
    env = STEnv(parse(SEED_FC))
    with pytest.raises(PassFailedException, match=message):
        call(env)
    assert env.script().count("st.") == 1


def test_seed_spelling_graph_and_target_arguments():
    module = parse(SEED_FC)
    graph = next(op for op in module.ops if isinstance(op, task.GraphOp))
    env = STEnv(graph, load_target("tianjicx"))
    assert PIIndex.ROUTER_RECIEVE is PIIndex.ROUTER_RECEIVE
    env.put_in(STCoord((0, 0, 0, 1), (0, 0, PIIndex.ROUTER_RECIEVE.value)), task_id=5)
    assert 'st.mapping @fc target "tianjicx"' in env.script()
    assert "st.put_in 5 at (0, 0, 0, 1), (0, 0, router_recv)" in env.script()
    assert env.module is module


def test_the_module_reflects_every_action_so_far():
    env = STEnv(parse(SEED_FC))
    module = env.module
    env.put_group_in(core0(1, PIIndex.AXON), 3)
    assert module_text(module) == replayed(SEED_FC, env)
    env.take_out(core0(1, PIIndex.MEMORY), 2)
    assert module_text(module) == replayed(SEED_FC, env)
    env.area_group("g", [3], {"core": ((0, 1), (0, 1))})
    assert module_text(module) == replayed(SEED_FC, env)
    assert "st.area_groups" in module_text(module)


def test_reading_the_module_checks_the_rules_of_a_finished_script():
    env = STEnv(parse(SEED_FC))
    env.put_in(core0(0, PIIndex.MEMORY), 1, core0(2, PIIndex.MEMORY))
    env.take_out(core0(1, PIIndex.MEMORY), 1)
    with pytest.raises(PassFailedException, match=r"st.take_out \(action 2\): .* one contiguous range of phases"):
        _ = env.module
