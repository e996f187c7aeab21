"""STEnv: the seed's Python API records `st` actions that st-apply replays to the same module."""

import pytest
from seed_graphs import SEED_FC, SEED_GROUP
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.ir_files import module_text, stc_context
from stc.compiler.st_env import PIIndex, Shape, SplitType, STCoord, STEnv
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
