"""Materialises the data references of weight, bias and table blocks as numpy arrays."""

from __future__ import annotations

import math
import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType

from stc.compiler.diagnostics import StcError
from stc.compiler.references import referenced_file
from stc.dialects.task import DataOp, NpzDataAttr, RandomDataAttr
from stc.dialects.task.base import element_width
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
        self._tensors: dict[tuple[object, TensorType], np.ndarray] = {}

    def block(self, op: DataOp) -> np.ndarray:
        """The data a block holds: its box of the referenced tensor."""
        whole = self.tensor(op)
        return whole[tuple(slice(lo, hi) for lo, hi in op.region.data)]

    def tensor(self, op: DataOp) -> np.ndarray:
        key = (op.data, op.full_type)
        if (tensor := self._tensors.get(key)) is None:
            tensor = self._load(op)
            self._tensors[key] = tensor
        return tensor

    def _load(self, op: DataOp) -> np.ndarray:
        bits = element_width(op.full_type)
        assert bits is not None
        dtype, shape = DTYPES[bits], op.full_type.get_shape()
        data = op.data
        if isinstance(data, RandomDataAttr):
            return random_tensor(data.data, shape, RANDOM_SOURCES[bits]).astype(dtype)
        if isinstance(data, DenseIntOrFPElementsAttr):
            return np.array(data.get_values(), dtype=dtype).reshape(shape)
        assert isinstance(data, NpzDataAttr)
        return self._load_npz(op, data, dtype, shape)

    def _load_npz(self, op: DataOp, data: NpzDataAttr, dtype: type, shape: tuple[int, ...]) -> np.ndarray:
        where = f"{op.name} {op.task_id}"
        path = referenced_file(data.path, f"{where}: npz file", self.roots)
        if not path.is_file():
            raise StcError(f"{where}: npz file {str(path)!r} does not exist")
        array = read_npz_array(path, data.key, where)
        if array.shape != shape:
            raise StcError(f"{where}: {data.key!r} has shape {list(array.shape)}, expected {list(shape)}")
        if array.dtype.kind not in "iu":
            raise StcError(f"{where}: {data.key!r} holds {array.dtype} values, expected integers")
        limits = np.iinfo(dtype)
        if array.size and (array.min() < limits.min or array.max() > limits.max):
            raise StcError(f"{where}: {data.key!r} holds values outside the range of {np.dtype(dtype)}")
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
