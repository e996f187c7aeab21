"""
Split vectors that make every compute block fit one core: for each block whose input
storage (activation buffers, weight, bias, table) exceeds a core's usable local memory,
the split with the fewest pieces whose largest piece fits, preferring splits that keep
the reduction whole (an r-split adds a `task.add` of partial sums, which may need a
split of its own in turn). ResNet-50's first conv, for instance, reads a
224×224×3 image padded to 16 B per pixel (802,816 B) and is split into 7 row bands.
On a many-core target the batch is split first (seed 004 slices N first): into the fewest
sub-batches that fit, or, when one sample does not fit, into its samples, each cut as the
block at batch 1 is, so the pieces grow with the batch, never faster. On a one-core target
the batch stays whole (nn = 1): its samples run on the same core anyway, and
task-layer-group decides the N slices there from what stays live across layers.
On an NC1HWC0 target a piece that loads a network input also needs its two staging areas
(`plan.staging_bytes` of the box it reads), which live beside its input while it loads:
ResNet-50's first conv at batch 8 on tpu-like reads 13 MB of staging through 2 column
pieces, and is cut finer for it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.utils.exceptions import PassFailedException

from stc.compiler.memory.banks import local_memory, packs_in_banks
from stc.compiler.memory.plan import staging_bytes
from stc.compiler.memory.storage_size import bias_bytes, buffer_bytes, weight_bytes
from stc.compiler.progress import progress
from stc.compiler.targets.hardware import HardwareTarget
from stc.compiler.tiling.pieces import (
    AXES,
    UNSPLIT,
    Counts,
    axis_lengths,
    length,
    partial_sum_problem,
    shape_of,
    spatial_pieces,
)
from stc.compiler.tiling.split import GraphBlocks, forget_erased
from stc.dialects import task
from stc.dialects.task.base import element_width, tensor_bytes

MAX_PIECES = 4096
"""The most pieces `fit` splits one block into."""


class PieceSizer:
    """
    The local memory the largest piece of one block needs, for any split vector: the
    block's shapes and widths are read once, the intervals of each axis count once, so
    the many vectors `fit` weighs cost a few integer operations each.
    """

    def __init__(self, op: task.ComputeBlock, target: HardwareTarget):
        self.op = op
        self.target = target
        self.batch: int = op.result.type.get_shape()[0]
        self.input_bits = [element_width(value.type) or 8 for value in op.data_inputs]  # pyright: ignore[reportArgumentType]
        self.kernel = op.weight.type.get_shape()[1:3] if isinstance(op, task.ConvOp | task.FcOp) else None  # pyright: ignore[reportAttributeAccessIssue]
        self.table = isinstance(op, task.LutOp)
        self.bias = op.optional_bias is not None
        self.result_bits = element_width(op.result.type) or 8
        self.reduces = isinstance(op, task.ConvOp | task.FcOp)
        self.channels = (op.result.type.get_shape()[3], shape_of(op.data_inputs[0])[3])
        self.spatial: dict[tuple[int, int], tuple[int, int]] = {}
        self.memory = local_memory(target)
        nc1hwc0 = target.activation_layout.kind == "nc1hwc0"
        self.staged = [
            nc1hwc0 and bits == 8 and loads_network_input(value)
            for value, bits in zip(op.data_inputs, self.input_bits, strict=True)
        ]
        """Per data input: whether its buffer loads a network input through NC1HWC0 staging."""

    def rows(self, axis: int, count: int) -> tuple[int, int]:
        """(read, written) length along y (0) or x (1) of the piece that reads the most."""
        key = (axis, count)
        if key not in self.spatial:
            piece = max(spatial_pieces(self.op, axis, count), key=lambda piece: length(piece.read))
            self.spatial[key] = (length(piece.read), length(piece.out))
        return self.spatial[key]

    def regions(self, counts: Counts) -> list[int]:
        """The regions, in bytes, of the largest piece of the block split by `counts`: its
        input storage (and NC1HWC0 staging of a network input), and its result tile (int32
        partial sums when r is split)."""
        nn, ny, nx, nf, nr = counts
        read_y, out_y = self.rows(0, ny)
        read_x, out_x = self.rows(1, nx)
        n = -(-self.batch // nn)
        f = -(-self.channels[0] // nf)
        r = -(-self.channels[1] // nr) if self.reduces else f
        read = (n, read_y, read_x, r)
        regions = [buffer_bytes(read, bits, self.target) for bits in self.input_bits]
        regions += [staging_bytes(read) for staged in self.staged if staged]
        if self.kernel is not None:
            regions.append(weight_bytes((f, *self.kernel, r), self.target))
        if self.table:
            regions.append(self.target.aligned_bytes("bias", 256))
        if self.bias and nr == 1:
            regions.append(bias_bytes(f, self.target))
        result_bits = 32 if nr > 1 else self.result_bits
        return regions + [buffer_bytes((n, out_y, out_x, f), result_bits, self.target)]

    def bytes(self, counts: Counts) -> int:
        """Bytes of the largest piece of the block split by `counts` (see `piece_bytes`)."""
        return sum(self.regions(counts))

    def fits(self, counts: Counts) -> bool:
        """Whether the largest piece's regions fit a core: in bytes, and in its banks with
        no region that fits in a bank crossing one (`packs_in_banks`)."""
        return packs_in_banks(self.regions(counts), self.memory)


def loads_network_input(value: SSAValue) -> bool:
    """Whether a compute block's input is a buffer that takes a box of a network input."""
    buffer = value.owner
    return isinstance(buffer, task.BufferOp) and any(isinstance(v.owner, task.InputOp) for v in buffer.sources)


