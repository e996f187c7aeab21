"""
numpy kernels with exact integer results: convolutions and fully connected layers on
BLAS, window reductions, the shift-and-saturate output stage, table lookups, and the
vendor layout kernel `vec_trans_scatter`.
"""

from stc.runtime.kernels.conv import conv2d, exact_matmul, fully_connected, sliding_windows
from stc.runtime.kernels.layout import nc1hwc0_to_nchw, nchw_to_nc1hwc0
from stc.runtime.kernels.pool import window_max, window_sum
from stc.runtime.kernels.quantize import lookup, saturate_shift
from stc.runtime.kernels.vec_trans_scatter import VecTransScatterError, vec_trans_scatter

__all__ = [
    "VecTransScatterError",
    "conv2d",
    "exact_matmul",
    "fully_connected",
    "lookup",
    "nc1hwc0_to_nchw",
    "nchw_to_nc1hwc0",
    "saturate_shift",
    "sliding_windows",
    "vec_trans_scatter",
    "window_max",
    "window_sum",
]
