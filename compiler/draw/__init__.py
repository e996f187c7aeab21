"""Pictures of a compilation: the mapping's mesh per step and phase as SVG (`mapping_svg`)."""
