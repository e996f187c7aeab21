"""
The schedule search (seed 002): simulated annealing over RA trees, with the
layer-sequential and layer-pipeline searches as baselines. See docs/passes/st-search.md.
"""
