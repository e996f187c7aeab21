"""
The `st.coord` annotations of a task graph and its `STMatrix`: a matrix writes the places
it changed as annotations, and reads a graph's annotations back as puts, checked like a
script's. Blocks at one place share one attribute, whose place is read once.

```mlir
%c = task.conv 4 %in, %w {st.coord = #st.coord<(0, 0, 0, 1), (0, 0, axon)>}
%b = task.buffer 5 si %c {st.coord = #st.coord<(0, 0, 0, 1), (0, 0 to 1, memory)>}
```
"""

from __future__ import annotations

from stc.compiler.mapping.action_errors import action_error, describe
from stc.compiler.mapping.matrix import STMatrix
from stc.compiler.mapping.place import Place
from stc.dialects.st import COORD, CoordAttr


def annotate(matrix: STMatrix) -> None:
    """Write the coordinate of every block put or taken out since the last call as its
    `st.coord` attribute (removing it from blocks taken out). Every block that carries
    one was put when the matrix read it, so all annotations are then up to date."""
    coords: dict[Place, CoordAttr] = {}  # one attribute for the blocks that share a place
    for task_id in matrix.touched:
        if (op := matrix.blocks.get(task_id)) is None:
            continue
        if (place := matrix.places.get(task_id)) is None:
            op.attributes.pop(COORD, None)
            continue
        if (coord := coords.get(place)) is None:
            coord = coords[place] = place.coord()
        op.attributes[COORD] = coord
    matrix.touched.clear()


def read_annotations(matrix: STMatrix, action: str) -> None:
    """Put every block that carries an `st.coord`, checking it like a script's put, then
    the rules of a finished script."""
    places: dict[int, tuple[CoordAttr, Place]] = {}  # by id(coord); the coord keeps its id taken
    for op in matrix.graph.tasks():
        coord = op.attributes.get(COORD)
        if coord is None:
            continue
        if not isinstance(coord, CoordAttr):
            raise action_error(action, f"{describe(op)}: {COORD} must be a #st.coord, got {coord}")
        if (known := places.get(id(coord))) is None:
            place = Place.at(coord.space, coord.step, coord.phase, coord.stage, coord.last_phase)
            known = places[id(coord)] = (coord, place)
        matrix.put(action, [(op, known[1])])
    matrix.check_complete()
