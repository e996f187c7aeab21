"""
An RA tree as an `st` action script: the splits and placements that run the searched
schedule on the machine, which `st-apply`, `st-route`, `st-lmem-alloc` and `isa-lower` take
as any mapping.

1. **Splits.** Each layer's blocks (its main block and the relu/lut fused into it) are split
   together by nn = (batch / leaf batch)·pb, ny = ph, nx = pw, nf = pk: one piece per core
   and subbatch of the partition the cost model chose (`CostModel.layout`).
2. **Time.** The tree is unrolled into slots (`cost.schedule.unroll`); slot t is step
   t // max_phases, phase t % max_phases. Piece (b, h, w, k) of a run goes to the core of
   piece ((b mod pb)·ph + h)·pw + w)·pk + k of its leaf's core range (`MeshModel.piece_cores`:
   the snake order, or row by row where the pieces fill whole rows), as the model prices it.
3. **Puts.** Every piece is put with `put_group_in` at its core and phase (the main block at
   its stage, fused blocks at the next free compute stage of that core and phase), so its
   input buffers sit beside it. Buffers no block reads (outputs) go on the core of their
   last producer (in the phase after it where the output is larger than a core: the pieces
   store their boxes straight into it, as the model prices them, and the buffer holds
   nothing); network inputs and outputs on the core of their first or last buffer, at a
   free router stage.
4. **Resident weights.** The pieces of a layer that run on one core in one step, one per
   subbatch, read one set of weight, bias and table blocks (`st.share_data`), held from the
   first piece's phase to the last one's, so the machine loads them once, as the model
   counts them. Where the core's memory cannot hold them over the phases between, each
   piece keeps its own copy, loaded in its own phase (always valid).
5. **On-chip tensors.** Where the model keeps a tensor on chip (producer and consumer in one
   segment), the consumer's buffer is also held from its first producer's phase on, when
   that is in the same step and the core's memory allows; otherwise the machine passes it
   through global memory, which is always valid.
6. **Early inputs.** On a target whose DMA overlaps compute, the buffers that load from
   global memory of each layer whose input boxes the model loads k slots early are held
   from k phases before each of its runs, where the core's memory allows, so that they
   load beside the compute of that phase.
7. **Prefetched weights.** On a target whose DMA overlaps compute, the weight, bias and
   table blocks of the first run of each layer the model prefetches k slots early are also
   held in the k phases before, where the core's memory allows, so that they load beside
   the compute of the first of them.

8. **Kept results.** The pieces of each layer whose result the model keeps on chip for a
   later segment (`Estimate.kept`) are marked `st.keep` where their core holds the result
   until the consumer's phase as st-lmem-alloc lays the mapping out (`kept.KeptResults`:
   its memory plan, so the inputs and outputs are put first): isa-lower sends it from there.
9. **Stores late.** On a target whose DMA overlaps compute, the pieces of each layer the
   model stores k slots late (`NodeCost.late_stores`) whose result is stored to global
   memory are stored k phases late (one `st.store_late` action per k), in each run whose
   phase k after is in the same step and segment, no buffer loads the result in the k
   phases after and the core's memory holds it in them too: isa-lower stores it then,
   beside that phase's compute.

A piece that would run before a piece it reads from is an error, never a wrong program.

    script = lower_tree(graph, "tianjicx", model, tree)   # an st.mapping op, applied to graph
"""

from __future__ import annotations

import math
from collections import defaultdict

from xdsl.ir import Operation
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.layer_cost import stores_output_directly
from stc.compiler.cost.schedule import unroll
from stc.compiler.cost.tree import Node
from stc.compiler.diagnostics import StcError
from stc.compiler.mapping.actions import ActionExecutor
from stc.compiler.mapping.block_stages import allowed_stages, input_storage
from stc.compiler.search.beside import Space, producers
from stc.compiler.search.kept import KeptResults
from stc.compiler.tiling.pieces import average_split
from stc.dialects import task
from stc.dialects.st import (
    COMPUTE_STAGES,
    CoordAttr,
    MappingOp,
    PutGroupInOp,
    PutInOp,
    ShareDataOp,
    SplitGroupOp,
    Stage,
    TakeOutOp,
)
from stc.dialects.task.base import tensor_bytes


