"""Hardware targets: the machine a network is mapped onto, read from a TOML file.

Targets are data. The presets live in `compiler/targets/<name>.toml`; any other target is a
TOML file with the same keys, passed by path. Units are part of every key name (`_bytes`,
`_bytes_per_cycle`, `_mhz`, `_pj`, `_cycles`); docs/targets.md describes the schema.

Core coordinates are `(y, x)` pairs inside one chip: `y` is the row (0 ≤ y < cores_y) and `x`
the column (0 ≤ x < cores_x).

    >>> target = load_target("tianjicx")
    >>> target.mesh.core_count, target.usable_memory_bytes
    (160, 143360)
    >>> target.xy_route((0, 0), (1, 2))
    [((0, 0), (0, 1)), ((0, 1), (0, 2)), ((0, 2), (1, 2))]
"""

from __future__ import annotations

import functools
import itertools
import tomllib
from pathlib import Path

import attrs
from attrs import frozen

from stc.compiler.targets.components import (
    STORAGE_KINDS,
    ActivationLayout,
    Compute,
    CoreBuffers,
    Energy,
    GlobalMemory,
    LocalMemory,
    Mesh,
    Noc,
    TileType,
)
from stc.compiler.targets.reading import (
    Table,
    TargetError,
    read_activation_layout,
    read_compute,
    read_core_buffers,
    read_energy,
    read_global_memory,
    read_local_memory,
    read_mesh,
    read_noc,
    read_tile_types,
    whole_mesh_core,
)

TARGETS_DIR = Path(__file__).parent

Coord = tuple[int, int]
"""A core position `(y, x)` inside one chip."""

Link = tuple[Coord, Coord]
"""One NoC hop, from a core to an adjacent core."""


