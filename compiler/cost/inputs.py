"""
Where a producer runs (`Placed`) and the input box each core of a layer reads from one
source (`needed_input`), with its bytes and its local-memory bytes per core, cached.

    volume = needed_volume(layer, batch=8, part=Partition(8, 2, 1, 1), source=layer.sources[0])
"""

from __future__ import annotations

import functools

import numpy as np
from attrs import frozen

from stc.compiler.cost.network import Layer, Source
from stc.compiler.cost.partition import Partition, Pieces, box_volume, input_span, pieces
from stc.compiler.cost.storage import activation_storage
from stc.compiler.targets.components import Alignment


@frozen(cache_hash=True)
class Placed:
    """Where a producer runs: its layer, first core, partition and (sub)batch; `kept`: in
    an earlier segment, its result kept on its cores until the consumer's phase
    (`cost/kept.py`)."""

    layer: Layer
    start: int
    part: Partition
    batch: int
    kept: bool = False


@frozen
class Needed:
    """Per core: the input box it reads from one source."""

    b: tuple[np.ndarray, np.ndarray]
    rows: tuple[np.ndarray, np.ndarray]
    cols: tuple[np.ndarray, np.ndarray]
    channels: tuple[np.ndarray, np.ndarray]
    """In the layer's input channels."""

    @property
    def volume(self) -> np.ndarray:
        return box_volume(self.b, self.rows, self.cols, self.channels)


def needed_input(layer: Layer, box: Pieces, offset: int, channels: int) -> Needed:
    rows = input_span(*box.h, layer.stride[0], layer.pad[0], layer.kernel[0], layer.in_hw[0])
    cols = input_span(*box.w, layer.stride[1], layer.pad[1], layer.kernel[1], layer.in_hw[1])
    lo, hi = box.k if layer.channelwise else (np.zeros_like(box.k[0]), np.full_like(box.k[1], layer.in_channels))
    channel_span = (np.maximum(lo, offset), np.minimum(hi, offset + channels))
    return Needed(box.b, rows, cols, channel_span)


@functools.lru_cache(maxsize=1 << 14)
def needed_volume(layer: Layer, batch: int, part: Partition, source: Source) -> np.ndarray:
    """Per core, the bytes of its input box from one source (cached: do not write to it)."""
    return needed_input(layer, pieces(layer, batch, part), source.channel_offset, source.channels).volume


@functools.lru_cache(maxsize=1 << 14)
def needed_storage(layer: Layer, batch: int, part: Partition, source: Source, alignment: Alignment) -> np.ndarray:
    """Per core, the local-memory bytes of its input buffer from one source (cached)."""
    need = needed_input(layer, pieces(layer, batch, part), source.channel_offset, source.channels)
    rows = box_volume(need.b, need.rows, need.cols)
    channels = np.maximum(need.channels[1] - need.channels[0], 0)
    return activation_storage(rows, channels, source.element_bytes, alignment)
