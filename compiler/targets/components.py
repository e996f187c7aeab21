"""The parts of a hardware target: its mesh, local memory and banks, MAC array, network,
global memory, unit energies, activation layout and tile types (docs/targets.md).

    >>> Mesh(chips_y=1, chips_x=1, cores_y=10, cores_x=16).core_count
    160
"""

from __future__ import annotations

from attrs import fields, frozen


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
    fused_activation: bool = False
    """Whether a conv or fc applies its layer's relu or lookup table to its outputs on their
    way out of the array (`isa.conv ... relu C` / `lut TABLE`): no vector pass for it."""


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
    dma_overlaps_compute: bool = False
    """The DMA engines run beside the compute units (TPU-MLIR's GDMA): a core's phase lasts
    max(its DMA cycles, its other cycles) instead of their sum."""
    multicast_loads: bool = False
    """One DRAM read may reach several cores (`isa.dma_multicast`): isa-lower loads a weight,
    bias or table box that several cores load in one phase once, along the XY multicast tree
    from the loading core's port."""
    relay_loads: bool = False
    """Not a property of the hardware (no TOML sets it) but the compiler's choice, on a
    target without `multicast_loads`: a box that several cores load in one phase is
    loaded once, by the first of them, which sends it to the others along the XY
    multicast tree (`isa.dma_load`, then `isa.send`). Set by a searched mapping's
    `st.relay_loads` (`HardwareTarget.with_relay`)."""

    @property
    def shares_loads(self) -> bool:
        """Whether a box several cores load in one phase is read from DRAM once."""
        return self.multicast_loads or self.relay_loads


@frozen
class Energy:
    """Unit energies in picojoules."""

    mac_pj: float
    local_memory_read_pj_per_byte: float
    local_memory_write_pj_per_byte: float
    noc_pj_per_hop_byte: float
    dram_pj_per_byte: float


@frozen
class CoreBuffers:
    """The buffers between a core's local memory and its MAC array, and the dataflow through
    them (SET's Polar core; docs/cost-model.md, "Inside a core"): each lane reduces
    `vector_width` input channels per cycle into one partial sum; `lanes` lanes (output
    channels) share one activation vector; a lane's partial-sum buffer holds `psum_positions`
    outputs, its weight buffer `weight_vectors` vectors; a lane group's input channels may be
    split over `channel_split` PEs. Energies in pJ per element accessed."""

    vector_width: int
    lanes: int
    psum_positions: int
    weight_vectors: int
    channel_split: int
    activation_read_pj: float
    activation_write_pj: float
    weight_read_pj: float
    weight_write_pj: float
    psum_read_pj: float
    psum_write_pj: float
    output_read_pj: float
    output_write_pj: float

    @property
    def energies(self) -> tuple[float, ...]:
        """pJ per AL1, WL1, OL1 and OL2 read and write (`cost_units.CORE_BUFFER_ACCESSES`)."""
        return (
            self.activation_read_pj,
            self.activation_write_pj,
            self.weight_read_pj,
            self.weight_write_pj,
            self.psum_read_pj,
            self.psum_write_pj,
            self.output_read_pj,
            self.output_write_pj,
        )


@frozen
class ActivationLayout:
    """How a core stores an activation tensor: "hwc" rows, or "nc1hwc0" channel blocks."""

    kind: str
    c0_by_element_bits: tuple[tuple[int, int], ...] = ()
    """For "nc1hwc0": (element width in bits, C0 in elements) pairs."""

    def c0(self, element_bits: int) -> int:
        """C0, the innermost channel block in elements, for one element width.

        >>> ActivationLayout("nc1hwc0", ((8, 32), (16, 16))).c0(16)
        16
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
