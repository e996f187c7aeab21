"""
Compute blocks of the `task` dialect. Every one reads activation buffers and constant
data blocks and produces a tensor that only buffers read. Results are exact integers:
`saturate((acc + bias) >> shift)` to the result's i8 or i32 element type.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import ClassVar

from xdsl.dialects.builtin import I64, DenseArrayBase, IntegerAttr, TensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    OptOperandDef,
    VariadicDef,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from stc.compiler.rules.blocks import (
    add_problem,
    bias_problem,
    compare_problem,
    fc_problem,
    kind_problem,
    mul_problem,
    same_shape_problem,
    shift_problem,
)
from stc.dialects.integers import array_values, i64_array, i64_attr
from stc.dialects.syntax import (
    check_clauses_given,
    clause_default,
    parse_defined_operand,
    parse_i64,
    parse_int_list,
    parse_tensor_type,
    print_attr_dict,
    print_clauses,
    print_type,
)
from stc.dialects.task.attrs import StorageKind
from stc.dialects.task.base import ComputeOp, check_element_width, check_tensor, element_width, tensor_shape
from stc.dialects.task.data import BiasOp, DataOp, TableOp, WeightOp
from stc.dialects.task.storage import BufferOp

Role = tuple[str, SSAValue, type[BufferOp] | type[DataOp]]
"""An operand of a compute block: its name, its value and the kind of block it must come from."""


@cache
def positional_roles(op_type: type[ComputeBlock]) -> tuple[tuple[tuple[str, type[BufferOp] | type[DataOp]], ...], int]:
    """The name and source kind of each operand of `op_type` in order, and how many of
    them are required, when its operands are single ones followed by at most an optional
    `bias` (so the bias, when present, is the last operand); no roles for other
    definitions."""
    definitions = op_type.get_irdl_definition().operands
    *singles, (last, last_def) = definitions
    if any(isinstance(d, VariadicDef) for _, d in singles):
        return (), 0
    optional = isinstance(last_def, VariadicDef)
    if optional and (last != "bias" or not isinstance(last_def, OptOperandDef)):
        return (), 0
    roles = tuple(
        (name, BiasOp if name == "bias" else op_type.DATA_ROLES.get(name, BufferOp)) for name, _ in definitions
    )
    return roles, len(roles) - optional


class ComputeBlock(ComputeOp):
    """
    The shared custom syntax of compute blocks:

        task.<op> ID OPERANDS (bias %b)? (CLAUSE VALUE)* : RESULT-TYPE {attributes}

    The CLAUSES are the op's integer and integer-list properties, each given at most once;
    those equal to their default are not printed. Operand types come from their definitions.
    """

    result = result_def(TensorType)

    OPERAND_NAMES: ClassVar[tuple[str, ...]]
    """The positional operand groups, in order; a bias group, if any, comes last."""
    CLAUSES: ClassVar[tuple[str, ...]]
    DATA_ROLES: ClassVar[dict[str, type[DataOp]]] = {}
    """Positional operands that are constant data blocks rather than buffers."""
    INPUT_KIND: ClassVar[StorageKind] = StorageKind.SI

    def ints(self, name: str) -> tuple[int, ...]:
        value = self.properties[name]
        assert isinstance(value, DenseArrayBase)
        return array_values(value)

    def int(self, name: str) -> int:
        value = self.properties[name]
        assert isinstance(value, IntegerAttr)
        return value.value.data

    def operand_roles(self) -> list[Role]:
        """Every operand with its name and the kind of block it must come from."""
        operands = self.operands
        positional, required = positional_roles(type(self))
        if positional and required <= len(operands) <= len(positional):
            # single operands, then an optional bias: the operands are in the definitions' order
            return [(name, value, source) for (name, source), value in zip(positional, operands, strict=False)]
        roles: list[Role] = []
        for name, _ in self.get_irdl_definition().operands:
            group = getattr(self, name)
            values = [] if group is None else [group] if isinstance(group, SSAValue) else list(group)
            source = BiasOp if name == "bias" else self.DATA_ROLES.get(name, BufferOp)
            roles.extend((name, value, source) for value in values)
        return roles

    @property
    def data_inputs(self) -> tuple[SSAValue, ...]:
        """The activation operands (buffers), in order."""
        return tuple(value for _, value, source in self.operand_roles() if source is BufferOp)

    @property
    def optional_bias(self) -> SSAValue | None:
        bias = getattr(self, "bias", None)
        return bias if isinstance(bias, SSAValue) else None

    @classmethod
    def parse(cls, parser: Parser) -> ComputeBlock:
        task_id = parse_i64(parser, "block id")
        start = parser.pos
        operands = [parse_defined_operand(parser)]
        while parser.parse_optional_punctuation(","):
            operands.append(parse_defined_operand(parser))
        groups: list[SSAValue | list[SSAValue]]
        if cls.OPERAND_NAMES == ("inputs",):
            groups = [operands]
        elif len(operands) != len(cls.OPERAND_NAMES):
            parser.raise_error(
                f"{cls.name} takes {len(cls.OPERAND_NAMES)} operands "
                f"({', '.join(cls.OPERAND_NAMES)}), got {len(operands)}",
                start,
                parser.pos,
            )
        else:
            groups = list(operands)
        if cls.has_bias():
            groups.append([parse_defined_operand(parser)] if parser.parse_optional_keyword("bias") else [])
        properties: dict[str, Attribute] = {"id": i64_attr(task_id)}
        while True:
            clause_start = parser.pos
            if (clause := parser.parse_optional_keyword_in(cls.CLAUSES)) is None:
                break
            if clause in properties:
                parser.raise_error(f"clause `{clause}` is given twice", clause_start, parser.pos)
            if isinstance(clause_default(cls, clause), IntegerAttr):
                properties[clause] = i64_attr(parse_i64(parser, clause))
            else:
                properties[clause] = i64_array(parse_int_list(parser, clause))
        parser.parse_punctuation(":")
        result_type = parse_tensor_type(parser)
        check_clauses_given(parser, cls, cls.CLAUSES, properties, start)
        op = cls.build(operands=groups, properties=properties, result_types=[result_type])
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.task_id} ")
        bias = self.optional_bias
        printer.print_list([v for v in self.operands if v is not bias], printer.print_operand)
        if bias is not None:
            printer.print_string(" bias ")
            printer.print_operand(bias)
        print_clauses(printer, self, self.CLAUSES)
        printer.print_string(" : ")
        print_type(printer, self.result.type)
        print_attr_dict(printer, self.attributes)

    @classmethod
    def has_bias(cls) -> bool:
        return any(name == "bias" for name, _ in cls.get_irdl_definition().operands)

    def verify_(self) -> None:
        check_tensor(self, "the result", self.result.type, 4, (8, 32))
        if "shift" in self.CLAUSES and (problem := shift_problem(self.int("shift"))):
            raise self.error(problem)
        for use in self.result.uses:
            if not isinstance(use.operation, BufferOp):
                raise self.error(f"a compute result is read only by buffers, not by {use.operation.name}")
        roles = self.operand_roles()
        self.verify_roles(roles)
        for _, value, source in roles:
            if source is not BufferOp:
                continue
            owner = value.owner
            assert isinstance(owner, BufferOp)
            if problem := kind_problem(owner.task_id, owner.kind.data.value, self.INPUT_KIND.value):
                raise self.error(problem)
        if bias := [value for name, value, _ in roles if name == "bias"]:
            channels = tensor_shape(self.result.type)[3]
            if problem := bias_problem(tensor_shape(bias[0].type), bias[0].type, channels):  # pyright: ignore[reportArgumentType]
                raise self.error(problem)
        if "cmp" in self.CLAUSES:
            self.verify_compare_value()
        self.verify_shapes()

    def verify_roles(self, roles: Sequence[Role]) -> None:
        """Check that each operand (of `operand_roles`) comes from the right kind of block
        and has that block's type, whether or not that block has been verified yet."""
        for name, value, source in roles:
            if not isinstance(value.owner, source):
                raise self.error(f"operand `{name}` must come from {source.name}")
            assert isinstance(value.type, TensorType)
            check_tensor(self, f"operand `{name}`", value.type, source.RANK, source.ELEMENT_WIDTHS)

    def verify_compare_value(self) -> None:
        """`cmp` must be a value of the input's element type."""
        bits = element_width(self.data_inputs[0].type)
        assert bits is not None
        if problem := compare_problem(self.int("cmp"), bits):
            raise self.error(problem)

    def verify_shapes(self) -> None:
        """Check the result's shape against the operands and properties."""

    def expect(self, problem: str | None) -> None:
        """Raise the problem a rule (`stc.compiler.rules.blocks`) found, if any."""
        if problem:
            raise self.error(problem)

    def expect_same_shape(self, value: SSAValue, role: str) -> None:
        self.expect(same_shape_problem(tensor_shape(value.type), value.type, role, tensor_shape(self.result.type)))  # pyright: ignore[reportArgumentType]


