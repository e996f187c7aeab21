"""
The `st` dialect: where and when each block of a task graph runs (DESIGN §2.2).

A coordinate `#st.coord<(chip y, chip x, core y, core x), (step, phase, stage)>` names a
core of the mesh and a pipeline stage of one phase of one step. A mapping is a script of
actions on one task graph, in the spirit of MLIR's transform dialect: TianjicX's
`split_task`, `split_group`, `put_in`, `put_group_in` and `take_out`, and UG1079's area
groups. The `st-apply` pass executes it; `st-place` and `st-route` complete it. See
docs/st-dialect.md.

```mlir
st.mapping @fc target "tianjicx" {
  st.put_group_in 3 at (0, 0, 0, 0), (0, 1, axon)
  st.area_group "left" [3] {core columns 0 to 1 rows 0 to 9} exclusive_placement
}
```
"""

from xdsl.ir import Dialect

from stc.compiler.irdl_accessors import direct_accessors
from stc.compiler.irdl_checks import compile_checks
from stc.dialects.st.actions import (
    KeepOp,
    PutGroupInOp,
    PutInOp,
    ShareDataOp,
    SplitGroupOp,
    SplitTaskOp,
    StoreLateOp,
    TakeOutOp,
    is_split_vector,
)
from stc.dialects.st.area_group import AREA_FLAGS, AreaGroupOp, RectAttr
from stc.dialects.st.attrs import (
    COMPUTE_STAGES,
    COORD,
    ROUTES,
    CoordAttr,
    RouteAttr,
    Space,
    Stage,
    StageAttr,
    coord_problem,
    format_coord,
    format_space,
    phases_problem,
    place_problem,
)
from stc.dialects.st.local_memory import (
    ADDRESS,
    KEEP,
    STAGING_IN,
    STAGING_OUT,
    STORE_LATE,
    late_phases,
    verify_local_memory,
)
from stc.dialects.st.mapping import RELAY_LOADS, ActionOp, MappingOp

__all__ = [
    "ADDRESS",
    "AREA_FLAGS",
    "COMPUTE_STAGES",
    "COORD",
    "KEEP",
    "ROUTES",
    "STAGING_IN",
    "STAGING_OUT",
    "STORE_LATE",
    "late_phases",
    "ActionOp",
    "AreaGroupOp",
    "CoordAttr",
    "KeepOp",
    "MappingOp",
    "RELAY_LOADS",
    "PutGroupInOp",
    "PutInOp",
    "RectAttr",
    "RouteAttr",
    "ShareDataOp",
    "Space",
    "SplitGroupOp",
    "SplitTaskOp",
    "St",
    "Stage",
    "StageAttr",
    "StoreLateOp",
    "TakeOutOp",
    "coord_problem",
    "format_coord",
    "format_space",
    "is_split_vector",
    "phases_problem",
    "place_problem",
    "verify_local_memory",
]

St = direct_accessors(
    compile_checks(
        Dialect(
            "st",
            [
                MappingOp,
                SplitTaskOp,
                SplitGroupOp,
                ShareDataOp,
                StoreLateOp,
                KeepOp,
                PutInOp,
                PutGroupInOp,
                TakeOutOp,
                AreaGroupOp,
            ],
            [CoordAttr, StageAttr, RectAttr, RouteAttr],
        )
    )
)
