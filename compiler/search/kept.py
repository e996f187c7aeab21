"""
The step of st-search's lowering (`lowering.Lowering`) that keeps results on chip across
segments, as the cost model prices them (`Estimate.kept`, `cost/kept.py`): each piece of a
kept layer whose result a buffer first held in a later phase takes is marked `st.keep` (one
`st.keep` action, which a script written with `script=` carries), where its core holds the
result over every phase up to the last such buffer's first one (what st-apply counts there,
the results computed there and what this step and `store_late` add). isa-lower then sends
or copies it to those buffers in their first phase, instead of storing it to global memory
and loading it back; elsewhere the piece goes through global memory (valid, and dearer than
the estimate).
"""

from __future__ import annotations

from collections import defaultdict

from stc.compiler.search.beside import BesideCompute, Space
from stc.dialects import task
from stc.dialects.st import KeepOp
from stc.dialects.task.base import tensor_bytes


class KeptResults(BesideCompute):
    """`keep_results`: the lowering's `st.keep` marks."""

    kept: frozenset[int]
    """The layers whose results the model keeps on chip for later segments."""
    extra: dict[tuple[Space, int, int], int]
    """Per (core, step, phase): bytes of results held there beyond what st-apply counts
    (kept and late-stored results)."""

    def keep_results(self) -> None:
        """Mark `st.keep` the pieces of kept layers (one `st.keep` action, module docstring)."""
        if not self.kept:
            return
        matrix = self.executor.matrix
        marked: list[int] = []
        made: dict[tuple[Space, int, int], int] = defaultdict(int)
        for block_id, (step, phase) in self.time.items():
            made[(self.core[block_id], step, phase)] += tensor_bytes(matrix.blocks[block_id].results[0].type)  # pyright: ignore[reportArgumentType]
        for (layer, _, step), runs in self.runs_on.items():
            if layer not in self.kept:
                continue
            for phase, blocks in runs:
                for block in (matrix.blocks[i] for i in blocks):
                    readers = [use.operation for use in block.results[0].uses]
                    held = [matrix.places[r.task_id] for r in readers if isinstance(r, task.BufferOp)]
                    later = [place.phase for place in held if (place.step, place.phase) > (step, phase)]
                    if not later or any(place.step != step for place in held):
                        continue
                    space = self.core[block.task_id]
                    size = tensor_bytes(block.results[0].type)  # pyright: ignore[reportArgumentType]
                    phases = range(phase + 1, max(later) + 1)
                    keys = [(space, step, t) for t in phases]
                    limit = matrix.mesh.capacity(space) - size
                    if any(matrix.used_bytes(*key) + made[key] + self.extra[key] > limit for key in keys):
                        continue
                    for key in keys:
                        self.extra[key] += size
                    marked.append(block.task_id)
        if marked:
            self.act(KeepOp(marked))