@irdl_op_definition
class FcOp(ComputeBlock):
    """
    Fully connected layer (TianjicX CVM): out[n,0,0,f] = bias[f] + Σ in[n,h,w,r] · w[f,h,w,r].
    The weight spans the whole input, so a flatten needs no op of its own.

    ```mlir
    %y = task.fc 9 %in, %w bias %b shift 7 : tensor<1x1x1x10xi8>
    ```
    """

    name = "task.fc"
    input = operand_def(TensorType)
    weight = operand_def(TensorType)
    bias = opt_operand_def(TensorType)
    shift = prop_def(IntegerAttr[I64], default_value=i64_attr(0))

    OPERAND_NAMES: ClassVar[tuple[str, ...]] = ("input", "weight")
    CLAUSES: ClassVar[tuple[str, ...]] = ("shift",)
    DATA_ROLES: ClassVar[dict[str, type[DataOp]]] = {"weight": WeightOp}
    INPUT_KIND: ClassVar[StorageKind] = StorageKind.SIFC

    def verify_roles(self, roles: Sequence[Role]) -> None:
        super().verify_roles(roles)
        check_element_width(self, "the input", self.input.type, (8,))

    def verify_shapes(self) -> None:
        self.expect(
            fc_problem(
                tensor_shape(self.input.type),  # pyright: ignore[reportArgumentType]
                self.input.type,
                tensor_shape(self.weight.type),  # pyright: ignore[reportArgumentType]
                self.weight.type,
                tensor_shape(self.result.type),
            )
        )


