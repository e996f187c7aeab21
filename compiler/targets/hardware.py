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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from attrs import fields, frozen

from stc.compiler.diagnostics import StcError

TARGETS_DIR = Path(__file__).parent

ROUTING_ALGORITHMS = ("xy",)
ACTIVATION_LAYOUTS = ("hwc", "nc1hwc0")

Coord = tuple[int, int]
"""A core position `(y, x)` inside one chip."""

Link = tuple[Coord, Coord]
"""One NoC hop, from a core to an adjacent core."""


class TargetError(StcError, ValueError):
    """A target file that cannot be loaded; the message names the file, the key and the
    problem. Tools report it like any StcError: one line, exit code 1."""


@frozen
class Mesh:
    """Chips in a 2-D array, each holding a 2-D mesh of cores."""

    chips_y: int
    chips_x: int
    cores_y: int
    cores_x: int

    @property
    def chip_count(self) -> int:
        return self.chips_y * self.chips_x

    @property
    def cores_per_chip(self) -> int:
        return self.cores_y * self.cores_x

    @property
    def core_count(self) -> int:
        return self.chip_count * self.cores_per_chip


@frozen
class Bank:
    """One bank of a core's local memory."""

    name: str
    capacity_bytes: int


@frozen
class Alignment:
    """Bytes each row of the first-stored dimension is padded to, per storage kind: int8
    activations (BiMap SI/SIC/SIFC/SO), int32 partial sums, weights (SW/SWFC), and bias
    vectors and lookup tables (SB)."""

    activation: int
    partial_sum: int
    weight: int
    bias: int


STORAGE_KINDS = tuple(field.name for field in fields(Alignment))


@frozen
class LocalMemory:
    """The memory next to each core's compute units."""

    capacity_bytes: int
    reserved_bytes: int
    """Bytes no buffer may use, e.g. TianjicX's 4 KB primitive/code region."""
    bandwidth_bytes_per_cycle: float
    banks: tuple[Bank, ...]
    alignment_bytes: Alignment


@frozen
class Compute:
    """A core's MAC array."""

    mac_array_shape: tuple[int, int]
    macs_per_cycle: int
    frequency_mhz: float


@frozen
class Noc:
    """The on-chip network between cores."""

    routing: str
    """The routing algorithm; "xy" goes along x (columns) first, then along y (rows)."""
    link_bandwidth_bytes_per_cycle: float
    hop_latency_cycles: int
    packet_payload_bytes: int


@frozen
class GlobalMemory:
    """Off-core memory (DRAM, GMEM) that every core reaches by DMA."""

    capacity_bytes: int
    bandwidth_bytes_per_cycle: float


@frozen
class Energy:
    """Unit energies in picojoules."""

    mac_pj: float
    local_memory_read_pj_per_byte: float
    local_memory_write_pj_per_byte: float
    noc_pj_per_hop_byte: float
    dram_pj_per_byte: float


@frozen
class ActivationLayout:
    """How a core stores an activation tensor: "hwc" rows, or "nc1hwc0" channel blocks."""

    kind: str
    c0_by_element_bits: tuple[tuple[int, int], ...] = ()
    """For "nc1hwc0": (element width in bits, C0 in elements) pairs."""

    def c0(self, element_bits: int) -> int:
        """C0, the innermost channel block in elements, for one element width.

        >>> load_target("tpu-like").activation_layout.c0(8)
        32
        """
        for bits, c0 in self.c0_by_element_bits:
            if bits == element_bits:
                return c0
        raise ValueError(f"layout {self.kind!r} has no C0 for {element_bits}-bit elements")


@frozen
class TileType:
    """A rectangle of the mesh whose tiles share a kind, as in UG1079 area groups.

    Row and column bounds are inclusive core coordinates.
    """

    name: str
    row_min: int
    row_max: int
    column_min: int
    column_max: int
    memory_bytes: int
    computes: bool
    """Whether compute tasks may be placed on these tiles."""

    def contains(self, y: int, x: int) -> bool:
        return self.row_min <= y <= self.row_max and self.column_min <= x <= self.column_max


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
    return _read_target(_Table(str(path), "", data))


