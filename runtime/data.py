"""Materialises the data references of weight, bias and table blocks (`Block.data`) as numpy arrays."""

from __future__ import annotations

import math
import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from stc.compiler.diagnostics import StcError
from stc.compiler.references import referenced_file
from stc.runtime.blocks import Block
from stc.runtime.kernels.quantize import DTYPES

RANDOM_SOURCES = {8: np.dtype("<i1"), 32: np.dtype("<i2")}
"""Per element width, the type whose whole range `#task.random` data covers uniformly:
int8 data is raw generator bytes, int32 data raw 16-bit words widened."""


def random_tensor(seed: int, shape: tuple[int, ...], source: np.dtype) -> np.ndarray:
    """
    Uniform values over the whole range of `source`, straight from the raw 64-bit words
    of a PCG64 generator seeded with `seed` (read little-endian, so the same on every host).

    >>> random_tensor(7, (2, 3), np.dtype("<i1")).shape
    (2, 3)
    """
    count = math.prod(shape)
    words = -(-count * source.itemsize // 8)
    raw = np.random.default_rng(seed).bit_generator.random_raw(words).astype("<u8", copy=False)
    return raw.view(source)[:count].reshape(shape)


class DataStore:
    """
    Loads each referenced tensor once per run (pieces of a split layer share their
    reference) and hands out the box each block holds.
    """

    def __init__(self, base_dir: Path | None = None, data_dirs: Sequence[Path] = ()):
        self.roots = (base_dir or Path.cwd(), *data_dirs)
        """Where `#task.npz` archives may be: the IR file's directory, then each data directory."""
        self._tensors: dict[tuple[object, ...], np.ndarray] = {}

    def block(self, block: Block) -> np.ndarray:
        """The data a block holds: its box of the referenced tensor."""
        box = block.box if block.box is not None else tuple((0, n) for n in block.full_shape)
        return self.tensor(block)[tuple(slice(lo, hi) for lo, hi in box)]

    def tensor(self, block: Block) -> np.ndarray:
        key = (block.data, block.full_shape, block.width)
        if (tensor := self._tensors.get(key)) is None:
            tensor = self._load(block)
            self._tensors[key] = tensor
        return tensor

    def _load(self, block: Block) -> np.ndarray:
        dtype, shape = DTYPES[block.width], block.full_shape
        kind, value = block.data
        if kind == "random":
            assert isinstance(value, int)
            return random_tensor(value, shape, RANDOM_SOURCES[block.width]).astype(dtype)
        if kind == "dense":
            return np.array(value, dtype=dtype).reshape(shape)
        path, key = value  # pyright: ignore[reportGeneralTypeIssues]
        return self._load_npz(f"{block.name} {block.id}", path, key, dtype, shape)

    def _load_npz(self, where: str, reference: str, key: str, dtype: type, shape: tuple[int, ...]) -> np.ndarray:
        path = referenced_file(reference, f"{where}: npz file", self.roots)
        if not path.is_file():
            raise StcError(f"{where}: npz file {str(path)!r} does not exist")
        array = read_npz_array(path, key, where)
        if array.shape != shape:
            raise StcError(f"{where}: {key!r} has shape {list(array.shape)}, expected {list(shape)}")
        if array.dtype.kind not in "iu":
            raise StcError(f"{where}: {key!r} holds {array.dtype} values, expected integers")
        limits = np.iinfo(dtype)
        if array.size and (array.min() < limits.min or array.max() > limits.max):
            raise StcError(f"{where}: {key!r} holds values outside the range of {np.dtype(dtype)}")
        return array.astype(dtype)


def read_npz_array(path: Path, key: str, where: str) -> np.ndarray:
    """The array `key` of an .npz archive; an archive that is not one, is damaged or
    holds Python objects is an error of the block `where`."""
    if not zipfile.is_zipfile(path):
        raise StcError(f"{where}: {str(path)!r} is not an npz archive")
    try:
        with np.load(path, allow_pickle=False) as archive:
            if key not in archive:
                raise StcError(f"{where}: {str(path)!r} has no key {key!r} (keys: {', '.join(archive.files)})")
            return archive[key]
    except (ValueError, EOFError, zipfile.BadZipFile, zlib.error) as e:
        raise StcError(f"{where}: cannot read {key!r} from {str(path)!r} ({e})") from None
