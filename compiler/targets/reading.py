"""Reading a hardware target's TOML tables: typed getters that name the file and the key in
every error, a check that no key is left unread (a misspelt key is an error), and one reader
per part of the target (docs/targets.md describes the schema).

    >>> read_mesh(Table("t.toml", "mesh", {"chips_y": 1, "chips_x": 1, "cores_y": 8, "cores_x": 8}))
    Mesh(chips_y=1, chips_x=1, cores_y=8, cores_x=8)
    >>> try:
    ...     read_mesh(Table("t.toml", "mesh", {"chips_y": 1, "chips_x": 1, "cores_y": 8, "cores": 8}))
    ... except TargetError as error:
    ...     print(error)
    t.toml: mesh.cores_x: missing key
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from attrs import NOTHING, fields

from stc.compiler.diagnostics import StcError
from stc.compiler.targets.components import (
    ActivationLayout,
    Alignment,
    Bank,
    Compute,
    CoreBuffers,
    Energy,
    GlobalMemory,
    LocalMemory,
    Mesh,
    Noc,
    TileType,
)

ROUTING_ALGORITHMS = ("xy",)
ACTIVATION_LAYOUTS = ("hwc", "nc1hwc0")


class TargetError(StcError, ValueError):
    """A target file that cannot be loaded; the message names the file, the key and the
    problem. Tools report it like any StcError: one line, exit code 1."""


class Table:
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

    def table(self, key: str) -> Table:
        value = self.value(key)
        if not isinstance(value, dict):
            raise self.error(key, f"expected a table, got {_describe(value)}")
        return Table(self.file, f"{self.path}.{key}" if self.path else key, value)

    def tables(self, key: str) -> list[Table]:
        value = self.value(key)
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            raise self.error(key, f"expected an array of tables, got {_describe(value)}")
        if not value:
            raise self.error(key, "expected at least one entry")
        prefix = f"{self.path}.{key}" if self.path else key
        return [Table(self.file, f"{prefix}[{index}]", item) for index, item in enumerate(value)]

    def check_all_read(self) -> None:
        for key in self.data:
            if key not in self.read_keys:
                raise self.error(key, "unknown key")


def _describe(value: Any) -> str:
    kind = {bool: "boolean", str: "string", list: "array", dict: "table"}.get(type(value))
    return f"{kind} {value!r}" if kind else repr(value)


def read_mesh(table: Table) -> Mesh:
    mesh = Mesh(
        chips_y=table.integer("chips_y", minimum=1),
        chips_x=table.integer("chips_x", minimum=1),
        cores_y=table.integer("cores_y", minimum=1),
        cores_x=table.integer("cores_x", minimum=1),
    )
    table.check_all_read()
    return mesh


def read_local_memory(table: Table) -> LocalMemory:
    capacity = table.integer("capacity_bytes", minimum=1)
    reserved = table.integer("reserved_bytes")
    if reserved > capacity:
        raise table.error("reserved_bytes", f"{reserved} exceeds capacity_bytes {capacity}")
    bandwidth = table.number("bandwidth_bytes_per_cycle", positive=True)
    banks = tuple(bank for entry in table.tables("banks") for bank in read_banks(entry))
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
        alignment_bytes=read_alignment(table.table("alignment_bytes")),
    )
    table.check_all_read()
    return local_memory


def read_banks(table: Table) -> list[Bank]:
    """One `[[banks]]` entry: a bank, or `count` identical banks named `name_0`, `name_1`, …"""
    name = table.string("name")
    count = table.integer("count", minimum=1) if table.has("count") else 1
    capacity = table.integer("capacity_bytes", minimum=1)
    table.check_all_read()
    if count == 1:
        return [Bank(name, capacity)]
    return [Bank(f"{name}_{index}", capacity) for index in range(count)]


def read_alignment(table: Table) -> Alignment:
    alignment = Alignment(**{field.name: table.integer(field.name, minimum=1) for field in fields(Alignment)})
    table.check_all_read()
    return alignment


def read_compute(table: Table) -> Compute:
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
        fused_activation=table.boolean("fused_activation") if table.has("fused_activation") else False,
    )
    table.check_all_read()
    return compute


def read_noc(table: Table) -> Noc:
    noc = Noc(
        routing=table.string("routing", ROUTING_ALGORITHMS),
        link_bandwidth_bytes_per_cycle=table.number("link_bandwidth_bytes_per_cycle", positive=True),
        hop_latency_cycles=table.integer("hop_latency_cycles"),
        packet_payload_bytes=table.integer("packet_payload_bytes", minimum=1),
    )
    table.check_all_read()
    return noc


def read_global_memory(table: Table) -> GlobalMemory:
    global_memory = GlobalMemory(
        capacity_bytes=table.integer("capacity_bytes", minimum=1),
        bandwidth_bytes_per_cycle=table.number("bandwidth_bytes_per_cycle", positive=True),
        dma_overlaps_compute=table.boolean("dma_overlaps_compute") if table.has("dma_overlaps_compute") else False,
        multicast_loads=table.boolean("multicast_loads") if table.has("multicast_loads") else False,
    )
    table.check_all_read()
    return global_memory


def read_energy(table: Table) -> Energy:
    energy = Energy(
        **{
            field.name: table.number(field.name)
            for field in fields(Energy)
            if field.default is NOTHING or table.has(field.name)
        }
    )
    table.check_all_read()
    return energy


def read_core_buffers(table: Table) -> CoreBuffers:
    counts = ("vector_width", "lanes", "psum_positions", "weight_vectors", "channel_split")
    core_buffers = CoreBuffers(
        **{
            field.name: table.integer(field.name, minimum=1) if field.name in counts else table.number(field.name)
            for field in fields(CoreBuffers)
        }
    )
    table.check_all_read()
    return core_buffers


def read_activation_layout(table: Table) -> ActivationLayout:
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


def _element_bits(table: Table, key: str) -> int:
    if not key.isdigit() or int(key) == 0:
        raise table.error(key, "expected an element width in bits, such as 8")
    return int(key)


def whole_mesh_core(mesh: Mesh, local_memory: LocalMemory) -> TileType:
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


def read_tile_types(target_table: Table, mesh: Mesh) -> tuple[TileType, ...]:
    tile_types: list[TileType] = []
    for index, table in enumerate(target_table.tables("tile_types")):
        tile_type = read_tile_type(table, mesh)
        for other in tile_types:
            if other.name == tile_type.name:
                raise table.error("name", f"duplicate tile type {tile_type.name!r}")
            if _overlap(other, tile_type):
                raise target_table.error(f"tile_types[{index}]", f"overlaps tile type {other.name!r}")
        tile_types.append(tile_type)
    if not any(tile_type.computes for tile_type in tile_types):
        raise target_table.error("tile_types", "no tile type computes")
    return tuple(tile_types)


def read_tile_type(table: Table, mesh: Mesh) -> TileType:
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