@irdl_op_definition
class ReluOp(ComputeBlock):
    """
    ReLU (TianjicX CCMPB with a 1×1 window): max(in, cmp) >> shift; it also requantizes an
    int32 input to int8.

    ```mlir
    %r = task.relu 7 %in : tensor<1x56x56x64xi8>
    ```
    """

    name = "task.relu"
    input = operand_def(TensorType)
    cmp = prop_def(IntegerAttr[I64], default_value=i64_attr(0))
    shift = prop_def(IntegerAttr[I64], default_value=i64_attr(0))

    OPERAND_NAMES: ClassVar[tuple[str, ...]] = ("input",)
    CLAUSES: ClassVar[tuple[str, ...]] = ("cmp", "shift")

    def verify_shapes(self) -> None:
        self.expect_same_shape(self.input, "input")


@irdl_op_definition
class LutOp(ComputeBlock):
    """
    Table lookup (TianjicX CLUT): out = table[in as an unsigned byte].

    ```mlir
    %l = task.lut 8 %in, %table : tensor<1x8x8x32xi8>
    ```
    """

    name = "task.lut"
    input = operand_def(TensorType)
    table = operand_def(TensorType)

    OPERAND_NAMES: ClassVar[tuple[str, ...]] = ("input", "table")
    CLAUSES: ClassVar[tuple[str, ...]] = ()
    DATA_ROLES: ClassVar[dict[str, type[DataOp]]] = {"table": TableOp}

    def verify_roles(self, roles: Sequence[Role]) -> None:
        super().verify_roles(roles)
        check_element_width(self, "the input", self.input.type, (8,))
        check_element_width(self, "the result", self.result.type, (8,))

    def verify_shapes(self) -> None:
        self.expect_same_shape(self.input, "input")


def applied_on_the_way_out(op: ComputeBlock) -> bool:
    """Whether a conv or fc that feeds `op` could apply it to its outputs as they leave the
    array (a target's `compute.fused_activation`): a lut, or a relu that neither shifts nor
    changes the element type."""
    if isinstance(op, LutOp):
        return True
    return isinstance(op, ReluOp) and op.shift.value.data == 0 and op.input.type == op.result.type


@irdl_op_definition
class AddOp(ComputeBlock):
    """
    Sum of n branches plus bias (TianjicX CADD); it also joins the partial sums of a
    split along r.

    ```mlir
    %s = task.add 10 %a, %b shift 1 : tensor<1x56x56x64xi8>
    ```
    """

    name = "task.add"
    inputs = var_operand_def(TensorType)
    bias = opt_operand_def(TensorType)
    shift = prop_def(IntegerAttr[I64], default_value=i64_attr(0))
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    OPERAND_NAMES: ClassVar[tuple[str, ...]] = ("inputs",)
    CLAUSES: ClassVar[tuple[str, ...]] = ("shift",)

    def verify_shapes(self) -> None:
        branches = [(tensor_shape(value.type), value.type) for value in self.inputs]  # pyright: ignore[reportArgumentType]
        self.expect(add_problem(branches, tensor_shape(self.result.type)))


@irdl_op_definition
class MulOp(ComputeBlock):
    """
    Elementwise product plus bias (TianjicX CVVH).

    ```mlir
    %m = task.mul 11 %a, %b shift 7 : tensor<1x8x8x32xi8>
    ```
    """

    name = "task.mul"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    bias = opt_operand_def(TensorType)
    shift = prop_def(IntegerAttr[I64], default_value=i64_attr(0))

    OPERAND_NAMES: ClassVar[tuple[str, ...]] = ("lhs", "rhs")
    CLAUSES: ClassVar[tuple[str, ...]] = ("shift",)

    def verify_shapes(self) -> None:
        operands = [(tensor_shape(v.type), element_width(v.type), v.type) for v in (self.lhs, self.rhs)]  # pyright: ignore[reportArgumentType]
        self.expect(mul_problem(operands, tensor_shape(self.result.type)))