@frozen
class HardwareTarget:
    """A many-core machine: its mesh, memories, compute, network, energies and layout."""

    name: str
    description: str
    mesh: Mesh
    local_memory: LocalMemory
    compute: Compute
    noc: Noc
    global_memory: GlobalMemory
    energy: Energy
    activation_layout: ActivationLayout
    tile_types: tuple[TileType, ...]
    max_phases: int | None
    """Phases per step, for phase-synchronous targets (TianjicX); None where unlimited."""
    core_buffers: CoreBuffers | None = None
    """The buffers inside a core between its local memory and its MAC array; None where
    the target does not price them."""

    @property
    def usable_memory_bytes(self) -> int:
        """Local-memory bytes per core that buffers may use."""
        return self.local_memory.capacity_bytes - self.local_memory.reserved_bytes

    def core_exists(self, y: int, x: int) -> bool:
        """Whether `(y, x)` is a tile of the mesh.

        >>> load_target("tianjicx").core_exists(9, 15), load_target("tianjicx").core_exists(15, 9)
        (True, False)
        """
        return any(tile_type.contains(y, x) for tile_type in self.tile_types)

    def tile_type_at(self, y: int, x: int) -> TileType:
        """The tile type of the tile at `(y, x)`.

        >>> load_target("aie-ml").tile_type_at(3, 0).name
        'aie_tile'
        """
        for tile_type in self.tile_types:
            if tile_type.contains(y, x):
                return tile_type
        raise ValueError(f"target {self.name!r} has no tile at (y={y}, x={x})")

    def aligned_bytes(self, kind: str, nbytes: int, rows: int = 1) -> int:
        """Bytes `rows` rows of `nbytes` each take once every row is padded to the kind's
        alignment (BiMap's storage-size model; a row is the first-stored dimension).

        >>> load_target("tianjicx").aligned_bytes("activation", 20, rows=64)
        2048
        """
        if kind not in STORAGE_KINDS:
            raise ValueError(f"unknown storage kind {kind!r}; expected one of {STORAGE_KINDS}")
        if nbytes < 0 or rows < 0:
            raise ValueError(f"negative size: {nbytes} bytes x {rows} rows")
        alignment = getattr(self.local_memory.alignment_bytes, kind)
        return rows * -(-nbytes // alignment) * alignment

    def hops(self, source: Coord, destination: Coord) -> int:
        """NoC hops from one core to another: the Manhattan distance, as XY routing takes.

        >>> load_target("set-8x8").hops((0, 0), (3, 5))
        8
        """
        self._check_core(source)
        self._check_core(destination)
        return abs(source[0] - destination[0]) + abs(source[1] - destination[1])

    def dram_port(self, core: Coord) -> Coord:
        """The core beside the global-memory port that serves `core`: the nearer end of its
        row (the right one on a tie). Global-memory traffic crosses the mesh from there.

        >>> load_target("set-8x8").dram_port((2, 3)), load_target("set-8x8").dram_port((2, 4))
        ((2, 0), (2, 7))
        """
        y, x = core
        columns = self.mesh.cores_x
        return (y, 0 if x < columns - x - 1 else columns - 1)

    def xy_route(self, source: Coord, destination: Coord) -> list[Link]:
        """The links an XY route takes: first along x to the destination column, then
        along y to the destination row. Empty when source and destination coincide.

        >>> load_target("set-8x8").xy_route((1, 1), (0, 2))
        [((1, 1), (1, 2)), ((1, 2), (0, 2))]
        """
        self._check_core(source)
        self._check_core(destination)
        return list(itertools.pairwise(xy_path(source, destination)))

    def with_global_memory(self, **changes: object) -> HardwareTarget:
        """A copy of the target whose global memory has `changes` (a what-if: DMA beside
        compute, multicast loads).

        >>> load_target("tpu-like").with_global_memory(dma_overlaps_compute=True).global_memory.dma_overlaps_compute
        True
        """
        return attrs.evolve(self, global_memory=attrs.evolve(self.global_memory, **changes))

    def with_relay(self, relay: bool = True) -> HardwareTarget:
        """The target with its shared loads relayed (`GlobalMemory.relay_loads`) where
        `relay` asks, it does not multicast them and it has cores to relay them to; else
        itself."""
        if not relay or self.global_memory.multicast_loads or self.mesh.core_count == 1:
            return self
        return self.with_global_memory(relay_loads=True)

    def _check_core(self, coord: Coord) -> None:
        if not self.core_exists(*coord):
            raise ValueError(f"target {self.name!r} has no core at (y, x) = {coord}")


def xy_path(source: Coord, destination: Coord) -> list[Coord]:
    """Every `(y, x)` an XY route passes, both ends included: along x first, then along y.

    >>> xy_path((1, 1), (0, 2))
    [(1, 1), (1, 2), (0, 2)]
    """
    (source_y, source_x), (destination_y, destination_x) = source, destination
    path = [(source_y, x) for x in _walk(source_x, destination_x)]
    path += [(y, destination_x) for y in _walk(source_y, destination_y)]
    path.append(destination)
    return path


def _walk(start: int, stop: int) -> range:
    """Positions from `start` towards `stop`, `stop` excluded."""
    return range(start, stop, 1 if stop >= start else -1)


def target_names() -> list[str]:
    """The preset names: the `.toml` files in compiler/targets/.

    >>> target_names()
    ['aie-ml', 'set-8x8', 'tianjicx', 'tpu-like']
    """
    return sorted(path.stem for path in TARGETS_DIR.glob("*.toml"))


def load_target(name_or_path: str) -> HardwareTarget:
    """A preset by name ("tianjicx"), or the target in a `.toml` file by path.

    A preset is loaded once and then shared; a file is read at every call.
    """
    if names_a_file(name_or_path):
        return _load_file(Path(name_or_path))
    return _load_preset(name_or_path)


def names_a_file(name_or_path: str) -> bool:
    """Whether a target is named by the path of its TOML file rather than as a preset."""
    return name_or_path.endswith(".toml") or "/" in name_or_path or "\\" in name_or_path


@functools.cache
def _load_preset(name: str) -> HardwareTarget:
    names = target_names()
    if name not in names:
        raise TargetError(f"unknown target {name!r}; available: {', '.join(names)}")
    return _load_file(TARGETS_DIR / f"{name}.toml")


def _load_file(path: Path) -> HardwareTarget:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise TargetError(f"{path}: cannot read: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise TargetError(f"{path}: invalid TOML: {error}") from None
    return _read_target(Table(str(path), "", data))


def _read_target(table: Table) -> HardwareTarget:
    name = table.string("name")
    description = table.string("description")
    max_phases = table.integer("max_phases", minimum=1) if table.has("max_phases") else None
    mesh = read_mesh(table.table("mesh"))
    local_memory = read_local_memory(table.table("local_memory"))
    tile_types = read_tile_types(table, mesh) if table.has("tile_types") else (whole_mesh_core(mesh, local_memory),)
    target = HardwareTarget(
        name=name,
        description=description,
        mesh=mesh,
        local_memory=local_memory,
        compute=read_compute(table.table("compute")),
        noc=read_noc(table.table("noc")),
        global_memory=read_global_memory(table.table("global_memory")),
        energy=read_energy(table.table("energy")),
        activation_layout=read_activation_layout(table.table("activation_layout")),
        tile_types=tile_types,
        max_phases=max_phases,
        core_buffers=read_core_buffers(table.table("core_buffers")) if table.has("core_buffers") else None,
    )
    table.check_all_read()
    return target
