"""Tests for dialects/syntax.py, the custom syntax task, st and isa share, and the
assembly formats built on it: what is printed, what is parsed, and that a parsed op is
the op its constructor builds."""

from io import StringIO

import pytest
from xdsl.dialects.builtin import ModuleOp, TensorType, i8
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError

from stc.compiler.ir_files import module_text
from stc.dialects import isa, st, stc_context
from stc.dialects.syntax import format_int_list, format_int_tuple, parse_i64, parse_int_list, parse_int_tuple


def parse(text: str) -> ModuleOp:
    return Parser(stc_context(), text).parse_module()


def generic(op: Operation) -> str:
    stream = StringIO()
    Printer(stream, print_generic_format=True).print_op(op)
    return stream.getvalue()


def test_integer_lists_and_tuples_print_as_they_parse():
    parser = Parser(stc_context(), "[1, -2, 3] (4, 5)")
    assert parse_int_list(parser) == [1, -2, 3]
    assert parse_int_tuple(parser) == [4, 5]
    assert format_int_list([1, -2, 3]) == "[1, -2, 3]"
    assert format_int_tuple([4, 5]) == "(4, 5)"


def test_an_integer_beyond_64_bits_is_named_in_the_error():
    with pytest.raises(ParseError, match="stride 9223372036854775808 does not fit in a 64-bit integer"):
        parse_i64(Parser(stc_context(), "9223372036854775808"), "stride")


def test_an_empty_body_parses_to_one_empty_block_and_prints_without_a_label():
    module = parse('task.graph @g {\n}\nst.mapping @g target "tianjicx" applied {\n}')
    mapping = module.ops.last
    assert isinstance(mapping, st.MappingOp)
    assert len(mapping.body.blocks) == 1
    assert not mapping.body.block.ops
    assert 'st.mapping @g target "tianjicx" applied {\n  }' in module_text(module)


def core_program(*instructions: Operation) -> str:
    core = isa.CoreOp((0, 0), [*instructions, isa.SyncOp(0)])
    return module_text(ModuleOp([isa.ProgramOp("p", "tianjicx", [core])]))


@pytest.mark.parametrize(
    "op",
    [
        isa.DmaStoreOp([4, 128], 8192, 0, global_strides=[512, 1]),
        isa.VecTransScatterOp(i8, 4096, [32 * k for k in range(16)], 0, [32 * k for k in range(16)], 3, 16, 16),
    ],
)
def test_a_parsed_instruction_holds_its_properties_in_the_order_its_constructor_gives(op: Operation):
    """The formats name these properties in another order than the ops declare them; the
    generic form, which prints properties in the order an op holds them, must not tell a
    parsed op from a built one."""
    (program,) = parse(core_program(op)).ops
    assert isinstance(program, isa.ProgramOp)
    parsed = program.cores()[0].body.block.first_op
    assert parsed is not None
    assert generic(parsed) == generic(op)


def test_area_group_flags_are_taken_in_any_order_and_held_in_declaration_order():
    text = (
        'task.graph @g {\n}\nst.mapping @g target "tianjicx" {\n'
        '  st.area_group "g" [0] {core columns 0 to 1 rows 0 to 1} exclusive_placement contain_routing\n}'
    )
    mapping = parse(text).ops.last
    assert isinstance(mapping, st.MappingOp)
    group = mapping.body.block.first_op
    built = st.AreaGroupOp("g", [0], [st.RectAttr.of("core", (0, 1), (0, 1))], True, False, True)
    assert isinstance(group, st.AreaGroupOp)
    assert generic(group) == generic(built)
    assert "{core columns 0 to 1 rows 0 to 1} contain_routing exclusive_placement" in str(group)


def test_a_flag_given_twice_is_refused_with_the_group_name():
    text = (
        'st.mapping @g target "tianjicx" {\n'
        '  st.area_group "g" [0] {core columns 0 to 1 rows 0 to 1} contain_routing contain_routing\n}'
    )
    with pytest.raises(ParseError, match="area group 'g': contain_routing is given twice"):
        parse(text)


@pytest.mark.parametrize(
    ("written", "vectors", "printed"),
    [
        ("[1, 1, 2, 1]", [(1, 1, 2, 1)], "[1, 1, 2, 1]"),
        ("[[1, 1, 2, 1], [2, 1, 1, 1]]", [(1, 1, 2, 1), (2, 1, 1, 1)], "[[1, 1, 2, 1], [2, 1, 1, 1]]"),
        ("[[1, 1, 2, 1]]", [(1, 1, 2, 1)], "[1, 1, 2, 1]"),
    ],
)
def test_split_group_vectors_are_one_for_all_or_one_each(written: str, vectors: list[tuple[int, ...]], printed: str):
    mapping = parse(f'st.mapping @g target "tianjicx" {{\n  st.split_group [1, 2] by {written}\n}}').ops.first
    assert isinstance(mapping, st.MappingOp)
    op = mapping.body.block.first_op
    assert isinstance(op, st.SplitGroupOp)
    assert op.count_vectors == vectors
    assert str(op) == f"st.split_group [1, 2] by {printed}"


def test_an_optional_task_id_and_end_coordinate_print_only_when_held():
    at = st.CoordAttr((0, 0, 0, 0), 0, 1, st.Stage.MEMORY)
    end = st.CoordAttr((0, 0, 0, 0), 0, 2, st.Stage.MEMORY)
    assert str(st.TakeOutOp(at)) == "st.take_out at (0, 0, 0, 0), (0, 1, memory)"
    assert (
        str(st.TakeOutOp(at, 4, end)) == "st.take_out 4 at (0, 0, 0, 0), (0, 1, memory) to (0, 0, 0, 0), (0, 2, memory)"
    )


def test_a_tensor_typed_property_takes_only_a_tensor_type():
    text = 'isa.program @p target "tianjicx" {\n  isa.input "x" : i8 at 0 as nhwc\n}'
    with pytest.raises(ParseError, match="expected a tensor type"):
        parse(text)
    declared = isa.InputOp("x", TensorType(i8, (1, 16, 4, 4)), 0, isa.GlobalLayout.NHWC)
    assert str(declared) == 'isa.input "x" : tensor<1x16x4x4xi8> at 0 as nhwc'


def test_clauses_at_their_default_are_not_printed_and_one_without_a_default_is_required():
    graph = """task.graph @g {
  %x = task.input 0 "x" : tensor<1x8x8x16xi8>
  %in = task.buffer 1 si %x : tensor<1x8x8x16xi8>
  %p = task.maxpool 2 %in window [2, 2] stride [2, 2] pad [0, 0, 0, 0] cmp -128 : tensor<1x4x4x16xi8>
}"""
    assert "task.maxpool 2 %in window [2, 2] stride [2, 2] : tensor<1x4x4x16xi8>" in module_text(parse(graph))
    with pytest.raises(ParseError, match="task.maxpool needs the clause `window`"):
        parse(graph.replace("window [2, 2] ", ""))
