"""A priced tree's energy outside the cores leaf by leaf (tools/energy_parts.py)."""

import pytest
from test_cost_layer import TARGET, conv

from stc.compiler.cost.evaluate import CostModel
from stc.compiler.cost.network import NETWORK_INPUT, Network
from stc.compiler.cost.node_cost import total
from stc.compiler.cost.tree import Node
from stc.compiler.targets.cost_units import Work
from stc.tools.energy_parts import OUTSIDE, boundary_rows, cause_rows, causes, floor, leaf_works, outside, parts_rows

NETWORK = Network("n", 2, (conv("a", NETWORK_INPUT, filters=8), conv("b", 0, kernel=3, pad=1)))


def test_a_layer_s_floor_reads_and_writes_as_its_blocks_do_and_loads_once():
    """Layer a at batch 2 (a 1×1 conv, 8 → 8 channels on 4×4, 2 vector bytes per output):
    256 outputs; it reads its 256 input bytes, streams 2 bytes per output (512) and reads
    its 96 weight and bias bytes (864), writes its 256 output bytes and the 256 input
    bytes its DMA loads (512), and reads the weights and the network input from DRAM once
    (352). Layer b (8 → 16, 3×3) reads no DRAM but its 8·9·16 + 64 = 1,216 weight bytes."""
    model = CostModel(NETWORK, TARGET)
    assert floor(model, NETWORK.layers[0]) == Work(local_read_bytes=864, local_write_bytes=512, dram_read_bytes=352)
    assert floor(model, NETWORK.layers[1]).dram_read_bytes == 1_216


def test_the_leaves_work_sums_to_the_estimate_s():
    """Two trees of the two layers (one segment of 2 subbatches; two segments through
    DRAM, or with a's result kept on chip): the leaves' work and weights' loading add up to
    the estimate's, and the rows' sum says so."""
    for model, tree in (
        (CostModel(NETWORK, TARGET), Node.cut("T", [Node.leaf(0), Node.leaf(1)], n=2)),
        (CostModel(NETWORK, TARGET, keep=False), Node.cut("T", [Node.cut("T", [Node.leaf(0)], n=2), Node.leaf(1)])),
        (CostModel(NETWORK, TARGET), Node.cut("T", [Node.cut("T", [Node.leaf(0)], n=2), Node.leaf(1)])),
    ):
        works = leaf_works(model, tree)
        estimate = model.evaluate(tree)
        assert estimate.cost is not None
        assert total([work + weights for _, work, weights in works.values()]) == estimate.cost.total_work
        last = parts_rows(model, tree)[-1]
        priced = last.split("outside the cores ")[1].split(" pJ")[0]
        assert f"the estimate's {priced})" in last


def test_a_tensor_handed_on_chip_stores_and_loads_nothing_from_dram():
    """Two segments, a then b (each on all 64 cores at batch 2: a (1, 4, 3, 4), b (2, 16,
    1, 2)). Handed on chip, a stores none of its 2·4·4·8 = 256 output bytes (15,360 pJ of
    DRAM at 60 pJ/B, and the store's 256 local bytes read, 269.824 pJ at 1.054) and b
    loads none of its four distinct input boxes, an image's 4 rows × 3 columns (with the
    halo) × 8 channels = 96 B each (23,040 pJ); its cores take them from a's over the NoC
    instead. The rows' savings add up to the last line's. (The model without keeping
    tensors on chip across segments, `kept.py`, which would keep this one.)"""
    model = CostModel(NETWORK, TARGET, keep=False)
    tree = Node.cut("T", [Node.leaf(0), Node.leaf(1)])
    located, segment_of = model.layout(tree), model.segment_of(tree)
    assert [part.counts for _, part in located.values()] == [(1, 4, 3, 4), (2, 16, 1, 2)]
    kept = [outside(model, located, segment_of, layer, ()) for layer in (0, 1)]
    handed = [outside(model, located, segment_of, layer, (0, 1)) for layer in (0, 1)]
    assert [k["dram"] - h["dram"] for k, h in zip(kept, handed, strict=True)] == [15_360, 23_040]
    assert kept[0]["local_memory"] - handed[0]["local_memory"] == pytest.approx(269.824)
    saved = sum(k[name] - h[name] for k, h in zip(kept, handed, strict=True) for name in OUTSIDE)
    assert f"every tensor handed: {saved:.3e} pJ saved" in boundary_rows(model, tree)[-1]


def test_local_memory_above_the_floor_by_cause():
    """Layer a under `T 2/2`, on (1, 4, 3, 4) of 64 cores at one image a run: its 96 weight
    bytes (8 × 8 + 4 × 8 of bias) in 4 slices of 24 B, each slice on the 12 cores of its
    pb·ph·pw copies, 1,152 B loaded and read by each of the 2 runs, 2,304 B: 2,208 above
    reading them once; its 1×1 input, 128 B an image, read whole by the 4 cores of each
    channel split in each run, 1,024 B: 768 above the 256 of two images. For each leaf the
    causes and the floor add up to its local bytes (b reads its weights 6,080 B above once)."""
    model = CostModel(NETWORK, TARGET)
    tree = Node.cut("T", [Node.leaf(0), Node.leaf(1)], n=2)
    located = model.layout(tree)
    assert located[0][1].counts == (1, 4, 3, 4)
    for layer, (_, work, weights) in leaf_works(model, tree).items():
        place, part = located[layer]
        parts = causes(model, layer, part, place.batch, work, weights)
        if layer == 0:
            assert (parts["weights"], parts["inputs"]) == (2_208, 768)
        least = floor(model, NETWORK.layers[layer])
        assert least.local_read_bytes + parts["weights"] + parts["inputs"] + parts["sent"] == work.local_read_bytes
        assert least.local_write_bytes + parts["received"] == work.local_write_bytes + weights.local_write_bytes
    assert cause_rows(model, tree)[-1].startswith("  above the floor: weights 8.736e+03")  # 8,288 B at 1.054
