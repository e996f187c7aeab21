"""stc in someone else's xDSL flow: docs/embedding.md runs as written, and stc's passes
compose with xDSL's own in a PassPipeline without changing what the network computes."""

import re
from pathlib import Path

import numpy as np
import pytest
from xdsl.passes import PassPipeline
from xdsl.transforms import get_all_passes as get_xdsl_passes
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination
from xdsl.transforms.dead_code_elimination import DeadCodeElimination
from xdsl.universe import Universe

from stc.compiler.ir_files import module_text
from stc.compiler.zoo import build_network
from stc.dialects import get_all_dialects, stc_context
from stc.passes import get_all_passes
from stc.passes.stc_pipeline import StcPipelinePass
from stc.passes.task_split import TaskSplitPass
from stc.runtime.golden import run_module
from stc.runtime.machine import run_isa_module

EMBEDDING_DOC = Path(__file__).parents[2] / "docs" / "embedding.md"


def test_the_embedding_page_runs_as_written():
    blocks = re.findall(r"```python\n(.*?)```", EMBEDDING_DOC.read_text(), re.DOTALL)
    assert len(blocks) >= 4
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(EMBEDDING_DOC), "exec"), namespace)


UPSTREAM = (CanonicalizePass(), CommonSubexpressionElimination(), DeadCodeElimination())


@pytest.mark.parametrize(
    "splits",
    [
        [TaskSplitPass(task=4, vector=[2, 1, 2, 1]), TaskSplitPass(tasks=[10, 16], vector=(1, 2, 1, 2))],
        [TaskSplitPass(task=10, vector=[2, 2, 2, 2]), TaskSplitPass(task=16, vector=[1, 1, 1, 4])],
    ],
)
def test_stc_passes_between_xdsls_keep_the_golden_result(splits: list[TaskSplitPass]):
    module = build_network("tiny")
    before = run_module(module, seed=3)
    PassPipeline((UPSTREAM[0], *splits, *UPSTREAM)).apply(stc_context(), module)
    module.verify()
    after = run_module(module, seed=3)
    assert before.keys() == after.keys()
    for name, output in before.items():
        np.testing.assert_array_equal(after[name], output)


def test_the_whole_stc_pipeline_between_xdsls_passes_computes_what_the_network_does():
    module = build_network("tiny")
    before = run_module(module, seed=3)
    PassPipeline((*UPSTREAM, StcPipelinePass(target="tianjicx"), *UPSTREAM)).apply(stc_context(), module)
    module.verify()
    after, _ = run_isa_module(module, seed=3)
    assert before.keys() == after.keys()
    for name, output in before.items():
        np.testing.assert_array_equal(after[name], output)


def test_a_textual_pipeline_mixes_xdsls_passes_and_stcs():
    ctx = stc_context()
    module = build_network("tiny")
    expected = module.clone()
    TaskSplitPass(task=4, vector=(2, 1, 2, 1)).apply(ctx, expected)
    spec = "canonicalize,task-split{task=4 vector=2,1,2,1},dce"
    PassPipeline.parse_spec(get_xdsl_passes() | get_all_passes(), spec).apply(ctx, module)
    assert module_text(module) == module_text(expected)


def test_list_options_are_kept_as_tuples():
    with_lists = TaskSplitPass(tasks=[4, 10], vector=[2, 2, 1, 1])
    assert with_lists == TaskSplitPass(tasks=(4, 10), vector=(2, 2, 1, 1))
    assert hash(with_lists) == hash(TaskSplitPass(tasks=(4, 10), vector=(2, 2, 1, 1)))
    assert str(with_lists) == "task-split{tasks=4,10 vector=2,2,1,1}"


def test_the_registries_are_the_universes():
    multiverse = Universe.get_multiverse()
    assert get_all_dialects().items() <= multiverse.all_dialects.items()
    assert get_all_passes().keys() <= multiverse.all_passes.keys()
    assert set(stc_context().registered_dialect_names) == {"builtin", *get_all_dialects()}
