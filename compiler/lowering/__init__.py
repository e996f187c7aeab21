"""From a mapped, allocated task graph to per-core `isa` programs (`isa-lower`)."""