def piece_bytes(op: task.ComputeBlock, counts: Counts, target: HardwareTarget) -> int:
    """Local memory the largest piece of `op` split by `counts` needs while it runs: its
    input storage and its result tile (int32 partial sums when r is split)."""
    return PieceSizer(op, target).bytes(counts)


def divisors(n: int, limit: int) -> list[int]:
    """The divisors of `n` that are at most `limit`, ascending."""
    return [d for d in range(1, min(n, limit) + 1) if n % d == 0]


def candidate_counts(op: task.ComputeBlock, pieces: int, nn: int = 1) -> Iterator[Counts]:
    """Every split vector of `op` with `nn` batch pieces, each cut into `pieces` pieces: the
    factorisations of `pieces` into y, x, f and r counts."""
    lengths = axis_lengths(op)
    _, ly, lx, lf, lr = (lengths[axis] or 1 for axis in AXES)
    for ny in divisors(pieces, ly):
        for nx in divisors(pieces // ny, lx):
            for nf in divisors(pieces // (ny * nx), lf):
                nr = pieces // (ny * nx * nf)
                if nr <= lr and (nr == 1 or partial_sum_problem(op, nr) is None):
                    yield nn, ny, nx, nf, nr


def splits_batch(target: HardwareTarget) -> bool:
    """Whether `fit` cuts the batch first on `target`: on many-core targets only."""
    return target.mesh.core_count > 1


def finest_counts(op: task.ComputeBlock, target: HardwareTarget) -> Counts:
    """The split into the smallest pieces `fit` considers: one along every axis (the batch
    only where `fit` splits it), r as far as partial sums allow."""
    lengths = axis_lengths(op)
    ln, ly, lx, lf, lr = (lengths[axis] or 1 for axis in AXES)
    nn = ln if splits_batch(target) else 1
    return nn, ly, lx, lf, lr if lr == 1 or partial_sum_problem(op, lr) is None else 1


def vector_text(counts: Counts) -> str:
    """A vector as task-split's option takes it: ny,nx,nf,nr when the batch stays whole."""
    return ",".join(map(str, counts[1:] if counts[0] == 1 else counts))


def unfit_message(op: task.ComputeBlock, target: HardwareTarget) -> str:
    counts = finest_counts(op, target)
    finest = piece_bytes(op, counts, target)
    where = f"{op.name} {op.task_id}: no split makes its pieces fit {target.usable_memory_bytes} B"
    if finest > target.usable_memory_bytes:
        return f"{where}: even its finest pieces (vector={vector_text(counts)}) read {finest} B"
    sizer = PieceSizer(op, target)
    if not sizer.fits(counts):
        sizes = " + ".join(map(str, sizer.regions(counts)))
        banks = " + ".join(str(high - low) for low, high in sizer.memory.bank_ranges)
        return (
            f"{where}: even its finest pieces (vector={vector_text(counts)}) need {sizes} B, which do not fit banks of "
            f"{banks} B without a region that fits in a bank crossing one"
        )
    return f"{where} in at most {MAX_PIECES} pieces per sub-batch"


def fitting_counts(op: task.ComputeBlock, target: HardwareTarget, sizer: PieceSizer | None = None) -> Counts | None:
    """
    For a block that does not fit a core whole, the split whose largest piece fits, None
    if none does. Where `fit` splits the batch, the batch first: the fewest sub-batches
    that fit; when one sample does not fit, one piece per sample. Then the sub-batch is cut
    into the fewest pieces that fit. Pieces only add halo, replicas and alignment to what
    the whole sub-batch reads (less only the bias an r split moves away), so fewer pieces
    than that total over the capacity cannot fit and the search starts there (at two
    pieces, when it fits by bytes but not in the banks); when even the finest pieces do
    not fit, none do.
    """
    capacity = target.usable_memory_bytes
    sizer = sizer or PieceSizer(op, target)
    if not sizer.fits(finest_counts(op, target)):
        return None
    nn = 1
    if splits_batch(target) and sizer.batch > 1:
        sub_batches = (count for count in range(2, sizer.batch + 1) if sizer.fits((count, 1, 1, 1, 1)))
        if (count := next(sub_batches, None)) is not None:
            return count, 1, 1, 1, 1
        nn = sizer.batch
    whole = sizer.bytes((nn, 1, 1, 1, 1))
    bias = bias_bytes(axis_lengths(op)["f"] or 0, target) if op.optional_bias is not None else 0
    for pieces in range(max(2, -(-(whole - bias) // capacity)), MAX_PIECES + 1):
        fits = [
            (counts[4] > 1, sum(regions), counts)
            for counts in candidate_counts(op, pieces, nn)
            if packs_in_banks(regions := sizer.regions(counts), sizer.memory)
        ]
        if fits:
            return min(fits)[2]
    return None


def reduction_counts(op: task.ComputeBlock, target: HardwareTarget) -> Counts | None:
    """
    For a conv or fc whose finest pieces with the reduction whole do not fit a core (on
    tianjicx a 3×3×512→512 conv: even 32 output channels hold 32 B in each of 4,608 weight
    rows, 147,456 B), or whose weights spread over all the target's cores would take more
    than half of each (on set-8x8 VGG-19's fc110: 102,760,448 B, 1.6 MB a core): its
    reduction alone split into the fewest pieces (`1,1,1,1,nr`) whose finest pieces fit and
    whose weights leave half of every core free, so that they can run one after another.
    None when the block needs no r split or no r split makes it fit.
    """
    if not isinstance(op, task.ConvOp | task.FcOp):
        return None
    sizer = PieceSizer(op, target)
    nn, ny, nx, nf, _ = finest_counts(op, target)
    spread = tensor_bytes(op.weight.type) / target.mesh.core_count
    if sizer.fits((nn, ny, nx, nf, 1)) and spread <= target.usable_memory_bytes / 2:
        return None
    for nr in range(2, (axis_lengths(op)["r"] or 1) + 1):
        fits_mesh = spread / nr <= target.usable_memory_bytes / 2
        if partial_sum_problem(op, nr) is None and sizer.fits((nn, ny, nx, nf, nr)) and fits_mesh:
            return 1, 1, 1, 1, nr
    return None


def split_reductions(graph: task.GraphOp, target: HardwareTarget) -> list[tuple[int, Counts]]:
    """Split the reduction of every block of `graph` that `reduction_counts` names, so that
    a search which cuts blocks only along batch, rows, columns and output channels finds
    pieces that fit; the (block, vector) splits made, in order."""
    blocks = GraphBlocks(graph)
    for op in [op for op in graph.tasks() if isinstance(op, task.ComputeBlock)]:
        if (counts := reduction_counts(op, target)) is not None:
            blocks.split(op.task_id, counts)
    return [(split.task_id, split.counts) for split in blocks.splits]


def fit_splits(graph: task.GraphOp, target: HardwareTarget) -> list[tuple[int, Counts]]:
    """Split every block of `graph` that does not fit a core, then the blocks those splits
    create, until all fit; return the (block, vector) splits made, in order."""
    blocks = GraphBlocks(graph)
    split_until_fit(blocks, target)
    return [(split.task_id, split.counts) for split in blocks.splits]


def split_until_fit(blocks: GraphBlocks, target: HardwareTarget) -> None:
    """
    Split the blocks of a graph that do not fit a core, in graph order, then the blocks
    those splits create, in order. Each block is checked once, so the cost is linear in the
    graph and what the splits create.
    """
    pending = deque(op for op in blocks.graph.tasks() if isinstance(op, task.ComputeBlock))
    with progress("task-split: fit", total=len(pending)) as bar:
        while pending:
            op = pending.popleft()
            bar.advance()
            sizer = PieceSizer(op, target)
            if sizer.fits(UNSPLIT):
                continue
            counts = fitting_counts(op, target, sizer)
            if counts is None:
                raise PassFailedException(unfit_message(op, target))
            created = [blocks.by_id[task_id] for task_id in blocks.split(op.task_id, counts).created]
            compute = [block for block in created if isinstance(block, task.ComputeBlock)]
            bar.add_total(len(compute))
            pending.extend(compute)


def split_module_to_fit(module: ModuleOp, target: HardwareTarget) -> None:
    """Split every task graph of the module until each block fits one core of `target`."""
    for graph in [op for op in module.ops if isinstance(op, task.GraphOp)]:
        blocks = GraphBlocks(graph)
        split_until_fit(blocks, target)
        forget_erased(blocks)
