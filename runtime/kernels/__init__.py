"""
numpy kernels with exact integer results: convolutions and fully connected layers on
BLAS, window reductions, the shift-and-saturate output stage, table lookups, and the
vendor layout kernel `vec_trans_scatter`.
"""

from stc.runtime.kernels.conv import conv2d, exact_matmul, fully_connected, sliding_windows
from stc.runtime.kernels.pool import window_max, window_sum
from stc.runtime.kernels.quantize import lookup, saturate_shift

__all__ = [
    "conv2d",
    "exact_matmul",
    "fully_connected",
    "lookup",
    "saturate_shift",
    "sliding_windows",
    "window_max",
    "window_sum",
]
