"""Tensors kept on chip across segments (`cost/kept.py`): priced by hand, and chosen only
where every segment still fits with what it holds."""

import attrs
import numpy as np
from test_cost_layer import TARGET, conv

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.kept import boundary_producers, held_bytes
from stc.compiler.cost.network import NETWORK_INPUT, Network
from stc.compiler.cost.tree import Node

NETWORK = Network("n", 2, (conv("a", NETWORK_INPUT, filters=8), conv("b", 0, kernel=3, pad=1)))
TREE = Node.cut("T", [Node.cut("T", [Node.leaf(0)], n=2), Node.leaf(1)])
"""a in a segment of 2 subbatches (one image each), then b on both images."""


def test_a_kept_result_is_stored_nowhere_and_held_on_its_cores_until_its_consumer():
    """a's result, 2 images × 4 × 4 × 8 = 256 B, crosses into b's segment. Through DRAM a
    stores all of it (256 B written); kept, nothing (0 B), and b's cores take their boxes
    over the NoC. a runs on 48 cores at (1, 4, 3, 4): a piece is 1 row × 2 or 1 columns ×
    2 channels, 4 or 2 B a run, and each core holds both runs' pieces, 8 or 4 B, in both
    segments: 256 B over the 48 cores, a's whole result. Cheaper, and it fits: kept."""
    stored = CostModel(NETWORK, TARGET, keep=False).evaluate(TREE)
    model = CostModel(NETWORK, TARGET)
    kept = model.evaluate(TREE)
    assert stored.cost is not None
    assert kept.cost is not None
    assert boundary_producers(NETWORK, model.segments(TREE)) == [0]
    assert (stored.kept, kept.kept) == (frozenset(), frozenset({0}))
    assert (stored.cost.work.dram_write_bytes, kept.cost.work.dram_write_bytes) == (256, 0)
    located = model.layout(TREE)
    assert located[0][1].counts == (1, 4, 3, 4)
    held = held_bytes(NETWORK, model.segments(TREE), located, kept.kept, model.context.mesh, TARGET)
    for segment in held:
        assert segment.sum() == 256
        assert (segment > 0).sum() == 48
        assert set(np.unique(segment[segment > 0])) == {4.0, 8.0}
    assert model.objective(kept.energy, kept.latency) < model.objective(stored.energy, stored.latency)


def test_a_result_is_kept_only_where_every_segment_it_spans_still_fits():
    """With buffers no larger than the tree's peak through DRAM, a's result held on top,
    4 or 8 B on each of 48 cores, overflows some core of a segment: through DRAM."""
    peak = int(CostModel(NETWORK, TARGET, keep=False).evaluate(TREE).cost.buffer_peak())  # pyright: ignore[reportOptionalMemberAccess]
    local = attrs.evolve(TARGET.local_memory, capacity_bytes=peak, banks=())
    tight = attrs.evolve(TARGET, local_memory=local)
    estimate = CostModel(NETWORK, tight).evaluate(TREE)
    assert estimate.valid
    assert estimate.kept == frozenset()
