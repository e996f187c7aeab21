"""
`isa.program`, the program for a whole target, and the checks that span its cores:
global-memory declarations, core placement, every instruction's accesses against the
target's memories, the pairing of NoC transfers and races on global memory.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import attrs
from xdsl.dialects.builtin import I64, IntegerAttr, StringAttr, SymbolNameConstraint
from xdsl.ir import Operation, Region
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, region_def, traits_def
from xdsl.traits import IsolatedFromAbove, NoTerminator, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

from stc.compiler.diagnostics import StcError
from stc.compiler.references import referenced_target
from stc.compiler.targets.core_dataflow import dataflow_problem
from stc.compiler.targets.hardware import HardwareTarget
from stc.compiler.targets.reading import TargetError
from stc.dialects.isa.access import local_capacity, required_alignment
from stc.dialects.isa.attrs import Coord, format_coord
from stc.dialects.isa.base import single_block_region
from stc.dialects.isa.compute import ComputeInstruction
from stc.dialects.isa.core import CoreOp, Instruction, where
from stc.dialects.isa.dma import DmaMulticastOp
from stc.dialects.isa.noc import RecvOp, SendOp
from stc.dialects.isa.races import verify_global_races
from stc.dialects.isa.tensors import DataOp, GlobalOp, InputOp, OutputOp
from stc.dialects.syntax import Body


@irdl_op_definition
class ProgramOp(IRDLOperation):
    """
    A program for a target: global-memory declarations (`isa.input`, `isa.output`,
    `isa.data`) and one `isa.core` per core it uses. Phases are global: every core ends
    phase p with `isa.sync p`, and phase p + 1 starts when all cores have. On a target
    with `max_phases` P, a program of S `steps` runs up to S · P phases: phase p is phase
    p mod P of step p div P (TianjicX reloads its phase table between steps).

    ```mlir
    isa.program @conv target "tianjicx" {
      isa.input "x" : tensor<1x16x8x8xi8> at 0 as nhwc
      isa.core (0, 0) { ... }
    }
    isa.program @deep target "tianjicx" steps 2 { ... }
    ```
    """

    name = "isa.program"
    sym_name = prop_def(SymbolNameConstraint())
    target = prop_def(StringAttr)
    steps = prop_def(IntegerAttr[I64], default_value=IntegerAttr(1, 64))
    body = region_def("single_block")
    traits = traits_def(NoTerminator(), IsolatedFromAbove(), SymbolOpInterface())
    assembly_format = "$sym_name `target` $target (`steps` $steps^)? attr-dict-with-keyword custom<Body>($body)"
    custom_directives = (Body,)

    def __init__(self, name: str, target: str, body: Region | Sequence[Operation] = (), steps: int = 1):
        super().__init__(
            properties={"sym_name": StringAttr(name), "target": StringAttr(target), "steps": IntegerAttr(steps, 64)},
            regions=[single_block_region(body)],
        )

    @property
    def step_count(self) -> int:
        return self.steps.value.data

    @property
    def program_name(self) -> str:
        return self.sym_name.data

    def inputs(self) -> list[InputOp]:
        return [op for op in self.body.block.ops if isinstance(op, InputOp)]

    def outputs(self) -> list[OutputOp]:
        return [op for op in self.body.block.ops if isinstance(op, OutputOp)]

    def data(self) -> list[DataOp]:
        return [op for op in self.body.block.ops if isinstance(op, DataOp)]

    def cores(self) -> list[CoreOp]:
        return [op for op in self.body.block.ops if isinstance(op, CoreOp)]

    def phase_count(self) -> int:
        return max((len(core.phases()) for core in self.cores()), default=0)

    def hardware_target(self) -> HardwareTarget:
        """The target the program names, or a verifier error naming the program."""
        try:
            return referenced_target(self.target.data, f"isa.program @{self.program_name}")
        except TargetError as error:
            raise VerifyException(f"isa.program @{self.program_name}: {error}") from None
        except StcError as error:  # a target file outside the IR file's directory
            raise VerifyException(str(error)) from None

    def verify_(self) -> None:
        for op in self.body.block.ops:
            if not isinstance(op, GlobalOp | CoreOp):
                raise VerifyException(f"isa.program @{self.program_name} holds declarations and cores, not {op.name}")
        if self.step_count < 1:
            raise VerifyException(f"isa.program @{self.program_name}: steps must be >= 1, got {self.step_count}")
        target = self.hardware_target()
        self._verify_globals(target)
        self._verify_cores(target)
        verify_transfers(self, target)
        verify_global_races(self.cores())

    def _verify_globals(self, target: HardwareTarget) -> None:
        for kind, ops in (("input", self.inputs()), ("output", self.outputs())):
            names = [op.tensor_name.data for op in ops]
            if duplicates := sorted({n for n in names if names.count(n) > 1}):
                raise VerifyException(f"{kind} name {duplicates[0]!r} is declared twice")
        regions = sorted((op.start, op.nbytes, op.describe()) for op in self.body.block.ops if isinstance(op, GlobalOp))
        capacity = target.global_memory.capacity_bytes
        for start, size, what in regions:
            if start + size > capacity:
                raise VerifyException(
                    f"{what} occupies global bytes [{start}, {start + size}), beyond the "
                    f"{capacity} bytes of {target.name}'s global memory"
                )
        for (start, size, what), (next_start, _, other) in itertools.pairwise(regions):
            if start + size > next_start:
                raise VerifyException(f"{what} at global bytes [{start}, {start + size}) overlaps {other}")

    def _verify_cores(self, target: HardwareTarget) -> None:
        seen: set[Coord] = set()
        for core in self.cores():
            coord = core.coord
            if not target.core_exists(*coord):
                raise VerifyException(
                    f"core {format_coord(coord)} does not exist on {target.name} "
                    f"({target.mesh.cores_y} rows x {target.mesh.cores_x} columns)"
                )
            if coord in seen:
                raise VerifyException(f"core {format_coord(coord)} has two programs")
            seen.add(coord)
            phases = core.phases()
            if target.max_phases is not None and len(phases) > target.max_phases * self.step_count:
                steps = f" in {self.step_count} steps" if self.step_count > 1 else ""
                raise VerifyException(
                    f"core {format_coord(coord)} runs {len(phases)} phases, more than "
                    f"{target.name}'s {target.max_phases}{steps}"
                )
            for phase, index, op in core.numbered_instructions():
                verify_accesses(target, core, phase, index, op)
                verify_dataflow(target, core, phase, index, op)
                verify_activation(target, core, phase, index, op)


def verify_accesses(target: HardwareTarget, core: CoreOp, phase: int, index: int, op: Instruction) -> None:
    coord = core.coord
    site = where(coord, phase, index, op)
    if op.COMPUTES and not (tile_type := target.tile_type_at(*coord)).computes:
        raise VerifyException(
            f"{site}: {tile_type.name} tiles do not compute ({target.name} has no MAC array or vector unit there)"
        )
    capacity = local_capacity(target, coord)
    for access in op.local_accesses():
        if access.start < 0 or access.end > capacity:
            raise VerifyException(
                f"{site}: {access.role} bytes [{access.start}, {access.end}) are outside local memory [0, {capacity})"
            )
        alignment = required_alignment(target, access.alignment)
        if access.start % alignment:
            raise VerifyException(
                f"{site}: {access.role} address {access.start} is not a multiple of "
                f"{alignment} ({target.name} {access.alignment} alignment)"
            )
    for access in op.global_accesses():
        if access.end > target.global_memory.capacity_bytes:
            raise VerifyException(
                f"{site}: {access.role} bytes [{access.start}, {access.end}) are outside "
                f"global memory [0, {target.global_memory.capacity_bytes})"
            )


def verify_dataflow(target: HardwareTarget, core: CoreOp, phase: int, index: int, op: Instruction) -> None:
    """A conv's or fc's `dataflow` fits the target's core buffers (`core_dataflow.dataflow_problem`)."""
    if not isinstance(op, ComputeInstruction) or (flow := op.chosen_dataflow()) is None:
        return
    _, _, taps, channels, _ = op.core_work_shape()
    if problem := dataflow_problem(target.core_buffers, flow, taps, channels):
        raise VerifyException(f"{where(core.coord, phase, index, op)}: dataflow {list(flow.clause)}: {problem}")


