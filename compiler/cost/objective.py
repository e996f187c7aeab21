"""
Cost functions of a schedule: energy^a · delay^b, as SET offers them.

    objective("edp")     # e·d, the default
    objective("energy")  # e
    objective("latency") # d
    objective("e2d")     # e²·d   (the seed's eⁿ·d)
    objective("ed2")     # e·d²   (the seed's e·dⁿ)
"""

from __future__ import annotations

import re

from attrs import frozen

from stc.compiler.diagnostics import StcError

NAMED = {"edp": (1, 1), "energy": (1, 0), "latency": (0, 1)}
WEIGHTED = re.compile(r"e(\d*)d(\d*)")


@frozen
class Objective:
    name: str
    energy_exponent: int
    delay_exponent: int

    def __call__(self, energy_pj: float, latency_cycles: float) -> float:
        return energy_pj**self.energy_exponent * latency_cycles**self.delay_exponent


def objective(name: str) -> Objective:
    """The cost function called `name`; see the module docstring."""
    if name in NAMED:
        return Objective(name, *NAMED[name])
    match = WEIGHTED.fullmatch(name)
    if match is None:
        raise StcError(f"unknown cost function {name!r}: use edp, energy, latency, e<N>d or ed<N>")
    return Objective(name, int(match.group(1) or 1), int(match.group(2) or 1))