class Lowering(KeptResults):
    """Builds the script by running each action on the graph with st-apply's executor (so
    every action is checked as st-apply checks it, and the graph ends mapped)."""

    def __init__(self, graph: task.GraphOp, target_name: str, model: CostModel):
        self.graph = graph
        self.target = model.target
        self.target_name = target_name
        self.model = model
        self.executor = ActionExecutor(self.graph, self.target)
        self.actions: list[Operation] = []
        self.time: dict[int, tuple[int, int]] = {}
        """(step, phase) of every compute block placed."""
        self.core: dict[int, Space] = {}
        self.stages: dict[tuple[Space, int, int], set[Stage]] = defaultdict(set)
        self.layer_of: dict[int, int] = {}
        """The layer of every compute piece and of every buffer a piece reads."""
        self.runs_on: dict[tuple[int, int, int], list[tuple[int, list[int]]]] = defaultdict(list)
        """(layer, core, step): the (phase, blocks) of each of the layer's runs there, in order."""
        self.first_run: dict[int, tuple[int, int]] = {}
        """(step, phase) of each layer's first run."""
        self.segment_at: dict[int, int] = {}
        """The segment (`CostModel.segments`) that runs in each slot."""
        self.extra: dict[tuple[Space, int, int], int] = defaultdict(int)

    # --- Splits -------------------------------------------------------------------------

    def split(self) -> dict[tuple[int, int], list[tuple[int, list[int]]]]:
        """Split every layer; per (layer, subbatch) its pieces as (core, block ids)."""
        network = self.model.network
        layout = self.model.layout(self.tree)
        pieces: dict[tuple[int, int], list[tuple[int, list[int]]]] = defaultdict(list)
        for index, layer in enumerate(network.layers):
            place, part = layout[index]
            nn = network.batch // place.batch * part.pb
            grid = (nn, part.ph, part.pw, part.pk)
            blocks = list(layer.block_ids)
            total = math.prod(grid)
            if total == 1:
                pieces[(index, 0)].append((place.start, blocks))
                continue
            created = self.act(SplitGroupOp(blocks, [[*grid, 1]]))
            by_id = self.executor.matrix.blocks
            compute = [i for i in created if isinstance(by_id.get(i), task.ComputeBlock)]
            assert len(compute) == total * len(blocks), (layer.name, len(compute), total)
            per_block = [compute[j * total : (j + 1) * total] for j in range(len(blocks))]
            images = average_split(network.batch, nn)
            inner = part.ph * part.pw * part.pk
            cores = self.model.context.mesh.piece_cores(place.start, part.cores)
            for q in range(total):
                bn, rest = divmod(q, inner)
                iteration = (images[bn][1] - 1) // place.batch
                core = int(cores[(bn % part.pb) * inner + rest])
                pieces[(index, iteration)].append((core, [ids[q] for ids in per_block]))
        return pieces

    # --- Puts ---------------------------------------------------------------------------

    def free_stage(self, block: task.TaskOp, space: Space, slot: int) -> Stage:
        step, phase = self.step_phase(slot)
        used = self.stages[(space, step, phase)]
        for stage in allowed_stages(block):
            if stage not in used:
                used.add(stage)
                return stage
        taken = ", ".join(sorted(s.value for s in used if s in COMPUTE_STAGES))
        raise StcError(
            f"st-search: block {block.task_id} ({block.name}) finds no free stage on core {space} in step "
            f"{step}, phase {phase} (taken: {taken}); a layer fuses more blocks than a core has compute stages"
        )

    def put_pieces(self, pieces: dict[tuple[int, int], list[tuple[int, list[int]]]]) -> None:
        by_id = self.executor.matrix.blocks
        segment_of = self.model.segment_of(self.tree)
        for run in unroll(self.model, self.tree):
            self.segment_at[run.slot] = segment_of[run.layer][0]
            for core, blocks in pieces[(run.layer, run.iteration)]:
                y, x = self.model.context.mesh.order[core]
                space = (0, 0, y, x)
                for block_id in blocks:
                    block = by_id[block_id]
                    self.check_order(block, run.slot)
                    stage = self.free_stage(block, space, run.slot)
                    self.act(PutGroupInOp(block_id, self.coord(core, run.slot, stage)))
                    self.time[block_id] = self.step_phase(run.slot)
                    self.core[block_id] = space
                    for storage in [block, *input_storage(block)]:  # pyright: ignore[reportArgumentType]
                        self.layer_of[storage.task_id] = run.layer
                step, phase = self.step_phase(run.slot)
                self.runs_on[(run.layer, core, step)].append((phase, blocks))
                self.first_run.setdefault(run.layer, (step, phase))

    def share_weights(self) -> None:
        """Make the runs of a layer on one core and step read the first run's data blocks,
        held from its phase to the last run's, where the core's memory allows."""
        by_id = self.executor.matrix.blocks
        for (_, core, step), runs in self.runs_on.items():
            if len(runs) < 2:
                continue
            for position in range(len(runs[0][1])):
                blocks = [by_id[run[1][position]] for run in runs]
                data = [[op for op in input_storage(block) if isinstance(op, task.DataOp)] for block in blocks]  # pyright: ignore[reportArgumentType]
                phases = [phase for phase, _ in runs]
                if data[0] and self.room_between(core, step, phases, data[0]):
                    self.share(core, step, phases, blocks, data)

    def room_between(self, core: int, step: int, phases: list[int], data: list[task.DataOp]) -> bool:
        """Whether the core's memory holds the data blocks in every phase between the runs."""
        matrix = self.executor.matrix
        y, x = self.model.context.mesh.order[core]
        use = matrix.memory.get(((0, 0, y, x), step))
        limit = matrix.mesh.capacity((0, 0, y, x)) - sum(matrix.sizes[op.task_id] for op in data)
        gaps = [(a + 1, b - 1) for a, b in zip(phases, phases[1:], strict=False) if b > a + 1]
        return use is not None and all(use.first_above(first, last, limit) is None for first, last in gaps)

    def share(
        self, core: int, step: int, phases: list[int], blocks: list[task.TaskOp], data: list[list[task.DataOp]]
    ) -> None:
        slot = self.slot(step, 0)
        for phase, copies in zip(phases[1:], data[1:], strict=True):
            for copy in copies:
                self.act(TakeOutOp(self.coord(core, slot + phase, Stage.MEMORY), copy.task_id))
        self.act(ShareDataOp([block.task_id for block in blocks]))
        start, end = (self.coord(core, slot + phase, Stage.MEMORY) for phase in (phases[0] + 1, phases[-1]))
        for op in data[0]:
            self.act(PutInOp(op.task_id, start, end if phases[-1] > phases[0] + 1 else None))

    def check_order(self, block: task.TaskOp, slot: int) -> None:
        here = self.step_phase(slot)
        for storage in input_storage(block):  # pyright: ignore[reportArgumentType]
            for producer in producers(storage):
                if producer.task_id not in self.time:
                    continue
                if self.time[producer.task_id] > here:
                    raise StcError(
                        f"st-search: block {block.task_id} ({block.name}) would run in step {here[0]}, phase "
                        f"{here[1]}, before block {producer.task_id} it reads from (step "
                        f"{self.time[producer.task_id][0]}, phase {self.time[producer.task_id][1]})"
                    )

    def put_unread(self) -> None:
        """Buffers no compute block reads (network outputs) go with their last producer: in
        its phase, or, where the model has the pieces store their boxes straight into the
        output (`stores_output_directly`: larger than a core), in the phase after it, where
        the buffer holds nothing (`MemoryPlan.direct_outputs`)."""
        for op in self.graph.tasks():
            if not isinstance(op, task.BufferOp) or op.task_id in self.executor.matrix.places:
                continue
            made = [p.task_id for p in producers(op) if p.task_id in self.time]
            if not made:
                continue
            last = max(made, key=self.slot_of)
            core = self.model.context.mesh.index[self.core[last][2:]]
            slot = self.slot_of(last) + int(self.stores_directly(op))
            self.act(PutInOp(op.task_id, self.coord(core, slot, Stage.MEMORY)))

    def stores_directly(self, buffer: task.BufferOp) -> bool:
        return stores_output_directly(self.target, tensor_bytes(buffer.result.type))

    def hold_on_chip(self) -> None:
        """Hold each buffer of a segment's on-chip tensor from its first producer's phase in
        the same step (producers of earlier steps spill)."""
        segment_of = self.model.segment_of(self.tree)
        places = self.executor.matrix.places
        for op in self.graph.tasks():
            place = places.get(op.task_id)
            if not isinstance(op, task.BufferOp) or place is None:
                continue
            reader = self.layer_of.get(op.task_id)
            if reader is None and self.stores_directly(op):
                continue  # its producers store their boxes straight into the output (put_unread)
            made = [p for p in producers(op) if p.task_id in self.time and self.time[p.task_id][0] == place.step]
            if reader is not None and all(segment_of[self.layer_of[p.task_id]] != segment_of[reader] for p in made):
                continue
            first = min((self.time[p.task_id][1] for p in made), default=place.phase)
            if first >= place.phase:
                continue
            core = self.model.context.mesh.index[place.space[2:]]
            slot = self.slot(place.step, 0)
            try:
                start, end = (self.coord(core, slot + p, Stage.MEMORY) for p in (first, place.phase - 1))
                self.act(PutInOp(op.task_id, start, end if first < place.phase - 1 else None))
            except PassFailedException:
                continue

    def put_io(self) -> None:
        """Each network input on the core of its first buffer, each output on its buffer's."""
        places = self.executor.matrix.places
        readers: dict[int, list] = defaultdict(list)
        for op in self.graph.tasks():
            if isinstance(op, task.BufferOp) and op.task_id in places:
                for source in op.sources:
                    if isinstance(source.owner, task.InputOp):
                        readers[source.owner.task_id].append(places[op.task_id])
        for op in self.graph.tasks():
            if isinstance(op, task.InputOp) and readers[op.task_id]:
                first = min(readers[op.task_id], key=lambda p: (p.step, p.phase))
                self.put_router(op, first.space, first.step, first.phase)
            elif isinstance(op, task.OutputOp) and (buffer := op.source.owner).task_id in places:  # pyright: ignore[reportAttributeAccessIssue]
                place = places[buffer.task_id]  # pyright: ignore[reportAttributeAccessIssue]
                self.put_router(op, place.space, place.step, place.last_phase)

    def put_router(self, op: task.TaskOp, space: Space, step: int, phase: int) -> None:
        order = self.model.context.mesh.order
        start = self.model.context.mesh.index[space[2:]]
        stage = allowed_stages(op)[0]
        for offset in range(len(order)):
            y, x = order[(start + offset) % len(order)]
            if stage not in self.stages[((0, 0, y, x), step, phase)]:
                self.stages[((0, 0, y, x), step, phase)].add(stage)
                self.act(PutInOp(op.task_id, CoordAttr((0, 0, y, x), step, phase, stage)))
                return
        raise StcError(f"st-search: no core has its {stage.value} stage free for block {op.task_id} in phase {phase}")

    def lower(self, tree: Node) -> MappingOp:
        self.tree = tree
        estimate = self.model.evaluate(tree)
        self.cost, self.kept = estimate.cost, estimate.kept
        try:
            self.put_pieces(self.split())
            self.share_weights()
            self.put_unread()
            self.hold_on_chip()
            self.prefetch_inputs()
            self.prefetch_data()
            self.put_io()  # every block placed: keep_results reads the memory plan
            self.keep_results()
            self.store_late()
            self.executor.finish()
        except PassFailedException as error:
            raise StcError(f"st-search: the searched schedule cannot be mapped: {error}") from None
        return MappingOp(self.graph.graph_name, self.target_name, self.actions)


def lower_tree(graph: task.GraphOp, target_name: str, model: CostModel, tree: Node) -> MappingOp:
    """The script of the module docstring, as an `st.mapping` of the graph, which it has
    run on the graph (mark it applied once it is in the module; on an error the graph is
    left half mapped)."""
    return Lowering(graph, target_name, model).lower(tree)