def verify_activation(target: HardwareTarget, core: CoreOp, phase: int, index: int, op: Instruction) -> None:
    """A fused relu or lut only on a target whose convs apply one (`compute.fused_activation`)."""
    if not isinstance(op, ComputeInstruction) or op.relu is None and op.table is None:
        return
    if not target.compute.fused_activation:
        kind = "relu" if op.relu is not None else "lut"
        raise VerifyException(
            f"{where(core.coord, phase, index, op)}: applies a fused {kind}, but {target.name}'s convs "
            "apply none (compute.fused_activation = false)"
        )


@attrs.frozen
class Endpoint:
    """One side of a NoC transfer, where the program issues it."""

    coord: Coord
    phase: int
    index: int
    op: SendOp | DmaMulticastOp | RecvOp

    def __str__(self) -> str:
        return where(self.coord, self.phase, self.index, self.op)


def verify_transfers(program: ProgramOp, target: HardwareTarget) -> None:
    """Every send (an `isa.send`, or an `isa.dma_multicast` to its other cores) has exactly
    one receive with its tag on each core it names, in the same phase, of the same byte
    count, and naming the sender; every receive has its send."""
    sends: dict[int, Endpoint] = {}
    recvs: dict[tuple[int, Coord], Endpoint] = {}
    for core in program.cores():
        for phase, index, op in core.numbered_instructions():
            if not isinstance(op, SendOp | DmaMulticastOp | RecvOp):
                continue
            endpoint = Endpoint(core.coord, phase, index, op)
            key = (op.tag_value, core.coord) if isinstance(op, RecvOp) else op.tag_value
            side: dict = recvs if isinstance(op, RecvOp) else sends
            if (other := side.get(key)) is not None:
                raise VerifyException(f"{endpoint}: tag {op.tag_value} is already used by {other}")
            for peer in op.peers:
                if peer == core.coord:
                    raise VerifyException(f"{endpoint}: a core does not send to itself")
                if not target.core_exists(*peer):
                    raise VerifyException(f"{endpoint}: peer {format_coord(peer)} is not a core of {target.name}")
            side[key] = endpoint
    received = {tag for tag, _ in recvs}
    for tag, send in sends.items():
        if tag not in received:
            raise VerifyException(f"{send}: no isa.recv takes tag {tag}")
        for destination in send.op.peers:
            if (recv := recvs.get((tag, destination))) is None:
                raise VerifyException(
                    f"{send}: tag {tag} goes to {format_coord(destination)}, where no isa.recv takes it"
                )
            verify_pair(tag, send, recv)
    for (tag, coord), recv in recvs.items():
        if (send := sends.get(tag)) is None:
            raise VerifyException(f"{recv}: no isa.send gives tag {tag}")
        if coord not in send.op.peers:
            raise VerifyException(f"{recv}: tag {tag} goes to {', '.join(map(format_coord, send.op.peers))} ({send})")


def verify_pair(tag: int, send: Endpoint, recv: Endpoint) -> None:
    assert isinstance(recv.op, RecvOp)
    if recv.op.peer_coord != send.coord:
        raise VerifyException(
            f"{send}: tag {tag} goes to {format_coord(recv.coord)}, but its receive "
            f"({recv}) expects it from {format_coord(recv.op.peer_coord)}"
        )
    if send.phase != recv.phase:
        raise VerifyException(f"{send}: tag {tag} is received in phase {recv.phase} ({recv})")
    if send.op.byte_count != recv.op.byte_count:
        raise VerifyException(
            f"{send}: sends {send.op.byte_count} bytes with tag {tag}, but {recv} receives {recv.op.byte_count}"
        )
