"""
Where and when blocks run: the spatio-temporal matrix and its rules (`matrix`), the `st`
actions (`actions`), area groups, the mesh, the nets between blocks, placement, routing,
and the seed's interactive `STEnv` (`stc.compiler.mapping.env`).
"""
