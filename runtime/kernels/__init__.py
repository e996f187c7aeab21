"""
numpy kernels with exact integer results: convolutions and fully connected layers on
BLAS, window reductions, element-wise sums, products and maxima, table lookups, the
shift-and-saturate output stage, and the vendor layout kernel `vec_trans_scatter`.
"""

from stc.dialects.isa.vec_trans_scatter_rules import VecTransScatterError
from stc.runtime.kernels.conv import conv2d, exact_matmul, fully_connected, sliding_windows
from stc.runtime.kernels.elementwise import at_least, branch_sum, lookup, product
from stc.runtime.kernels.layout import nc1hwc0_to_nchw, nchw_to_nc1hwc0
from stc.runtime.kernels.pool import window_max, window_sum
from stc.runtime.kernels.quantize import saturate_shift
from stc.runtime.kernels.vec_trans_scatter import vec_trans_scatter

__all__ = [
    "VecTransScatterError",
    "at_least",
    "branch_sum",
    "conv2d",
    "exact_matmul",
    "fully_connected",
    "lookup",
    "nc1hwc0_to_nchw",
    "nchw_to_nc1hwc0",
    "product",
    "saturate_shift",
    "sliding_windows",
    "vec_trans_scatter",
    "window_max",
    "window_sum",
]
