"""
Hand-made `isa` programs, each with the task graph that computes the same thing (its
twin); they pin the machine's semantics independently of `isa-lower`:

- `conv_rows`: a conv split by output rows over a row of cores, which swap halo rows
  over the NoC;
- `layout_conv`: a conv on an NC1HWC0 target that converts its NCHW input and output
  with `vec_trans_scatter` sequences;
- `layout_round_trip`: NCHW → NC1HWC0 → NCHW, the identity;
- `every_op`: two cores that use every compute instruction and exchange a tile.

tests/lit/isa holds their text (`write_lit_files`); the machine benchmark runs
`conv_rows` at ResNet-18 size. One module per concept: `example` (what every example is
built from), `conv` (`conv_rows`), `layouts`, `instructions` (`every_op`), `lit`.
"""

from stc.tools.isa_examples.conv import conv_rows, snake, split_rows
from stc.tools.isa_examples.example import Allocator, Example, local_allocator
from stc.tools.isa_examples.instructions import every_op
from stc.tools.isa_examples.layouts import layout_conv, layout_round_trip, staging_buffers
from stc.tools.isa_examples.lit import LIT_EXAMPLES, lit_files, write_lit_files

__all__ = [
    "LIT_EXAMPLES",
    "Allocator",
    "Example",
    "conv_rows",
    "every_op",
    "layout_conv",
    "layout_round_trip",
    "lit_files",
    "local_allocator",
    "snake",
    "split_rows",
    "staging_buffers",
    "write_lit_files",
]