class _Table:
    """One TOML table being read: typed getters that report errors as `file: key: problem`,
    and a final check that no key was left unread (a misspelt key is an error)."""

    def __init__(self, file: str, path: str, data: dict[str, Any]):
        self.file = file
        self.path = path
        self.data = data
        self.read_keys: set[str] = set()

    def error(self, key: str, problem: str) -> TargetError:
        key_path = f"{self.path}.{key}" if self.path else key
        return TargetError(f"{self.file}: {key_path}: {problem}")

    def has(self, key: str) -> bool:
        return key in self.data

    def keys(self) -> Iterator[str]:
        return iter(list(self.data))

    def value(self, key: str) -> Any:
        if key not in self.data:
            raise self.error(key, "missing key")
        self.read_keys.add(key)
        return self.data[key]

    def integer(self, key: str, minimum: int = 0) -> int:
        value = self.value(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(key, f"expected an integer, got {_describe(value)}")
        if value < minimum:
            raise self.error(key, f"expected an integer >= {minimum}, got {value}")
        return value

    def number(self, key: str, positive: bool = False) -> float:
        value = self.value(key)
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise self.error(key, f"expected a number, got {_describe(value)}")
        if value < 0 or (positive and value == 0):
            bound = "> 0" if positive else ">= 0"
            raise self.error(key, f"expected a number {bound}, got {value}")
        return float(value)

    def string(self, key: str, choices: tuple[str, ...] | None = None) -> str:
        value = self.value(key)
        if not isinstance(value, str):
            raise self.error(key, f"expected a string, got {_describe(value)}")
        if choices is not None and value not in choices:
            raise self.error(key, f"expected one of {', '.join(choices)}, got {value!r}")
        return value

    def boolean(self, key: str) -> bool:
        value = self.value(key)
        if not isinstance(value, bool):
            raise self.error(key, f"expected true or false, got {_describe(value)}")
        return value

    def integer_pair(self, key: str, minimum: int = 0) -> tuple[int, int]:
        value = self.value(key)
        if not isinstance(value, list) or len(value) != 2:
            raise self.error(key, f"expected a list of 2 integers, got {_describe(value)}")
        if not all(isinstance(item, int) and not isinstance(item, bool) for item in value):
            raise self.error(key, f"expected a list of 2 integers, got {value}")
        if min(value) < minimum:
            raise self.error(key, f"expected integers >= {minimum}, got {value}")
        return value[0], value[1]

    def table(self, key: str) -> _Table:
        value = self.value(key)
        if not isinstance(value, dict):
            raise self.error(key, f"expected a table, got {_describe(value)}")
        return _Table(self.file, f"{self.path}.{key}" if self.path else key, value)

    def tables(self, key: str) -> list[_Table]:
        value = self.value(key)
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            raise self.error(key, f"expected an array of tables, got {_describe(value)}")
        if not value:
            raise self.error(key, "expected at least one entry")
        prefix = f"{self.path}.{key}" if self.path else key
        return [_Table(self.file, f"{prefix}[{index}]", item) for index, item in enumerate(value)]

    def check_all_read(self) -> None:
        for key in self.data:
            if key not in self.read_keys:
                raise self.error(key, "unknown key")


def _describe(value: Any) -> str:
    kind = {bool: "boolean", str: "string", list: "array", dict: "table"}.get(type(value))
    return f"{kind} {value!r}" if kind else repr(value)


def _read_target(table: _Table) -> HardwareTarget:
    name = table.string("name")
    description = table.string("description")
    max_phases = table.integer("max_phases", minimum=1) if table.has("max_phases") else None
    mesh = _read_mesh(table.table("mesh"))
    local_memory = _read_local_memory(table.table("local_memory"))
    tile_types = _read_tile_types(table, mesh) if table.has("tile_types") else (_whole_mesh_core(mesh, local_memory),)
    target = HardwareTarget(
        name=name,
        description=description,
        mesh=mesh,
        local_memory=local_memory,
        compute=_read_compute(table.table("compute")),
        noc=_read_noc(table.table("noc")),
        global_memory=_read_global_memory(table.table("global_memory")),
        energy=_read_energy(table.table("energy")),
        activation_layout=_read_activation_layout(table.table("activation_layout")),
        tile_types=tile_types,
        max_phases=max_phases,
    )
    table.check_all_read()
    return target


def _read_mesh(table: _Table) -> Mesh:
    mesh = Mesh(
        chips_y=table.integer("chips_y", minimum=1),
        chips_x=table.integer("chips_x", minimum=1),
        cores_y=table.integer("cores_y", minimum=1),
        cores_x=table.integer("cores_x", minimum=1),
    )
    table.check_all_read()
    return mesh


def _read_local_memory(table: _Table) -> LocalMemory:
    capacity = table.integer("capacity_bytes", minimum=1)
    reserved = table.integer("reserved_bytes")
    if reserved > capacity:
        raise table.error("reserved_bytes", f"{reserved} exceeds capacity_bytes {capacity}")
    bandwidth = table.number("bandwidth_bytes_per_cycle", positive=True)
    banks = tuple(bank for entry in table.tables("banks") for bank in _read_banks(entry))
    names = [bank.name for bank in banks]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise table.error("banks", f"duplicate bank names {', '.join(duplicates)}")
    banks_total = sum(bank.capacity_bytes for bank in banks)
    if banks_total != capacity:
        raise table.error("banks", f"bank sizes sum to {banks_total} bytes, not capacity_bytes {capacity}")
    local_memory = LocalMemory(
        capacity_bytes=capacity,
        reserved_bytes=reserved,
        bandwidth_bytes_per_cycle=bandwidth,
        banks=banks,
        alignment_bytes=_read_alignment(table.table("alignment_bytes")),
    )
    table.check_all_read()
    return local_memory


def _read_banks(table: _Table) -> list[Bank]:
    """One `[[banks]]` entry: a bank, or `count` identical banks named `name_0`, `name_1`, …"""
    name = table.string("name")
    count = table.integer("count", minimum=1) if table.has("count") else 1
    capacity = table.integer("capacity_bytes", minimum=1)
    table.check_all_read()
    if count == 1:
        return [Bank(name, capacity)]
    return [Bank(f"{name}_{index}", capacity) for index in range(count)]


def _read_alignment(table: _Table) -> Alignment:
    alignment = Alignment(**{field.name: table.integer(field.name, minimum=1) for field in fields(Alignment)})
    table.check_all_read()
    return alignment


def _read_compute(table: _Table) -> Compute:
    shape = table.integer_pair("mac_array_shape", minimum=1)
    macs = table.integer("macs_per_cycle", minimum=1)
    if shape[0] * shape[1] != macs:
        raise table.error(
            "macs_per_cycle",
            f"{macs} differs from mac_array_shape {shape[0]}x{shape[1]} = {shape[0] * shape[1]}",
        )
    compute = Compute(
        mac_array_shape=shape,
        macs_per_cycle=macs,
        frequency_mhz=table.number("frequency_mhz", positive=True),
    )
    table.check_all_read()
    return compute


def _read_noc(table: _Table) -> Noc:
    noc = Noc(
        routing=table.string("routing", ROUTING_ALGORITHMS),
        link_bandwidth_bytes_per_cycle=table.number("link_bandwidth_bytes_per_cycle", positive=True),
        hop_latency_cycles=table.integer("hop_latency_cycles"),
        packet_payload_bytes=table.integer("packet_payload_bytes", minimum=1),
    )
    table.check_all_read()
    return noc


def _read_global_memory(table: _Table) -> GlobalMemory:
    global_memory = GlobalMemory(
        capacity_bytes=table.integer("capacity_bytes", minimum=1),
        bandwidth_bytes_per_cycle=table.number("bandwidth_bytes_per_cycle", positive=True),
    )
    table.check_all_read()
    return global_memory


def _read_energy(table: _Table) -> Energy:
    energy = Energy(**{field.name: table.number(field.name) for field in fields(Energy)})
    table.check_all_read()
    return energy


def _read_activation_layout(table: _Table) -> ActivationLayout:
    kind = table.string("kind", ACTIVATION_LAYOUTS)
    if kind == "hwc" and table.has("c0_by_element_bits"):
        raise table.error("c0_by_element_bits", "only meaningful for kind 'nc1hwc0'")
    if kind == "hwc":
        table.check_all_read()
        return ActivationLayout(kind)
    if not table.has("c0_by_element_bits"):
        raise table.error("c0_by_element_bits", f"missing key (required by kind {kind!r})")
    c0_table = table.table("c0_by_element_bits")
    c0_by_element_bits = tuple(
        (_element_bits(c0_table, key), c0_table.integer(key, minimum=1)) for key in c0_table.keys()
    )
    if not c0_by_element_bits:
        raise table.error("c0_by_element_bits", "expected at least one element width")
    table.check_all_read()
    return ActivationLayout(kind, c0_by_element_bits)


def _element_bits(table: _Table, key: str) -> int:
    if not key.isdigit() or int(key) == 0:
        raise table.error(key, "expected an element width in bits, such as 8")
    return int(key)


def _whole_mesh_core(mesh: Mesh, local_memory: LocalMemory) -> TileType:
    """The tile type of a target that declares none: "core", covering the whole mesh."""
    return TileType(
        name="core",
        row_min=0,
        row_max=mesh.cores_y - 1,
        column_min=0,
        column_max=mesh.cores_x - 1,
        memory_bytes=local_memory.capacity_bytes,
        computes=True,
    )


def _read_tile_types(target_table: _Table, mesh: Mesh) -> tuple[TileType, ...]:
    tile_types: list[TileType] = []
    for index, table in enumerate(target_table.tables("tile_types")):
        tile_type = _read_tile_type(table, mesh)
        for other in tile_types:
            if other.name == tile_type.name:
                raise table.error("name", f"duplicate tile type {tile_type.name!r}")
            if _overlap(other, tile_type):
                raise target_table.error(f"tile_types[{index}]", f"overlaps tile type {other.name!r}")
        tile_types.append(tile_type)
    if not any(tile_type.computes for tile_type in tile_types):
        raise target_table.error("tile_types", "no tile type computes")
    return tuple(tile_types)


def _read_tile_type(table: _Table, mesh: Mesh) -> TileType:
    tile_type = TileType(
        name=table.string("name"),
        row_min=table.integer("row_min"),
        row_max=table.integer("row_max"),
        column_min=table.integer("column_min"),
        column_max=table.integer("column_max"),
        memory_bytes=table.integer("memory_bytes"),
        computes=table.boolean("computes"),
    )
    table.check_all_read()
    if tile_type.row_min > tile_type.row_max:
        raise table.error("row_max", f"{tile_type.row_max} is below row_min {tile_type.row_min}")
    if tile_type.column_min > tile_type.column_max:
        raise table.error("column_max", f"{tile_type.column_max} is below column_min {tile_type.column_min}")
    if tile_type.row_max >= mesh.cores_y:
        raise table.error("row_max", f"{tile_type.row_max} is outside mesh.cores_y {mesh.cores_y}")
    if tile_type.column_max >= mesh.cores_x:
        raise table.error("column_max", f"{tile_type.column_max} is outside mesh.cores_x {mesh.cores_x}")
    return tile_type


def _overlap(first: TileType, second: TileType) -> bool:
    rows = first.row_min <= second.row_max and second.row_min <= first.row_max
    columns = first.column_min <= second.column_max and second.column_min <= first.column_max
    return rows and columns
