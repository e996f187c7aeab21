"""
Power-of-two symmetric int8 quantisation: a real tensor x is held as int8 codes q with
x ≈ q · scale, and every scale between two compute blocks is a power of two times what the
block reads, so that each requantisation is the block's `shift`.

    >>> pow2_scale(6.0)      # the finest power of two that keeps 6.0 within ±127 steps
    0.0625
    >>> shift_for(2.0**-12, 6.0)
    8
"""

from __future__ import annotations

import math

import numpy as np

MAX_SHIFT = 31
"""The largest shift a task block takes."""


def pow2_scale(max_abs: float) -> float:
    """The smallest power of two `s` with max_abs / s ≤ 127; 1 for an all-zero tensor."""
    if not max_abs > 0:
        return 1.0
    return 2.0 ** math.ceil(math.log2(max_abs / 127) - 1e-12)


def is_pow2(value: float) -> bool:
    return value > 0 and math.frexp(value)[0] == 0.5


def log2_exact(value: float) -> int:
    """The exponent of a power of two (callers check `is_pow2` first)."""
    return math.frexp(value)[1] - 1


def shift_for(acc_scale: float, max_abs: float) -> int:
    """The smallest shift in [0, 31] that brings accumulations of real magnitude up to
    `max_abs`, held at `acc_scale` per step, within ±127 steps."""
    if not max_abs > 0:
        return 0
    shift = math.ceil(math.log2(max_abs / (127 * acc_scale)) - 1e-12)
    return min(max(shift, 0), MAX_SHIFT)


def quantize(values: np.ndarray, scale: float) -> np.ndarray:
    """int8 codes of `values` at `scale`, rounded to nearest and saturated."""
    return np.clip(np.rint(np.asarray(values, dtype=np.float64) / scale), -128, 127).astype(np.int8)


def weight_codes(weight: np.ndarray) -> tuple[np.ndarray, float]:
    """int8 codes for a weight tensor and their power-of-two scale (symmetric, ±127)."""
    scale = pow2_scale(float(np.abs(weight).max(initial=0.0)))
    return quantize(weight, scale), scale


def rounded_bias(bias: np.ndarray, shift: int) -> np.ndarray:
    """An int64 bias (already in accumulator steps) plus half a step of the shift, so that
    the block's flooring shift rounds to nearest."""
    offset = (1 << (shift - 1)) if shift > 0 else 0
    return np.rint(bias).astype(np.int64) + offset


BYTE_CODES = np.arange(256, dtype=np.uint8).view(np.int8)
"""The int8 code each table entry answers: a lookup indexes by the input as an unsigned byte."""


def table(function, in_scale: float, out_scale: float) -> np.ndarray:
    """A 256-entry int8 lookup table computing `function` from codes at `in_scale` to
    codes at `out_scale`."""
    real = function(BYTE_CODES.astype(np.float64) * in_scale)
    return quantize(real, out_scale)


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    """Cosine similarity of two tensors taken as flat vectors (1 when both are zero)."""
    a, b = a.astype(np.float64).ravel(), b.astype(np.float64).ravel()
    norms = float(np.linalg.norm(a) * np.linalg.norm(b))
    if norms == 0:
        return 1.0 if not a.any() and not b.any() else 0.0
    return float(a @ b) / norms
