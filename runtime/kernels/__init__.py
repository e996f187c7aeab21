"""
numpy kernels with exact integer results: convolutions and fully connected layers on
BLAS, window reductions, element-wise sums, products and maxima, table lookups and the
shift-and-saturate output stage. The vendor layout kernel `vec_trans_scatter` and the
layout conversions built on it are imported from their modules (`vec_trans_scatter`,
`layout`): they apply the isa dialect's rules, which a task graph's run does not load.
"""

from stc.runtime.kernels.conv import conv2d, exact_matmul, fully_connected, sliding_windows
from stc.runtime.kernels.elementwise import at_least, branch_sum, lookup, product
from stc.runtime.kernels.pool import window_max, window_sum
from stc.runtime.kernels.quantize import saturate_shift

__all__ = [
    "at_least",
    "branch_sum",
    "conv2d",
    "exact_matmul",
    "fully_connected",
    "lookup",
    "product",
    "saturate_shift",
    "sliding_windows",
    "window_max",
    "window_sum",
]
