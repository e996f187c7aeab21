"""The rules of a place of a target: a core that exists, a phase below its count, and the
phases a stage may span."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from stc.compiler.targets.hardware import HardwareTarget

Space = tuple[int, int, int, int]
"""(chip y, chip x, core y, core x)."""


def phases_problem(phase: int, last_phase: int, stage: str) -> str | None:
    """Why a stage cannot hold a block from `phase` to `last_phase`, or None."""
    if last_phase < phase:
        return "the last phase comes before the first"
    if last_phase != phase and stage != "memory":
        return "only the memory stage spans phases"
    return None


def place_problem(target: HardwareTarget, space: Space, last_phase: int) -> str | None:
    """Why a core and a last phase are not a place of `target`, or None."""
    chip_y, chip_x, core_y, core_x = space
    mesh = target.mesh
    if chip_y >= mesh.chips_y or chip_x >= mesh.chips_x:
        chips = f"{mesh.chips_y}x{mesh.chips_x}"
        return f"chip ({chip_y}, {chip_x}) is outside {target.name}'s {chips} chips"
    if not target.core_exists(core_y, core_x):
        cores = f"{mesh.cores_y}x{mesh.cores_x}"
        return f"core ({core_y}, {core_x}) does not exist on {target.name} ({cores} cores)"
    if target.max_phases is not None and last_phase >= target.max_phases:
        return f"phase {last_phase} is not below {target.name}'s {target.max_phases} phases"
    return None
