"""The verifier that re-checks only what changed: it accepts and refuses what
`module.verify()` does, after every pass of the pipeline and after edits of an op's
properties, operands or neighbours, and skips the ops a pass left alone."""

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr
from xdsl.utils.exceptions import VerifyException

from stc.compiler.verification import Verifier
from stc.compiler.zoo import build_network
from stc.dialects import task
from stc.dialects.task.attrs import StorageKind, StorageKindAttr
from stc.passes.stc_pipeline import StcPipelinePass
from stc.runtime.golden import find_graph


def region_ops(module: ModuleOp) -> int:
    return sum(1 for op in module.walk() if op.regions)


def test_after_each_pass_it_checks_what_changed_and_the_ops_with_regions():
    module = build_network("resnet18")
    verifier = Verifier()
    verifier.verify(module)
    assert verifier.checked == sum(1 for _ in module.walk())
    checked: dict[str, int] = {}
    ctx = Context()
    for stage in StcPipelinePass(target="tianjicx").passes():
        stage.apply(ctx, module)
        module.verify()
        verifier.verify(module)
        checked[stage.name] = verifier.checked
    # st-place, st-route and st-lmem-alloc add st attributes only, which the mapping checks
    for name in ("st-route", "st-lmem-alloc"):
        assert checked[name] == 3  # the module, the graph, the mapping
    assert checked["task-split"] > 500
    verifier.verify(module)
    assert verifier.checked == region_ops(module)
    full = Verifier(full=True)
    full.verify(module)


def refused(module: ModuleOp) -> str:
    with pytest.raises(VerifyException) as error:
        module.verify()
    return str(error.value)


@pytest.mark.parametrize("last", [False, True])
def test_an_edit_a_leaf_op_reads_is_caught_as_verify_catches_it(last: bool):
    """The relu reads its input buffer's kind (a property of another op): changing it
    makes the relu's inputs differ, so the relu is verified again and refused."""
    module = build_network("lenet")
    verifier = Verifier()
    verifier.verify(module)
    graph = find_graph(module)
    relu = next(op for op in graph.tasks() if isinstance(op, task.ReluOp))
    buffer = relu.data_inputs[0].owner
    assert isinstance(buffer, task.BufferOp)
    buffer.properties["kind"] = StorageKindAttr(StorageKind.SIC)
    expected = refused(module)
    with pytest.raises(VerifyException) as error:
        verifier.verify(module, last=last)
    assert str(error.value) == expected


def test_a_bad_shift_and_a_new_op_are_caught():
    module = build_network("lenet")
    verifier = Verifier()
    verifier.verify(module)
    graph = find_graph(module)
    conv = next(op for op in graph.tasks() if isinstance(op, task.ConvOp))
    good = conv.properties["shift"]
    conv.properties["shift"] = IntegerAttr(40, good.type)  # pyright: ignore[reportAttributeAccessIssue]
    expected = refused(module)
    with pytest.raises(VerifyException) as error:
        verifier.verify(module)
    assert str(error.value) == expected
    conv.properties["shift"] = good
    verifier.verify(module)
    clone = conv.clone()
    conv.parent_block().insert_op_after(clone, conv)  # pyright: ignore[reportOptionalMemberAccess]
    expected = refused(module)
    with pytest.raises(VerifyException) as error:
        verifier.verify(module)
    assert str(error.value) == expected


def test_discardable_attributes_of_stc_ops_are_not_inputs_but_the_mapping_checks_st_coord():
    module = build_network("lenet")
    for stage in StcPipelinePass(target="tianjicx").passes():
        if stage.name in ("task-split", "st-place"):
            stage.apply(Context(), module)
    verifier = Verifier()
    verifier.verify(module)
    graph = find_graph(module)
    for op in graph.tasks():
        op.attributes["note"] = StringAttr("unread")
    verifier.verify(module)
    assert verifier.checked == region_ops(module)
    relu = next(op for op in graph.tasks() if isinstance(op, task.ReluOp))
    relu.attributes["st.coord"] = StringAttr("nowhere")
    expected = refused(module)
    assert "must be a #st.coord" in expected
    with pytest.raises(VerifyException) as error:
        verifier.verify(module)
    assert str(error.value) == expected
